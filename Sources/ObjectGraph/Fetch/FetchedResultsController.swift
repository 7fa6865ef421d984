import Foundation

/// One section of a `FetchedResultsController`'s results: the objects whose section key path
/// has the same value.
public struct FetchedResultsSection<Result: ManagedObject> {
    /// The section key path's value for the section's objects, as text (`""` for nil; the whole
    /// result is one section named `""` without a section key path).
    public let name: String
    /// The section's objects, in the fetch request's order.
    public let objects: [Result]
    /// How many objects the section holds.
    public var numberOfObjects: Int { objects.count }
}

/// The results of a fetch request kept current as the context changes, split into sections, for
/// a list on screen or any other view of a query: Core Data's NSFetchedResultsController.
///
/// ```swift
/// var request = FetchRequest<ManagedObject>(entityName: "Book")
/// request.sortDescriptors = [FetchSortDescriptor(key: "author.name"), FetchSortDescriptor(key: "title")]
/// let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
///                                           sectionNameKeyPath: "author.name")
/// controller.delegate = self
/// try controller.performFetch()
/// let first = try controller.object(at: IndexPath(item: 0, section: 0))
/// ```
///
/// After `performFetch()`, every save of the context, every change merged into it (another
/// context's save, a child's save) and every `processPendingChanges()` (the context's unsaved
/// changes) that touches the fetched entity runs the request again and tells the delegate what
/// moved, as a diff of the old and new results: the results are always what the request
/// fetches now. When only objects it shows changed and none of them moves (an edit of a key the
/// request does not filter, sort or section by), it tells their updates without running the
/// request, so such an edit costs the same whether it shows ten objects or ten thousand. Like Core Data's, it sees changes of the fetched entity's
/// objects only: renaming an author does not regroup books sectioned by `author.name` until the
/// next change of a book or `performFetch()`. Use it on its context's queue.
public final class FetchedResultsController<Result: ManagedObject> {
    /// The request whose results the controller holds; it must have sort descriptors, and with a
    /// section key path the first must sort by it.
    public let fetchRequest: FetchRequest<Result>
    /// The context the controller fetches in and watches.
    public let managedObjectContext: ManagedObjectContext
    /// The key path whose value groups the objects into sections, or `nil` for one section.
    public let sectionNameKeyPath: String?
    /// Told of every change of the results; held weakly.
    public weak var delegate: (any FetchedResultsControllerDelegate<Result>)?
    /// The fetched objects in order, or `nil` before `performFetch()`.
    public private(set) var fetchedObjects: [Result]?
    /// The sections in order, or `nil` before `performFetch()`.
    public private(set) var sections: [FetchedResultsSection<Result>]?
    /// Why the last automatic refresh after a change failed (the results were left as they
    /// were), or `nil` when it succeeded.
    public private(set) var refreshError: ObjectGraphError?

    /// The sections' objects by identity: a save that makes an inserted object's ID permanent
    /// leaves it the same object.
    private var layout = Diff.Layout(sections: []) {
        didSet { indexPaths = layout.indexPaths }
    }
    /// Where each fetched object is, kept with `layout`.
    private var indexPaths: [ObjectIdentifier: IndexPath] = [:]
    private typealias Diff = FetchedResultsDiff<ObjectIdentifier>
    private var isObserving = false

    /// A controller for `fetchRequest` in `context`, grouped by `sectionNameKeyPath` (one section
    /// when `nil`). Nothing is fetched until `performFetch()`.
    public init(fetchRequest: FetchRequest<Result>, managedObjectContext context: ManagedObjectContext, sectionNameKeyPath: String? = nil) {
        self.fetchRequest = fetchRequest
        self.managedObjectContext = context
        self.sectionNameKeyPath = sectionNameKeyPath
    }

    /// Runs the fetch request and starts following the context's changes. Throws
    /// `.invalidOperation` when the request has no sort descriptors or its first does not sort
    /// by the section key path, and any error of the fetch itself.
    public func performFetch() throws {
        managedObjectContext.checkQueue("FetchedResultsController.performFetch()")
        let context = managedObjectContext
        guard let first = fetchRequest.sortDescriptors.first else {
            throw ObjectGraphError(
                .invalidOperation,
                "a FetchedResultsController needs a fetch request with sort descriptors: they order its sections and objects",
                entityName: fetchRequest.entityName)
        }
        if let sectionNameKeyPath, first.key != sectionNameKeyPath {
            throw ObjectGraphError(
                .invalidOperation,
                "the first sort descriptor of a FetchedResultsController's request must sort by its section key path '\(sectionNameKeyPath)' (found '\(first.key)'), so that each section's objects come together",
                entityName: fetchRequest.entityName, key: sectionNameKeyPath)
        }
        let objects = try context.fetch(fetchRequest)
        let sections = try group(objects)
        fetchedObjects = objects
        self.sections = sections
        layout = Self.layout(of: sections)
        refreshError = nil
        if !isObserving {
            context.addResultsObserver(self)
            isObserving = true
        }
    }

