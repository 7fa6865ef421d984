/// A batch operation as a store carries it out: straight on the rows, no objects involved.
/// Both stores turn it into one `SaveRequest` inside their write transaction (`saveRequest`),
/// so a batch follows exactly the rules of a save: constraints, key counters, join-table pairs.
package struct StoreBatchRequest {
    enum Operation {
        /// Delete the matching rows; foreign keys pointing at them are set to NULL.
        case delete
        /// Set these value-row slots of the matching rows.
        case update([Int: AttributeValue])
        /// Insert `count` rows, made one at a time by `row` (one value per slot of the entity's
        /// value rows), so a large insert never holds all its rows at once.
        case insert(count: Int, row: (Int) throws -> ValueRow)
    }

    let entity: EntityDescription
    var predicate: BoundPredicate?
    var includesSubentities = true
    let operation: Operation
    /// The requesting context's `name` and `transactionAuthor`, for persistent history.
    var contextName: String?
    var author: String?

    /// Rows per save request of a batch insert: large enough that statements and bookkeeping
    /// are amortised, small enough that a million-row insert stays in a few megabytes.
    static let insertChunk = 5_000

    /// Carries out the batch inside the store's write transaction: `read` reads rows in it,
    /// `apply` writes a save request in it (returning the keys given to inserted rows). Returns
    /// the objects inserted, updated or deleted.
    package func run(
        model: ManagedObjectModel, spaces: [ObjectIDSpace],
        read: (StoreFetchRequest) throws -> [Snapshot], apply: (SaveRequest) throws -> [Int64]
    ) throws -> [ManagedObjectID] {
        guard case .insert(let count, let row) = operation else {
            let (request, objectIDs) = try saveRequest(model: model, read: read, spaces: spaces)
            _ = try apply(request)
            return objectIDs
        }
        let space = ObjectIDSpace(entity: entity, storeIdentifier: "")
        var inserted: [ManagedObjectID] = []
        inserted.reserveCapacity(count)
        for start in stride(from: 0, to: count, by: Self.insertChunk) {
            var request = SaveRequest(contextName: contextName, author: author)
            request.inserts = SaveRequest.Inserts(
                try (start..<min(start + Self.insertChunk, count)).map {
                    SaveRequest.Insert(
                        objectID: ManagedObjectID(space: space, temporaryNumber: TemporaryIDGenerator.next()), values: try row($0))
                })
            inserted += try apply(request).map { ManagedObjectID(space: spaces[entity.index], primaryKey: $0) }
        }
        return inserted
    }

    /// The save that carries out a delete or an update, and the objects it changes.
    private func saveRequest(
        model: ManagedObjectModel, read: (StoreFetchRequest) throws -> [Snapshot], spaces: [ObjectIDSpace]
    ) throws -> (SaveRequest, [ManagedObjectID]) {
        var request = SaveRequest(contextName: contextName, author: author)
        func id(_ row: Snapshot) -> ManagedObjectID { ManagedObjectID(space: spaces[row.entityIndex], primaryKey: row.primaryKey) }
        switch operation {
        case .insert:
            return (request, [])
        case .update(let values):
            let rows = try read(matching)
            request.updates = rows.map { row in
                var updated = row.values
                for (slot, value) in values { updated[slot] = value }
                return SaveRequest.Update(objectID: id(row), changedAttributes: values.keys.sorted(), values: updated)
            }
            return (request, request.updates.map(\.objectID))
        case .delete:
            // Only the keys of the deleted rows are needed: the store skips their values.
            var keysOnly = matching
            keysOnly.isAlreadyLoaded = { _, _ in true }
            let deleted = try read(keysOnly).map(id)
            request.deletes = deleted
            // Rows of any entity whose to-one relationship points at a deleted row lose that link.
            let deletedKinds = Set(model.kindIndexes[entity.index])
            var doomed: Set<ManagedObjectID>?
            for source in model.entities {
                for relationship in source.toOneRelationships
                where model.kindIndexes[relationship.destinationIndex].contains(where: deletedKinds.contains) {
                    let targets = deleted.filter { model.entity($0.entity, isKindOf: model.entities[relationship.destinationIndex]) }
                    guard !targets.isEmpty else { continue }
                    let skip = doomed ?? Set(deleted)
                    doomed = skip
                    var referencing = StoreFetchRequest(entity: source)
                    referencing.includesSubentities = false
                    referencing.predicate = BoundPredicate(root: .membership(.reference(relationship), targets.map { .object($0) }))
                    for row in try read(referencing) where !skip.contains(id(row)) {
                        var values = row.values
                        values[relationship.slot] = .null
                        request.updates.append(
                            SaveRequest.Update(objectID: id(row), changedAttributes: [relationship.slot], values: values))
                    }
                }
            }
            return (request, deleted)
        }
    }

    /// The rows the batch works on, with their values.
    private var matching: StoreFetchRequest {
        var request = StoreFetchRequest(entity: entity)
        request.predicate = predicate
        request.includesSubentities = includesSubentities
        return request
    }
}
