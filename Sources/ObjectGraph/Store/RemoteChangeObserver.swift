import Dispatch
import Foundation
import Synchronization

/// A store that others write too — other processes, other coordinators — and that can tell
/// when they may have committed: what `RemoteChangeObserver` needs to bring their saves to a
/// coordinator (`PersistentStoreDescription.mergesRemoteChanges`). The SQLite store polls its
/// file's data version; the PostgreSQL store listens for the notifications its saves send.
package protocol RemoteChangeSource: PersistentStore {
    /// Forgets and returns the numbers, up to `number`, of the history transactions this store
    /// committed: a history fetch that reached `number` has seen all of them.
    func takeOwnHistoryTransactions(through number: Int64) throws -> Set<Int64>

    /// Starts calling `wake` (from any thread; it returns at once) whenever someone else may
    /// have committed, `interval` being the description's `remoteChangePollInterval`. A wake
    /// too many costs one history read; one too few loses nothing until the next, since every
    /// look reads all the history after the last transaction delivered.
    func watchRemoteCommits(interval: TimeInterval, wake: @escaping @Sendable () -> Void) throws -> any RemoteCommitWatch
}

/// What `RemoteChangeSource.watchRemoteCommits` started; `stop()` ends it (a wake under way may
/// still arrive).
package protocol RemoteCommitWatch: Sendable {
    func stop()
}

/// Brings a coordinator the saves that others make to its store, as the persistent history
/// records them. Each wake of the store's `RemoteChangeSource` watch makes it fetch the history
/// after the last transaction it delivered, leave out the store's own, hand each transaction's
/// change set to the coordinator's automatically merging contexts, then post
/// `PersistentStoreCoordinator.remoteChangeNotification`.
///
/// Delivery: each transaction once, in commit order (history numbers are in commit order on
/// every store), as long as the history after the last delivered transaction is not deleted
/// first. A history read that fails (the store busy, the server gone) is retried after one
/// interval, and again until it succeeds or the observer stops; a wake missed meanwhile is
/// made up by that read, which takes everything after the last token.
final class RemoteChangeObserver: @unchecked Sendable {
    // @unchecked: `lastToken` is only touched on `queue`; the other properties are immutable,
    // atomic or locked.
    private let queue = DispatchQueue(label: "ObjectGraph.RemoteChangeObserver")
    private let store: any RemoteChangeSource
    private weak var coordinator: PersistentStoreCoordinator?
    private let retryInterval: TimeInterval
    private var lastToken: PersistentHistoryToken?
    /// Whether a look is queued and has not started yet: wakes meanwhile need no look of their own.
    private let lookQueued = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    private let watch = Locked<(any RemoteCommitWatch)?>(nil)

    /// Starts watching, taking the history as it is now as delivered.
    init(store: any RemoteChangeSource, coordinator: PersistentStoreCoordinator, interval: TimeInterval) throws {
        self.store = store
        self.coordinator = coordinator
        retryInterval = max(0.001, interval)
        lastToken = try store.currentHistoryToken()
        let started = try store.watchRemoteCommits(interval: interval) { [weak self] in self?.wake() }
        watch.withLock { $0 = started }
    }

    deinit {
        watch.withLock { $0 }?.stop()
    }

    /// Stops watching. A look already under way may still finish: against a closed store its
    /// history read fails and it delivers nothing, nor tries again.
    func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        watch.withLock { $0 }?.stop()
    }

    /// Queues a look, unless one is queued already.
    private func wake() {
        guard !stopped.load(ordering: .sequentiallyConsistent),
            !lookQueued.exchange(true, ordering: .sequentiallyConsistent)
        else { return }
        queue.async { [weak self] in self?.look() }
    }

    private func look() {
        // Cleared before reading, so a commit announced during the read gets a look of its own.
        lookQueued.store(false, ordering: .sequentiallyConsistent)
        guard !stopped.load(ordering: .sequentiallyConsistent), let coordinator else { return }
        do {
            let transactions = try store.fetchHistory(.fetchHistory(after: lastToken))
            guard let newest = transactions.last?.token else { return }
            let own = try store.takeOwnHistoryTransactions(through: newest.transactionNumber)
            for transaction in transactions where !own.contains(transaction.token.transactionNumber) {
                coordinator.mergeTargets.deliver(transaction.contextChanges, except: nil)
                NotificationCenter.default.post(
                    name: PersistentStoreCoordinator.remoteChangeNotification, object: coordinator,
                    userInfo: [PersistentStoreCoordinator.historyTokenKey: transaction.token])
            }
            lastToken = newest
        } catch {
            // The store is busy, closing or cut off from its server: nothing was delivered and
            // `lastToken` stays, so a later look reads the same transactions again.
            queue.asyncAfter(deadline: .now() + retryInterval) { [weak self] in self?.wake() }
        }
    }
}