    /// The object at `indexPath` (`item` within `section`); `.invalidOperation` when there is
    /// none there or nothing was fetched yet.
    public func object(at indexPath: IndexPath) throws -> Result {
        guard let sections, indexPath.count == 2, sections.indices.contains(indexPath.section),
            sections[indexPath.section].objects.indices.contains(indexPath.item)
        else {
            throw ObjectGraphError(
                .invalidOperation,
                "no object at \(indexPath) of a FetchedResultsController holding \(sections.map { $0.map { String($0.numberOfObjects) }.joined(separator: ", ") } ?? "nothing (call performFetch() first)") object(s) per section",
                entityName: fetchRequest.entityName)
        }
        return sections[indexPath.section].objects[indexPath.item]
    }

    /// Where `object` is in the results, or `nil` when it is not in them.
    public func indexPath(forObject object: Result) -> IndexPath? {
        indexPaths[ObjectIdentifier(object)]
    }

    /// The objects grouped into sections by the section key path's value (consecutive runs:
    /// the request sorts by it).
    private func group(_ objects: [Result]) throws -> [FetchedResultsSection<Result>] {
        guard let sectionNameKeyPath else { return [FetchedResultsSection(name: "", objects: objects)] }
        var sections: [FetchedResultsSection<Result>] = []
        var name: String?
        var members: [Result] = []
        for object in objects {
            let objectName = Self.sectionName(try object.value(forKeyPath: sectionNameKeyPath))
            if objectName != name, let name {
                sections.append(FetchedResultsSection(name: name, objects: members))
                members = []
            }
            name = objectName
            members.append(object)
        }
        if let name { sections.append(FetchedResultsSection(name: name, objects: members)) }
        return sections
    }

    /// A section key path's value as a section name: strings as they are, numbers as digits,
    /// nil as "".
    static func sectionName(_ value: Any?) -> String {
        switch value {
        case nil: ""
        case let string as String: string
        case let number as NSNumber: number.stringValue
        case let value?: "\(value)"
        }
    }

    private static func layout(of sections: [FetchedResultsSection<Result>]) -> Diff.Layout {
        Diff.Layout(sections: sections.map { ($0.name, $0.objects.map(ObjectIdentifier.init)) })
    }
}

extension FetchedResultsController: ContextResultsObserver {
    /// Runs the request again after a save or merge that touched the fetched entity, and tells
    /// the delegate the difference (or, when only objects it shows changed and none of them
    /// moves, tells their updates without running the request: `inPlaceUpdates`).
    func contextDidChange(_ changes: ContextChanges) {
        guard let oldSections = sections, touchesFetchedEntity(changes) else { return }
        if let paths = (try? inPlaceUpdates(changes, indexPaths: indexPaths)) ?? nil {
            refreshError = nil
            guard !paths.isEmpty, let delegate else { return }
            delegate.controllerWillChangeContent(self)
            for path in paths {
                delegate.controller(
                    self, didChange: oldSections[path.section].objects[path.item], at: path, for: .update, newIndexPath: path)
            }
            delegate.controllerDidChangeContent(self)
            return
        }
        let objects: [Result], newSections: [FetchedResultsSection<Result>]
        do {
            objects = try managedObjectContext.fetch(fetchRequest)
            newSections = try group(objects)
        } catch {
            refreshError =
                error as? ObjectGraphError
                ?? ObjectGraphError(
                    .invalidOperation, "refreshing a FetchedResultsController failed: \(error)", entityName: fetchRequest.entityName)
            return
        }
        refreshError = nil
        let newLayout = Self.layout(of: newSections)
        let changedIDs = changes.updatedObjectIDs.union(changes.refreshedObjectIDs)
        let updated = Set(objects.filter { changedIDs.contains($0.objectID) }.map(ObjectIdentifier.init))
        let diff = Diff(from: layout, to: newLayout, updated: updated)
        let oldObjects = Dictionary(
            oldSections.flatMap(\.objects).map { (ObjectIdentifier($0), $0) }, uniquingKeysWith: { first, _ in first })
        let newObjects = Dictionary(objects.map { (ObjectIdentifier($0), $0) }, uniquingKeysWith: { first, _ in first })
        fetchedObjects = objects
        sections = newSections
        layout = newLayout
        guard !diff.isEmpty, let delegate else { return }
        delegate.controllerWillChangeContent(self)
        for index in diff.deletedSections { delegate.controller(self, didChange: oldSections[index], atSectionIndex: index, for: .delete) }
        for index in diff.insertedSections { delegate.controller(self, didChange: newSections[index], atSectionIndex: index, for: .insert) }
        for change in diff.objectChanges {
            guard let object = newObjects[change.key] ?? oldObjects[change.key] else { continue }
            delegate.controller(self, didChange: object, at: change.indexPath, for: change.type, newIndexPath: change.newIndexPath)
        }
        delegate.controllerDidChangeContent(self)
    }

    /// Whether `changes` name an object of the fetched entity or one of its sub-entities.
    private func touchesFetchedEntity(_ changes: ContextChanges) -> Bool {
        guard let model = managedObjectContext.model, let fetched = model.entity(named: fetchRequest.entityName) else { return false }
        // After a reset the fetched objects are detached: fetch live ones.
        if changes.invalidatesAllObjects { return true }
        let sets = [changes.insertedObjectIDs, changes.updatedObjectIDs, changes.deletedObjectIDs, changes.refreshedObjectIDs]
        return sets.contains { ids in ids.contains { model.entity($0.entity, isKindOf: fetched) } }
    }
}
