import Dispatch
import Synchronization

/// A PostgreSQL store's `dataGeneration()`: what tells the coordinator's row cache whether the
/// rows it keeps may have been changed by someone else.
///
/// Without a listener nothing tells the store of others' commits, so the generation moves at
/// every call and no cached row outlives the read that brought it. While the store listens
/// (`PostgreSQLChangeListener`), it moves when another store's commit is announced, when the
/// listening connection is lost or made again, and at least once every `interval` (the
/// description's `remoteChangePollInterval`), which bounds how long rows changed by writers that
/// announce nothing — plain SQL, stores that keep no history — can be served from the cache.
/// Between announcements a cached row can be as old as the time a notification takes to arrive
/// (see the Persistent History article); saves still check row versions, so a stale row makes a
/// conflict, never a lost write.
final class PostgreSQLDataGeneration: Sendable {
    private let number = Atomic<UInt64>(0)
    /// The length of the periods the generation moves at least once in, in nanoseconds; 0 while
    /// no listener listens (the generation is not trusted).
    private let period = Atomic<UInt64>(0)
    /// The period the generation last moved in for the time passed.
    private let lastPeriod = Atomic<UInt64>(0)

    /// The generation now.
    func current() -> UInt64 {
        let length = period.load(ordering: .acquiring)
        guard length > 0 else { return number.add(1, ordering: .relaxed).newValue }
        let now = DispatchTime.now().uptimeNanoseconds / length
        if lastPeriod.exchange(now, ordering: .relaxed) != now { return number.add(1, ordering: .relaxed).newValue }
        return number.load(ordering: .relaxed)
    }

    /// Someone else committed: rows kept until now may be stale.
    func advance() {
        number.add(1, ordering: .relaxed)
    }

    /// A listener listens from now on: the generation is trusted between announcements, for at
    /// most `interval` seconds. Rows kept before are dropped (commits before the listener
    /// listened were never announced).
    func trust(interval: Double) {
        number.add(1, ordering: .relaxed)
        period.store(UInt64(max(0.001, interval) * 1_000_000_000), ordering: .releasing)
    }

    /// The listener stopped or lost its connection: commits may go unannounced.
    func distrust() {
        period.store(0, ordering: .releasing)
        number.add(1, ordering: .relaxed)
    }
}
