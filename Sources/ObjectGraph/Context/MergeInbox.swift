import Synchronization

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
