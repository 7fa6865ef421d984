import Foundation

/// A fetch request checked against the model: the entity, the bound predicate and sort.
struct FetchPlan {
    let entity: EntityDescription
    let predicate: BoundPredicate?
    let sort: [BoundSort]
    let storeRequest: StoreFetchRequest
    /// The entities (by index) whose objects the predicate reads through relationships.
    let reachedEntities: Set<Int>

    init<Result>(_ request: FetchRequest<Result>, model: ManagedObjectModel) throws {
        let entity = try model.requireEntity(request.entityName)
        self.entity = entity
        predicate = try request.predicate?.bind(to: entity, in: model)
        sort = try request.sortDescriptors.map { try $0.bind(to: entity, in: model) }
        reachedEntities = Self.reachedEntities(predicate, sort, model)
        guard request.fetchLimit >= 0, request.fetchOffset >= 0 else {
            throw ObjectGraphError(
                .invalidOperation, "fetchLimit and fetchOffset must not be negative (got \(request.fetchLimit) and \(request.fetchOffset))",
                entityName: entity.name)
        }
        storeRequest = StoreFetchRequest(
            entity: entity, predicate: predicate, sort: sort,
            limit: request.fetchLimit > 0 ? request.fetchLimit : nil, offset: request.fetchOffset,
            includesSubentities: request.includesSubentities)
    }

    /// The plan of a request already bound for a store (a child context's fetch, which its
    /// parent answers).
    init(_ storeRequest: StoreFetchRequest, model: ManagedObjectModel) {
        entity = storeRequest.entity
        predicate = storeRequest.predicate
        sort = storeRequest.sort
        reachedEntities = Self.reachedEntities(predicate, sort, model)
        self.storeRequest = storeRequest
    }

    /// The entities (by index, sub-entities included) whose objects `predicate` and `sort` read
    /// through relationships.
    private static func reachedEntities(_ predicate: BoundPredicate?, _ sort: [BoundSort], _ model: ManagedObjectModel) -> Set<Int> {
        var reached = predicate?.reachedEntityIndexes ?? []
        for term in sort {
            if case .path(let path, _) = term.operand { reached.formUnion(path.hops.map(\.relationship.destinationIndex)) }
        }
        return Set(reached.flatMap { model.kindIndexes[$0] })
    }

    /// The store request, told which rows `context` already holds so their values need not be
    /// decoded again (a context keeps the values it has; a fetch does not refresh them).
    func storeRequest(skippingRowsLoadedIn context: ManagedObjectContext, spaces: [ObjectIDSpace]) -> StoreFetchRequest {
        var request = storeRequest
        if context.hasRegisteredObjects {
            request.isAlreadyLoaded = { [context] key, entityIndex in
                context.holdsLoadedObject(ManagedObjectID(space: spaces[entityIndex], primaryKey: key))
            }
        }
        return request
    }

    /// Whether the object's current values match the predicate; key paths through relationships
    /// read the destinations' rows through `resolve`.
    func matches(_ object: ManagedObject, resolve: BoundPredicate.RowResolver) -> Bool {
        predicate?.evaluate(object.values, entity: object.entity, objectID: object.objectID, resolve: resolve) ?? true
    }

    /// Result order: the sort keys, then saved objects by primary key, then unsaved ones in
    /// insertion order — the same order the stores use.
    func precedes(_ a: ManagedObject, _ b: ManagedObject, resolve: BoundPredicate.RowResolver) -> Bool {
        let rowA = SortedRow(values: a.values, entity: a.entity, objectID: a.objectID)
        let rowB = SortedRow(values: b.values, entity: b.entity, objectID: b.objectID)
        switch compareRows(rowA, rowB, by: sort, resolve: resolve) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: return Self.creationOrder(a.objectID.key) < Self.creationOrder(b.objectID.key)
        }
    }

    private static func creationOrder(_ key: ManagedObjectID.Key) -> (Int, UInt64) {
        switch key {
        case .permanent(let primaryKey): (0, UInt64(bitPattern: primaryKey))
        case .temporary(let number): (1, number)
        }
    }
}
