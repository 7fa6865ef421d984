/// Refuses models that stores of this version cannot hold yet, the same way for every store, so
/// a model that opens in the in-memory store of a test also opens in SQLite and vice versa.
/// Relationships and entity inheritance are validated in models but stored from a later version.
func checkStoreSupports(_ model: ManagedObjectModel, storeKind: String) throws {
    var problems: [String] = []
    let relationships = model.entities.flatMap { entity in entity.relationships.map { "\(entity.name).\($0.name)" } }
    if !relationships.isEmpty {
        problems.append("relationships are not supported by this version of the store yet (\(relationships.joined(separator: ", ")))")
    }
    let children = model.entities.compactMap { entity in entity.parentName.map { "\(entity.name) inherits from \($0)" } }
    if !children.isEmpty {
        problems.append("entity inheritance is not supported by this version of the store yet (\(children.joined(separator: ", ")))")
    }
    guard problems.isEmpty else {
        throw ObjectGraphError(.invalidOperation, "The model '\(model.name)' cannot be opened in \(storeKind): \(problems.joined(separator: "; "))")
    }
}
