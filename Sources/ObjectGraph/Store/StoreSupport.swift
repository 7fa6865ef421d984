/// Refuses models that stores of this version cannot hold yet, the same way for every store, so
/// a model that opens in the in-memory store of a test also opens in SQLite and vice versa.
/// Entity inheritance is validated in models but stored from a later version.
func checkStoreSupports(_ model: ManagedObjectModel, storeKind: String) throws {
    let children = model.entities.compactMap { entity in entity.parentName.map { "\(entity.name) inherits from \($0)" } }
    guard children.isEmpty else {
        throw ObjectGraphError(.invalidOperation, "The model '\(model.name)' cannot be opened in \(storeKind): entity inheritance is not supported by this version of the store yet (\(children.joined(separator: ", ")))")
    }
}
