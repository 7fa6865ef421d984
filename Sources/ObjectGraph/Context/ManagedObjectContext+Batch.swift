extension ManagedObjectContext {
    /// Deletes the matching objects in one transaction on the store's queue, without loading
    /// them. This context and others keep showing them until `mergeChanges(from:into:)`.
    public func execute(_ request: BatchDeleteRequest) throws -> BatchResult {
        if let objectIDs = request.objectIDs { return try executeDelete(of: objectIDs) }
        let entity = try requireModel().requireEntity(request.entityName)
        return try execute(
            StoreBatchRequest(
                entity: entity, predicate: try bind(request.predicate, entity), includesSubentities: request.includesSubentities,
                operation: .delete), .deleted)
    }

    /// Deletes the objects with `objectIDs`, all of one hierarchy, as `SELF IN` their IDs.
    private func executeDelete(of objectIDs: [ManagedObjectID]) throws -> BatchResult {
        guard let first = objectIDs.first else { return BatchResult(change: .deleted, objectIDs: []) }
        let model = try requireModel()
        let root = model.root(of: try model.requireEntity(first.entity.name))
        if let stranger = objectIDs.first(where: { model.root(of: $0.entity) !== root }) {
            throw ObjectGraphError(
                .invalidOperation,
                "a batch delete runs on one entity hierarchy, but \(stranger.shortDescription) is not a kind of \(root.name) like \(first.shortDescription); make one request per hierarchy",
                entityName: stranger.entity.name, objectID: stranger)
        }
        let predicate = try FetchPredicate(format: "SELF IN %@", objectIDs)
        return try execute(
            StoreBatchRequest(entity: root, predicate: try bind(predicate, root), includesSubentities: true, operation: .delete), .deleted)
    }

    /// Updates the matching objects in one transaction on the store's queue, without loading them.
    public func execute(_ request: BatchUpdateRequest) throws -> BatchResult {
        let entity = try requireModel().requireEntity(request.entityName)
        var values: [Int: AttributeValue] = [:]
        for (key, value) in request.propertiesToUpdate {
            let slot = try entity.requireSlot(key)
            guard !entity.attributes[slot].isTransient else {
                throw ObjectGraphError(
                    .invalidOperation, "\(entity.name).\(key) is transient: a batch update writes only stored attributes",
                    entityName: entity.name, key: key)
            }
            guard !entity.attributes[slot].isPrimaryKey else {
                throw ObjectGraphError(
                    .invalidOperation, "\(entity.name).\(key) is \(entity.name)'s primary key: a batch update cannot change objects' keys",
                    entityName: entity.name, key: key)
            }
            let converted = try AttributeValue(converting: value, toSlot: slot, of: entity)
            // Checked here for every store alike: a sub-entity's column in a shared table is nullable.
            guard !converted.isNull || entity.attributes[slot].isOptional else {
                throw ObjectGraphError(
                    .constraintViolation,
                    "Cannot update \(entity.name) objects: \(entity.name).\(key) is required but the batch update sets it to nil; nothing was written.",
                    entityName: entity.name, key: key)
            }
            values[slot] = converted
        }
        do {
            return try execute(
                StoreBatchRequest(
                    entity: entity, predicate: try bind(request.predicate, entity), includesSubentities: request.includesSubentities,
                    operation: .update(values)), .updated)
        } catch let error as ObjectGraphError where error.kind == .constraintViolation {
            // One wording for every store (they find the clash at different rows).
            var reworded = ObjectGraphError(
                .constraintViolation,
                "Cannot update \(entity.name) objects: the new values break the uniqueness constraint\(error.key.map { " on \($0)" } ?? ""); nothing was written.",
                entityName: entity.name, key: error.key)
            reworded.sqliteCode = error.sqliteCode
            reworded.sql = error.sql
            throw reworded
        }
    }

    /// Inserts the objects in one transaction on the store's queue, without making managed objects.
    public func execute(_ request: BatchInsertRequest) throws -> BatchResult {
        let entity = try requireModel().requireEntity(request.entityName)
        guard !entity.isAbstract else {
            throw ObjectGraphError(
                .invalidOperation, "cannot insert \(entity.name) objects: the entity is abstract", entityName: entity.name)
        }
        guard request.count >= 0 else {
            throw ObjectGraphError(
                .invalidOperation, "a batch insert's count must not be negative (got \(request.count))", entityName: entity.name)
        }
        // One row buffer for the whole batch: a store that is done with a row by the time it asks
        // for the next (SQLite's) lets it be refilled in place, with no allocation per row.
        var values = BatchInsertValues(entity: entity, row: entity.defaultValues)
        let row = { (index: Int) throws -> ValueRow in
            values.resetToDefaults()
            try request.fill(index, &values)
            return values.row
        }
        return try execute(StoreBatchRequest(entity: entity, operation: .insert(count: request.count, row: row)), .inserted)
    }

    /// Brings `contexts` up to date with what a batch request did: deleted objects are marked
    /// deleted (as a merged save's deletions are) and leave the relationships that held them,
    /// updated objects are refreshed (keeping their own unsaved changes), inserted objects need
    /// nothing (fetches find them). Each context is updated on its own queue and posts
    /// objects-did-change.
    public static func mergeChanges(from result: BatchResult, into contexts: [ManagedObjectContext]) {
        let ids = Set(result.objectIDs)
        let changes =
            switch result.change {
            case .inserted: ContextChanges(event: .didSave, insertedObjectIDs: ids)
            case .updated: ContextChanges(event: .didSave, updatedObjectIDs: ids)
            case .deleted: ContextChanges(event: .didSave, deletedObjectIDs: ids)
            }
        for context in contexts {
            context.performAndWait { context.mergeChanges(changes) }
        }
    }

    private func execute(_ request: StoreBatchRequest, _ change: BatchResult.Change) throws -> BatchResult {
        let store = try requireStore()
        var request = request
        request.contextName = name
        request.author = transactionAuthor
        let objectIDs = try store.execute(request)
        persistentStoreCoordinator?.rowCache.removeAll()
        return BatchResult(change: change, objectIDs: objectIDs)
    }

    private func bind(_ predicate: FetchPredicate?, _ entity: EntityDescription) throws -> BoundPredicate? {
        try predicate?.bind(to: entity, in: try requireModel())
    }

    private func requireModel() throws -> ManagedObjectModel {
        guard let model else {
            throw ObjectGraphError(.invalidOperation, "the context\(nameForMessages) has no persistent store coordinator")
        }
        return model
    }
}
