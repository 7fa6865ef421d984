/// Something that follows a context's saves and merges synchronously, on the context's queue
/// (a `FetchedResultsController`): notification observers and change streams run later or
/// elsewhere, and a controller's delegate must hear of a change before the next line of the
/// code that saved.
protocol ContextResultsObserver: AnyObject {
    func contextDidChange(_ changes: ContextChanges)
}

/// A weak reference to an observer, so a controller goes away when its owner drops it.
struct WeakResultsObserver {
    weak var observer: (any ContextResultsObserver)?
}

extension ManagedObjectContext {
    /// Starts telling `observer` of the context's saves and merges.
    func addResultsObserver(_ observer: any ContextResultsObserver) {
        resultsObservers.append(WeakResultsObserver(observer: observer))
    }

    /// Tells the live observers of `changes` (a save or a merge), dropping the ones gone.
    func notifyResultsObservers(_ changes: ContextChanges) {
        guard !resultsObservers.isEmpty, changes.event != .willSave else { return }
        resultsObservers.removeAll { $0.observer == nil }
        for entry in resultsObservers { entry.observer?.contextDidChange(changes) }
    }
}
