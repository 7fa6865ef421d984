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
