import Foundation

extension FetchedResultsController {
    /// The index paths of the shown objects that `changes` updated, when the changes provably
    /// leave every object where it is, so the request need not run again; nil when it must.
    ///
    /// An edit of a key the request does not filter, sort or section by is the common case (a
    /// note's text, a download's progress), and its cost must not grow with the number of
    /// objects shown: each updated object is checked on its own — it still matches, still sorts
    /// after the object before it and before the one after it, still belongs to its section.
    /// Insertions and deletions of the fetched entity, updated objects the context does not hold
    /// (they may match now), paging, key paths through relationships and requests that leave out
    /// pending changes all take the full path.
    func inPlaceUpdates(_ changes: ContextChanges, indexPaths: [ObjectIdentifier: IndexPath]) throws -> [IndexPath]? {
        let context = managedObjectContext
        guard fetchRequest.fetchLimit == 0, fetchRequest.fetchOffset == 0, fetchRequest.includesPendingChanges,
            sectionNameKeyPath?.contains(".") != true, let sections, let objects = fetchedObjects, let model = context.model,
            let plan = try? FetchPlan(fetchRequest, model: model), plan.reachedEntities.isEmpty
        else { return nil }
        let kinds = Set(fetchRequest.includesSubentities ? model.kindIndexes[plan.entity.index] : [plan.entity.index])
        func isFetched(_ objectID: ManagedObjectID) -> Bool { kinds.contains(objectID.entity.index) }
        guard !changes.insertedObjectIDs.contains(where: isFetched), !changes.deletedObjectIDs.contains(where: isFetched) else {
            return nil
        }
        let resolve = context.rowResolver
        var paths: [IndexPath] = []
        for objectID in changes.updatedObjectIDs.union(changes.refreshedObjectIDs) where isFetched(objectID) {
            guard let object = context.liveObject(objectID), !object.values.isEmpty else { return nil }
            guard let path = indexPaths[ObjectIdentifier(object)] else {
                // Not shown: fine as long as it still does not match.
                if plan.matches(object, resolve: resolve) { return nil }
                continue
            }
            let flat = sections[..<path.section].reduce(0) { $0 + $1.numberOfObjects } + path.item
            guard plan.matches(object, resolve: resolve),
                flat == 0 || plan.precedes(objects[flat - 1], object, resolve: resolve),
                flat == objects.count - 1 || plan.precedes(object, objects[flat + 1], resolve: resolve),
                try sectionNameKeyPath.map({ Self.sectionName(try object.value(forKeyPath: $0)) == sections[path.section].name }) ?? true
            else { return nil }
            paths.append(path)
        }
        return paths.sorted()
    }
}
