import Foundation

/// How an object's place in a fetched results controller changed.
public enum FetchedResultsChangeType: UInt, Sendable, Equatable {
    // The raw values are Core Data's (`NSFetchedResultsChangeType`), for code that stores or
    // compares them.
    /// The object (or section) is new in the results.
    case insert = 1
    /// The object (or section) left the results.
    case delete = 2
    /// The object is at another index path.
    case move = 3
    /// The object changed and kept its index path.
    case update = 4
}

/// What a `FetchedResultsController` tells as its results change, in the order Core Data's
/// delegate hears it: `controllerWillChangeContent`, every section change and object change
/// (deletes at their old index paths, inserts at their new ones), then
/// `controllerDidChangeContent`. Every method has an empty default. Called on the context's queue.
public protocol FetchedResultsControllerDelegate<Result>: AnyObject {
    /// The kind of object the controller fetches.
    associatedtype Result: ManagedObject

    /// The results are about to change.
    func controllerWillChangeContent(_ controller: FetchedResultsController<Result>)

    /// `object` was inserted (at `newIndexPath`), deleted (from `indexPath`), moved (from
    /// `indexPath` to `newIndexPath`) or updated (at `indexPath`, now `newIndexPath`).
    func controller(
        _ controller: FetchedResultsController<Result>, didChange object: Result, at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?)

    /// The section `section` was inserted or deleted, at `sectionIndex` (in the new results for
    /// an insert, in the old ones for a delete).
    func controller(
        _ controller: FetchedResultsController<Result>, didChange section: FetchedResultsSection<Result>,
        atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType)

    /// The results changed; `fetchedObjects` and `sections` hold the new ones.
    func controllerDidChangeContent(_ controller: FetchedResultsController<Result>)
}

extension FetchedResultsControllerDelegate {
    /// Does nothing unless the delegate implements it.
    public func controllerWillChangeContent(_ controller: FetchedResultsController<Result>) {}

    /// Does nothing unless the delegate implements it.
    public func controller(
        _ controller: FetchedResultsController<Result>, didChange object: Result, at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) {}

    /// Does nothing unless the delegate implements it.
    public func controller(
        _ controller: FetchedResultsController<Result>, didChange section: FetchedResultsSection<Result>,
        atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType
    ) {}

    /// Does nothing unless the delegate implements it.
    public func controllerDidChangeContent(_ controller: FetchedResultsController<Result>) {}
}
