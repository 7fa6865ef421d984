import Dispatch
import Foundation

/// Others' commits to a SQLite store's file, found by polling: every interval, the store's data
/// generation (`PRAGMA data_version` on the change monitor's connection, which moves for
/// commits by any other connection) is compared with the one seen last; a change wakes the
/// `RemoteChangeObserver`. No network, no server: processes on one machine, one file.
extension SQLiteStore: RemoteChangeSource {
    func watchRemoteCommits(interval: TimeInterval, wake: @escaping @Sendable () -> Void) throws -> any RemoteCommitWatch {
        try keepOwnHistoryTransactions()
        return DataVersionPoller(store: self, interval: interval, wake: wake)
    }
}

/// Compares a SQLite store's data generation with the last one seen every interval, on a timer
/// of its own.
private final class DataVersionPoller: RemoteCommitWatch, @unchecked Sendable {
    // @unchecked: `lastGeneration` is only touched on `queue`, by the timer's handler; the timer
    // is made in `init` and only cancelled after.
    private let queue = DispatchQueue(label: "ObjectGraph.SQLiteStore.DataVersionPoller")
    private let timer: any DispatchSourceTimer
    private var lastGeneration: UInt64

    init(store: SQLiteStore, interval: TimeInterval, wake: @escaping @Sendable () -> Void) {
        lastGeneration = store.dataGeneration()
        timer = DispatchSource.makeTimerSource(queue: queue)
        let period = DispatchTimeInterval.microseconds(max(1_000, Int(interval * 1_000_000)))
        timer.schedule(deadline: .now() + period, repeating: period)
        // The store is held weakly: the watch must not keep a store its coordinator let go of.
        timer.setEventHandler { [weak self, weak store] in
            guard let self, let generation = store?.dataGeneration(), generation != self.lastGeneration else { return }
            self.lastGeneration = generation
            wake()
        }
        timer.resume()
    }

    deinit {
        timer.cancel()
    }

    func stop() {
        timer.cancel()
    }
}
