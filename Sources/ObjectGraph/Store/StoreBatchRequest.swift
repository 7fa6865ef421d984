/// A batch operation as a store carries it out: straight on the rows, no objects involved.
/// Both stores turn it into one `SaveRequest` inside their write transaction (`saveRequest`),
/// so a batch follows exactly the rules of a save: constraints, key counters, join-table pairs.
struct StoreBatchRequest: Sendable {
    enum Operation: Sendable {
        /// Delete the matching rows; foreign keys pointing at them are set to NULL.
        case delete
        /// Set these value-row slots of the matching rows.
        case update([Int: AttributeValue])
        /// Insert these rows (one value per slot of the entity's value rows).
        case insert([[AttributeValue]])
    }

    let entity: EntityDescription
    var predicate: BoundPredicate?
    var includesSubentities = true
    let operation: Operation

    /// The save that carries out the batch, and the objects it deletes or updates (inserted
    /// objects have temporary IDs here: their keys come from the save). `read` reads rows inside
    /// the write transaction.
    func saveRequest(model: ManagedObjectModel, read: (StoreFetchRequest) throws -> [Snapshot], spaces: [ObjectIDSpace]) throws -> (SaveRequest, [ManagedObjectID]) {
        var request = SaveRequest()
        func id(_ row: Snapshot) -> ManagedObjectID { ManagedObjectID(space: spaces[row.entityIndex], primaryKey: row.primaryKey) }
        switch operation {
        case .insert(let rows):
            let space = ObjectIDSpace(entity: entity, storeIdentifier: "")
            request.inserts = rows.map { SaveRequest.Insert(objectID: ManagedObjectID(space: space, temporaryNumber: TemporaryIDGenerator.next()), values: $0) }
            return (request, request.inserts.map(\.objectID))
        case .update(let values):
            let rows = try read(matching)
            request.updates = rows.map { row in
                var updated = row.values
                for (slot, value) in values { updated[slot] = value }
                return SaveRequest.Update(objectID: id(row), changedAttributes: values.keys.sorted(), values: updated)
            }
            return (request, request.updates.map(\.objectID))
        case .delete:
            let deleted = try read(matching).map(id)
            let doomed = Set(deleted)
            request.deletes = deleted
            // Rows of any entity whose to-one relationship points at a deleted row lose that link.
            for source in model.entities {
                for relationship in source.toOneRelationships {
                    let targets = deleted.filter { model.entity($0.entity, isKindOf: model.entities[relationship.destinationIndex]) }
                    guard !targets.isEmpty else { continue }
                    var referencing = StoreFetchRequest(entity: source)
                    referencing.includesSubentities = false
                    referencing.predicate = BoundPredicate(root: .membership(.reference(relationship), targets.map { .object($0) }))
                    for row in try read(referencing) where !doomed.contains(id(row)) {
                        var values = row.values
                        values[relationship.slot] = .null
                        request.updates.append(SaveRequest.Update(objectID: id(row), changedAttributes: [relationship.slot], values: values))
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
