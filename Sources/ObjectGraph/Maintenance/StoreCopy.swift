import Foundation

/// Copies every object of one store into a new, empty store of any kind (a SQLite file into a
/// PostgreSQL database and back), through the store seam: the source's rows and memberships
/// (`StoreContents`) become one save in the destination with the same keys, and the
/// destination is created with the source's store identifier, so object IDs and URIs name the
/// same objects in both. The source is opened without migrating and never changed.
package enum StoreCopy {
    /// What a copy did.
    package struct Outcome {
        /// The objects copied.
        package let objects: Int
        /// Whether the destination has the source's store identifier (it has, unless it was an
        /// empty store already, which keeps its own).
        package let keptIdentifier: Bool
    }

    /// Copies the store `source` describes, written by `model`, into the one `destination`
    /// describes, which must hold no object; `progress` hears what is being done. Throws when
    /// the source needs migrating to `model`, or the destination holds objects or another model.
    package static func copy(
        from source: PersistentStoreDescription, to destination: PersistentStoreDescription, model: ManagedObjectModel,
        progress: (String) -> Void = { _ in }
    ) throws -> Outcome {
        let sourceCoordinator = PersistentStoreCoordinator(managedObjectModel: model)
        var reading = source
        reading.shouldMigrateStoreAutomatically = false
        if reading.type == .sqlite { reading.isReadOnly = true }
        try sourceCoordinator.addPersistentStore(with: reading)
        defer { sourceCoordinator.removePersistentStore() }
        let original = try sourceCoordinator.requireStore()
        let contents = try StoreContents(of: original) { entity, rows in progress("read \(rows) \(entity.name) objects") }

        var writing = destination
        writing.shouldMigrateStoreAutomatically = false
        writing.identifierOfNewStore = original.identifier
        let destinationCoordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try destinationCoordinator.addPersistentStore(with: writing)
        defer { destinationCoordinator.removePersistentStore() }
        let copy = try destinationCoordinator.requireStore()
        for entity in model.entities where model.root(of: entity) === entity {
            let count = try copy.count(StoreFetchRequest(entity: entity))
            guard count == 0 else {
                throw ObjectGraphError(
                    .invalidOperation,
                    "Cannot copy into a store that holds objects (\(count) \(entity.name) objects already); copy into an empty store or a new location",
                    entityName: entity.name)
            }
        }
        progress("writing \(contents.rows.count) objects")
        _ = try copy.save(contents.saveRequest(model: model, spaces: copy.idSpaces))
        return Outcome(objects: contents.rows.count, keptIdentifier: copy.identifier == original.identifier)
    }
}
