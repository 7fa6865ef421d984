extension ManagedObjectContext {
    /// Whether unsaved changes have to be merged into the results of `request`: changes of the
    /// fetched entities, or of entities the predicate reaches through relationships.
    func hasPendingChanges<Result>(for plan: FetchPlan, in request: FetchRequest<Result>) -> Bool {
        guard request.includesPendingChanges, hasChanges, let model else { return false }
        let fetched = Self.fetchedEntities(plan.entity, request, model)
        return hasChanges(amongEntities: fetched) || hasChanges(amongEntities: plan.reachedEntities)
    }

    /// Whether an inserted, updated or deleted object is of one of `entities` (by index).
    private func hasChanges(amongEntities entities: Set<Int>) -> Bool {
        guard !entities.isEmpty else { return false }
        return pendingInserts.contains { entities.contains($0.entity.index) }
            || updated.contains { entities.contains($0.entity.index) }
            || deleted.contains { entities.contains($0.entity.index) }
    }

    /// Rows and to-many members as this context sees them (its unsaved changes included), for
    /// predicates through relationships; what cannot be read counts as nil or empty.
    var rowResolver: BoundPredicate.RowResolver {
        BoundPredicate.RowResolver(
            row: { [self] objectID in
                if let object = registeredObject(for: objectID) {
                    if object.values.isEmpty { try? object.fulfillFault() }
                    return object.values.isEmpty ? nil : object.values
                }
                return try? storedSnapshot(of: objectID).values
            },
            members: { [self] objectID, relationship in
                let owner = registeredObject(for: objectID) ?? object(with: objectID)
                return (try? owner.loadedToMany[owner.loadRelationship(relationship)]?.objects.map(\.objectID)) ?? []
            })
    }

    /// The positions of the entities whose objects `request` returns: the entity, and its
    /// sub-entities unless the request excludes them.
    private static func fetchedEntities<Result>(
        _ entity: EntityDescription, _ request: FetchRequest<Result>, _ model: ManagedObjectModel
    ) -> Set<Int> {
        request.includesSubentities ? Set(model.kindIndexes[entity.index]) : [entity.index]
    }

    /// Fetches objects, merging the context's unsaved changes when the request includes them:
    /// deleted objects drop out, changed objects are matched and sorted by their current values,
    /// matching inserted objects join. Paging is applied after the merge, so the store is asked
    /// for enough rows to survive the objects the merge may remove.
    func fetchObjects<Result>(_ plan: FetchPlan, request: FetchRequest<Result>, store: any PersistentStore) throws -> [ManagedObject] {
        let spaces = store.idSpaces
        guard hasPendingChanges(for: plan, in: request) else {
            let storeRequest = plan.storeRequest(skippingRowsLoadedIn: self, spaces: spaces)
            let rows = try store.fetch(storeRequest)
            sharedRowCache?.remember(rows)
            return registeredObjects(
                for: rows, in: spaces, asFaults: request.returnsObjectsAsFaults, rowsMayLackValues: storeRequest.isAlreadyLoaded != nil)
        }
        let fetched = Self.fetchedEntities(plan.entity, request, store.model)
        let changed =
            updated.filter { fetched.contains($0.entity.index) } + deleted.filter { fetched.contains($0.entity.index) }
        var storeRequest = plan.storeRequest(skippingRowsLoadedIn: self, spaces: spaces)
        storeRequest.offset = 0
        storeRequest.limit = plan.storeRequest.limit.map { $0 + request.fetchOffset + changed.count }
        // When objects the predicate reaches through relationships changed, the store's answer
        // may be stale for any row: every row is matched here, against the current graph.
        let matchEveryRow = hasChanges(amongEntities: plan.reachedEntities)
        if matchEveryRow {
            storeRequest.predicate = nil
            storeRequest.limit = nil
        }

        var results: [ManagedObject] = []
        var included = Set<ObjectIdentifier>()
        for snapshot in try store.fetch(storeRequest) {
            let object = registeredObject(for: snapshot, in: spaces[snapshot.entityIndex], asFault: request.returnsObjectsAsFaults)
            guard !object.isDeleted, !(object.isUpdated || matchEveryRow) || plan.matches(object, resolve: rowResolver) else { continue }
            results.append(object)
            included.insert(ObjectIdentifier(object))
        }
        for object in changed
        where object.isUpdated && !included.contains(ObjectIdentifier(object)) && plan.matches(object, resolve: rowResolver) {
            results.append(object)
        }
        for object in pendingInserts where fetched.contains(object.entity.index) && plan.matches(object, resolve: rowResolver) {
            results.append(object)
        }
        let resolver = rowResolver
        results.sort { plan.precedes($0, $1, resolve: resolver) }
        let start = min(request.fetchOffset, results.count)
        let end = request.fetchLimit > 0 ? min(start + request.fetchLimit, results.count) : results.count
        return Array(results[start..<end])
    }
}
