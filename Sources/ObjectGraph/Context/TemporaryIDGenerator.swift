import Synchronization

/// Hands out the numbers of temporary object IDs: unique within the process, so two unsaved
/// objects never share an ID, whichever contexts they live in.
enum TemporaryIDGenerator {
    private static let counter = Atomic<UInt64>(0)

    static func next() -> UInt64 {
        counter.add(1, ordering: .relaxed).newValue
    }

    /// Reserves `count` consecutive numbers and returns the first.
    static func next(count: Int) -> UInt64 {
        counter.add(UInt64(count), ordering: .relaxed).newValue - UInt64(count) + 1
    }
}
