import Synchronization

/// The contexts that merge automatically the saves of one source: a coordinator (its contexts
/// without parents) or a parent context (its children). Held weakly: a context that goes away
/// leaves the list.
final class MergeTargets: Sendable {
    private struct Entry {
        weak var context: ManagedObjectContext?
    }

    private let entries = Locked<[Entry]>([])

    func add(_ context: ManagedObjectContext) {
        entries.withLock { $0.append(Entry(context: context)) }
    }

    func remove(_ context: ManagedObjectContext) {
        entries.withLock { $0.removeAll { $0.context == nil || $0.context === context } }
    }

    /// Queues `changes` for every registered context but `origin` (the one that made them).
    func deliver(_ changes: ContextChanges, except origin: ManagedObjectContext?) {
        let targets = entries.withLock { entries in
            entries.removeAll { $0.context == nil }
            return entries.compactMap(\.context)
        }
        for target in targets where target !== origin { target.enqueueMerge(changes) }
    }
}

/// Change sets sent to a context from other queues, waiting to be merged on its own.
final class MergeInbox: Sendable {
    private let pending = Locked<[ContextChanges]>([])
    /// Read on every use of the context, so checking for nothing to merge costs one atomic load.
    private let pendingFlag = Atomic<Bool>(false)

    var hasPending: Bool { pendingFlag.load(ordering: .acquiring) }

    func add(_ changes: ContextChanges) {
        pending.withLock { pending in
            pending.append(changes)
            pendingFlag.store(true, ordering: .releasing)
        }
    }

    /// Every waiting change set, oldest first; the inbox is empty afterwards.
    func takeAll() -> [ContextChanges] {
        pending.withLock { pending in
            pendingFlag.store(false, ordering: .releasing)
            defer { pending = [] }
            return pending
        }
    }
}
