import Dispatch

/// When a context reports its unsaved changes by itself, as Core Data does: at the end of every
/// `perform` block, and for a main-queue context at the end of the main queue's current turn,
/// so fetched results controllers and live results hear edits the program never announces.
extension ManagedObjectContext {
    /// An object of the context changed for the first time in this event. A main-queue context
    /// asks the main queue, once per turn, to process its pending changes when the turn's work
    /// is done (a private-queue context reports them at the end of its `perform` blocks). Only
    /// for a change made on the main queue: code that uses the context elsewhere (against the
    /// rules, but tests do) must not have the main queue read its objects meanwhile.
    func noteChangeInEvent() {
        guard concurrencyType == .mainQueue, !endOfTurnProcessingScheduled, isOnQueue else { return }
        endOfTurnProcessingScheduled = true
        DispatchQueue.main.async { [weak self] in
            guard let self else { return }
            endOfTurnProcessingScheduled = false
            processPendingChanges()
        }
    }
}

extension ManagedObject {
    /// Marks the object changed in this event and since its last will-save, telling its context
    /// the first time in an event.
    func markChanged() {
        if !marks.contains(.changedInEvent) {
            // A deleted object's deletion is all there is to report of it: the inverse changes
            // it takes after that was reported (before its delete rules are followed at a save)
            // must not report it again.
            guard !isDeleted else { return }
            managedObjectContext?.noteChangeInEvent()
        }
        marks.formUnion(.changed)
    }
}
