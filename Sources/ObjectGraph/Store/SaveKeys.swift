/// The primary keys of one save's inserted rows, assigned before any row is written so that rows
/// of the same save can refer to each other (a new book to its new author) in any order.
struct SaveKeys {
    /// The key given to each inserted object that had a temporary ID.
    private var assigned: [ManagedObjectID: Int64] = [:]
    /// The store's ID space of each entity.
    let idSpaces: [ObjectIDSpace]

    init(idSpaces: [ObjectIDSpace]) {
        self.idSpaces = idSpaces
    }

    mutating func assign(_ key: Int64, to objectID: ManagedObjectID) {
        assigned[objectID] = key
    }

    /// The primary key of `objectID`, saved or assigned by this save, or an error naming who refers
    /// to the unsaved object.
    func key(of objectID: ManagedObjectID, referencedBy source: ManagedObjectID, through relationship: String) throws -> Int64 {
        if let key = objectID.primaryKey ?? assigned[objectID] { return key }
        throw ObjectGraphError(
            .invalidOperation,
            "Cannot save \(source.shortDescription): its relationship '\(relationship)' refers to \(objectID.shortDescription), which is neither saved nor inserted in this save (it was deleted, or never inserted); nothing was written.",
            entityName: source.entity.name, objectID: source, key: relationship)
    }

    /// The store's permanent ID for `objectID`.
    func permanentID(of objectID: ManagedObjectID, referencedBy source: ManagedObjectID, through relationship: String) throws -> ManagedObjectID {
        if !objectID.isTemporaryID { return objectID }
        return ManagedObjectID(space: idSpaces[objectID.entity.index], primaryKey: try key(of: objectID, referencedBy: source, through: relationship))
    }

    /// `values` with every to-one destination given its permanent ID.
    func resolvingReferences(in values: [AttributeValue], of objectID: ManagedObjectID) throws -> [AttributeValue] {
        var values = values
        for relationship in objectID.entity.toOneRelationships {
            guard case .object(let destination) = values[relationship.slot], destination.isTemporaryID else { continue }
            values[relationship.slot] = .object(try permanentID(of: destination, referencedBy: objectID, through: relationship.name))
        }
        return values
    }
}
