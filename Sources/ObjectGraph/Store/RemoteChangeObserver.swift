import Dispatch
import Foundation

/// Brings a coordinator the saves that others make to its SQLite store's file — other
/// processes, other coordinators — as the persistent history records them
/// (`PersistentStoreDescription.mergesRemoteChanges`).
///
/// Every `interval` it asks the store whether anyone else committed (`PRAGMA data_version`, on
/// the change monitor's connection); when someone did, it fetches the history after the last
/// transaction it delivered, leaves out the store's own, and hands each transaction's change set
/// to the coordinator's automatically merging contexts, then posts
/// `PersistentStoreCoordinator.remoteChangeNotification`. Delivery: each transaction once, in
/// commit order, within about one interval of its commit, as long as the history after the
/// last delivered transaction is not deleted first; a history read that fails is retried at the
/// next look.
final class RemoteChangeObserver: @unchecked Sendable {
    // @unchecked: `lastToken` and `lastGeneration` are only touched on `queue`; the timer is
    // made in `init` and only cancelled after.
    private let queue = DispatchQueue(label: "ObjectGraph.RemoteChangeObserver")
    private let timer: any DispatchSourceTimer
    private let store: SQLiteStore
    private weak var coordinator: PersistentStoreCoordinator?
    private var lastToken: PersistentHistoryToken?
    private var lastGeneration: UInt64

    /// Starts looking, taking the history as it is now as delivered.
    init(store: SQLiteStore, coordinator: PersistentStoreCoordinator, interval: TimeInterval) throws {
        self.store = store
        self.coordinator = coordinator
        lastGeneration = store.dataGeneration()
        lastToken = try store.currentHistoryToken()
        timer = DispatchSource.makeTimerSource(queue: queue)
        let period = DispatchTimeInterval.microseconds(max(1_000, Int(interval * 1_000_000)))
        timer.schedule(deadline: .now() + period, repeating: period)
        timer.setEventHandler { [weak self] in self?.look() }
        timer.resume()
    }

    deinit {
        timer.cancel()
    }

    /// Stops looking. A look already under way may still finish: against a closed store its
    /// history read fails and it delivers nothing.
    func stop() {
        timer.cancel()
    }

    private func look() {
        let generation = store.dataGeneration()
        guard generation != lastGeneration, let coordinator else { return }
        do {
            let transactions = try store.fetchHistory(.fetchHistory(after: lastToken))
            lastGeneration = generation
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
            // The store is busy or closing: the generation stays unseen, so the next look retries.
        }
    }
}
