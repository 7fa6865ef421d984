import Foundation

/// Copies every object of one store into a new, empty store of any kind (a SQLite file into a
/// PostgreSQL database and back), through the store seam: the source's rows and memberships are
/// read a page at a time (`StoreContents`' functions) and written into the destination with the
/// same keys, all in one transaction (`save(inParts:)`), so memory holds one page whatever the
/// store's size and a failed copy leaves the destination empty. The destination is created with
/// the source's store identifier, so object IDs and URIs name the same objects in both. The
/// source is opened without migrating and never changed.
package enum StoreCopy {
    /// Rows read and written at a time: large enough that each page is a few statements of
    /// many rows, small enough that a page of large values stays small beside the store.
    package static let rowsPerPage = 20_000

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
        rowsPerPage: Int = rowsPerPage, progress: (String) -> Void = { _ in }
    ) throws -> Outcome {
        let sourceCoordinator = PersistentStoreCoordinator(managedObjectModel: model)
        var reading = source
        reading.shouldMigrateStoreAutomatically = false
        if reading.type == .sqlite { reading.isReadOnly = true }
        try sourceCoordinator.addPersistentStore(with: reading)
        defer { sourceCoordinator.removePersistentStore() }
        let original = try sourceCoordinator.requireStore()

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
        var copied = 0
        try copy.save(inParts: { apply in
            copied = 0
            // Every row first, then the memberships: an ordered to-many kept in its
            // destinations' rows writes their positions there, so they must exist.
            for entity in model.entities {
                try forEachPage(of: entity, includingSubentities: false, in: original, rowsPerPage: rowsPerPage) { rows in
                    var request = SaveRequest()
                    request.inserts = SaveRequest.Inserts(rows.map { StoreContents.insert(of: $0, spaces: copy.idSpaces) })
                    try apply(request)
                    copied += rows.count
                    progress("copied \(copied) objects (\(entity.name))")
                }
            }
            let layout = RelationshipLayout(model: model)
            for entity in model.entities {
                for relationship in StoreContents.membershipRelationships(of: entity, layout: layout) {
                    try forEachPage(of: entity, includingSubentities: true, in: original, rowsPerPage: rowsPerPage) { owners in
                        var request = SaveRequest()
                        request.relationshipChanges = try StoreContents.memberships(
                            of: relationship, in: entity, owners: owners, from: original
                        ).map { StoreContents.change($0, spaces: copy.idSpaces) }
                        try apply(request)
                        progress("copied \(entity.name).\(relationship.name) of \(owners.count) objects")
                    }
                }
            }
        })
        return Outcome(objects: copied, keptIdentifier: copy.identifier == original.identifier)
    }

    /// Calls `body` with the rows of `entity` in `store`, in key order, `rowsPerPage` at a time
    /// (each page starts after the last key of the one before: no rows skipped and counted
    /// again, as an offset would).
    private static func forEachPage(
        of entity: EntityDescription, includingSubentities: Bool, in store: any PersistentStore, rowsPerPage: Int,
        _ body: ([Snapshot]) throws -> Void
    ) throws {
        var last: ManagedObjectID?
        while true {
            var request = StoreFetchRequest(entity: entity)
            request.includesSubentities = includingSubentities
            request.limit = rowsPerPage
            request.predicate = last.map { BoundPredicate(root: .ordering(.ownObject, .greater, .value(.object($0)))) }
            let rows = try store.fetch(request)
            guard let lastRow = rows.last else { return }
            try body(rows)
            guard rows.count == rowsPerPage else { return }
            last = ManagedObjectID(space: store.idSpaces[entity.index], primaryKey: lastRow.primaryKey)
        }
    }
}
