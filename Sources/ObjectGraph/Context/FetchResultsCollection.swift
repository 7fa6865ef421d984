/// The results of `ManagedObjectContext.fetch(_:batchSize:)`: a random-access collection that
/// knows every result's object ID from the start and loads the objects themselves one batch at a
/// time, as they are read. Only the batch last read is kept; earlier objects are released once
/// nothing else holds them, so iterating a million results needs memory for one batch.
///
/// Like the context's objects, the collection belongs to the context's queue.
public struct FetchResultsCollection<Result: FetchRequestResult>: RandomAccessCollection {
    /// The loaded batch, shared by copies of the collection (and its iterators).
    final class Batches {
        let context: ManagedObjectContext
        let objectIDs: [ManagedObjectID]
        /// Objects already in memory when the fetch ran (unsaved changes merged in), by position.
        let preloaded: [ManagedObject]?
        let batchSize: Int
        var current: (number: Int, objects: [ManagedObject])?

        init(context: ManagedObjectContext, objectIDs: [ManagedObjectID], preloaded: [ManagedObject]?, batchSize: Int) {
            self.context = context
            self.objectIDs = objectIDs
            self.preloaded = preloaded
            self.batchSize = batchSize
        }

        func object(at position: Int) throws -> ManagedObject {
            if let preloaded { return preloaded[position] }
            let number = position / batchSize
            if current?.number != number {
                let start = number * batchSize
                let ids = Array(objectIDs[start..<Swift.min(start + batchSize, objectIDs.count)])
                current = (number, try context.loadedObjects(with: ids))
            }
            return current!.objects[position % batchSize]
        }
    }

    let batches: Batches

    public var startIndex: Int { 0 }
    public var endIndex: Int { batches.objectIDs.count }

    /// The result at `position`, loading its batch if needed. If the batch cannot be loaded (the
    /// store cannot be read, or an object was deleted since the fetch), the object comes back as
    /// a fault and reading it throws the reason, as with Core Data; `object(at:)` throws at once.
    public subscript(position: Int) -> Result {
        if let result = try? object(at: position) { return result }
        // `fetch(_:batchSize:)` makes collections of ID results, which never fail above, or of a
        // class every fetched entity's objects are made as.
        return batches.context.object(with: batches.objectIDs[position]) as! Result
    }

    /// The result at `position`, loading its batch if needed; throws when the store cannot be
    /// read or the object was deleted since the fetch.
    public func object(at position: Int) throws -> Result {
        if Result.self == ManagedObjectID.self { return batches.objectIDs[position] as! Result }
        let object = try batches.object(at: position)
        guard let result = object as? Result else { throw batches.context.resultTypeMismatch(object, requested: Result.self) }
        return result
    }

    /// The object IDs of every result, in order, without loading any object.
    public var objectIDs: [ManagedObjectID] { batches.objectIDs }
}

@available(*, unavailable)
extension FetchResultsCollection: Sendable {}

extension ManagedObjectContext {
    /// Fetches like `fetch(_:)`, but returns a collection that loads the objects `batchSize` at a
    /// time as they are read, keeping memory bounded however many objects match (one query for
    /// the matching keys, then one per batch). With unsaved changes of the entity in the context,
    /// the merged results are loaded at once, as `fetch(_:)` would.
    public func fetch<Result: FetchRequestResult>(_ request: FetchRequest<Result>, batchSize: Int) throws -> FetchResultsCollection<Result>
    {
        guard batchSize > 0 else {
            throw ObjectGraphError(.invalidOperation, "batchSize must be positive (got \(batchSize))", entityName: request.entityName)
        }
        guard Result.self is ManagedObject.Type || Result.self == ManagedObjectID.self else {
            throw ObjectGraphError(
                .typeMismatch, "batched fetches return managed objects or ManagedObjectID results, not \(Result.self)",
                entityName: request.entityName)
        }
        let store = try requireStore()
        let plan = try FetchPlan(request, model: store.model)
        if Result.self != ManagedObjectID.self { try checkObjectClasses(plan, request: request, model: store.model) }
        if hasPendingChanges(for: plan, in: request) {
            let objects = try fetchObjects(plan, request: request, store: store)
            return FetchResultsCollection(
                batches: .init(context: self, objectIDs: objects.map(\.objectID), preloaded: objects, batchSize: batchSize))
        }
        var keysOnly = plan.storeRequest
        // Every row counts as held already: the store returns keys, not values.
        keysOnly.isAlreadyLoaded = { _, _ in true }
        let objectIDs = try store.fetch(keysOnly).map { ManagedObjectID(space: store.idSpaces[$0.entityIndex], primaryKey: $0.primaryKey) }
        return FetchResultsCollection(batches: .init(context: self, objectIDs: objectIDs, preloaded: nil, batchSize: batchSize))
    }

    /// The objects with `objectIDs`, in order, with their rows: registered ones as they are, the
    /// others loaded with one store request per entity. Throws `.objectNotFound` for a missing row.
    func loadedObjects(with objectIDs: [ManagedObjectID]) throws -> [ManagedObject] {
        let objects = objectIDs.map { object(with: $0) }
        try fulfillFaults(objects)
        if let missing = objects.first(where: { $0.values.isEmpty && $0.entity.rowWidth > 0 }) {
            throw ObjectGraphError(
                .objectNotFound, "\(missing.objectID.shortDescription) was deleted from the store after the fetch that returned it",
                entityName: missing.entity.name, objectID: missing.objectID)
        }
        return objects
    }
}
