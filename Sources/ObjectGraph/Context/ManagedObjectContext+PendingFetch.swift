extension ManagedObjectContext {
    /// Whether unsaved changes of `entity` have to be merged into the results of `request`.
    func hasPendingChanges<Result>(of entity: EntityDescription, in request: FetchRequest<Result>) -> Bool {
        guard request.includesPendingChanges, hasChanges else { return false }
        return pendingInserts.contains { $0.entity === entity }
            || updated.values.contains { $0.entity === entity }
            || deleted.values.contains { $0.entity === entity }
    }

    /// Fetches objects, merging the context's unsaved changes when the request includes them:
    /// deleted objects drop out, changed objects are matched and sorted by their current values,
    /// matching inserted objects join. Paging is applied after the merge, so the store is asked
    /// for enough rows to survive the objects the merge may remove.
    func fetchObjects<Result>(_ plan: FetchPlan, request: FetchRequest<Result>, store: any PersistentStore) throws -> [ManagedObject] {
        let space = store.idSpaces[plan.entity.index]
        guard hasPendingChanges(of: plan.entity, in: request) else {
            return registeredObjects(for: try store.fetch(plan.storeRequest(skippingRowsLoadedIn: self, space: space)), in: space)
        }
        let changed = updated.values.filter { $0.entity === plan.entity } + deleted.values.filter { $0.entity === plan.entity }
        var storeRequest = plan.storeRequest(skippingRowsLoadedIn: self, space: space)
        storeRequest.offset = 0
        storeRequest.limit = plan.storeRequest.limit.map { $0 + request.fetchOffset + changed.count }

        var results: [ManagedObject] = []
        var included = Set<ObjectIdentifier>()
        for snapshot in try store.fetch(storeRequest) {
            let object = registeredObject(for: snapshot, in: space)
            guard !object.isDeleted, !object.isUpdated || plan.matches(object) else { continue }
            results.append(object)
            included.insert(ObjectIdentifier(object))
        }
        for object in changed where object.isUpdated && !included.contains(ObjectIdentifier(object)) && plan.matches(object) {
            results.append(object)
        }
        for object in pendingInserts where object.entity === plan.entity && plan.matches(object) {
            results.append(object)
        }
        results.sort(by: plan.precedes)
        let start = min(request.fetchOffset, results.count)
        let end = request.fetchLimit > 0 ? min(start + request.fetchLimit, results.count) : results.count
        return Array(results[start..<end])
    }
}
