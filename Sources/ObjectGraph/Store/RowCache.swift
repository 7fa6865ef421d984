/// Rows recently fetched through a coordinator, shared by all its contexts: firing a fault for
/// an object another context fetched (or one this context let go of) takes its row from here
/// instead of going back to the store.
///
/// A fetch hands over its whole result (a reference, not a copy; the rows' value arrays are
/// shared with the objects made from them), so remembering costs nothing per row. Each result
/// is indexed by key the first time a fault looks into it. The most recent results (at most
/// `batchLimit`) are kept up to `capacity` rows in all (a larger result is not kept: its rows
/// would outlive the objects made from them by far); a save through the coordinator empties the
/// cache, since its rows may be stale.
///
/// Others may write the store too (another coordinator on the same file, another process). So
/// the cache watches the store's `dataGeneration()`: a lookup first asks it, and when it has moved
/// since the cache last looked, every kept row is dropped (rows read before the change and rows
/// read after it alike: the cache cannot tell them apart).
final class RowCache: Sendable {
    private struct Key: Hashable {
        let entityIndex: Int
        let primaryKey: Int64
    }

    /// One fetch's rows and, once looked into, their positions by key.
    private struct Batch {
        let rows: [Snapshot]
        var positions: [Key: Int]?
    }

    private struct State {
        var batches: [Batch] = []
        /// The rows of all batches.
        var rowCount = 0
        /// The store's data generation the kept rows belong to.
        var generation: UInt64 = 0
    }

    /// Fetch results kept at most: a lookup looks into each, newest first, so many small
    /// results (a loop of tiny fetches) must not pile up.
    static let batchLimit = 8

    private let state = Locked(State())
    /// The store's `dataGeneration`, once the coordinator has a store.
    private let storeGeneration = Locked<(@Sendable () -> UInt64)?>(nil)
    private let capacity: Int

    init(capacity: Int = 20_000) {
        self.capacity = capacity
    }

    /// Watches `generation` (a store's `dataGeneration`), or nothing. Empties the cache.
    func watch(_ generation: (@Sendable () -> UInt64)?) {
        let start = generation?() ?? 0
        storeGeneration.withLock { $0 = generation }
        state.withLock { $0 = State(generation: start) }
    }

    /// Keeps the rows of a fetch (rows without values, skipped by the store, are ignored on lookup).
    func remember(_ rows: [Snapshot]) {
        guard !rows.isEmpty, rows.count <= capacity else { return }
        // The store is not asked here (that would cost every fetch a query): a change made by
        // someone else before or after these rows were read is seen by the next lookup, which
        // then drops them with everything else.
        state.withLock { state in
            state.rowCount += rows.count
            while state.rowCount > capacity || state.batches.count >= Self.batchLimit, !state.batches.isEmpty {
                state.rowCount -= state.batches.removeFirst().rows.count
            }
            state.batches.append(Batch(rows: rows))
        }
    }

    /// The cached row of the entity at `entityIndex` with `primaryKey`, newest fetch first.
    func row(entityIndex: Int, primaryKey: Int64) -> Snapshot? {
        // An empty cache has nothing to check: the store is not asked.
        guard !state.withLock({ $0.batches.isEmpty }) else { return nil }
        let generation = currentGeneration()
        let key = Key(entityIndex: entityIndex, primaryKey: primaryKey)
        return state.withLock { state in
            guard isCurrent(generation, in: &state) else { return nil }
            for number in state.batches.indices.reversed() {
                if state.batches[number].positions == nil {
                    var positions = [Key: Int](minimumCapacity: state.batches[number].rows.count)
                    for (position, row) in state.batches[number].rows.enumerated() where !row.values.isEmpty {
                        positions[Key(entityIndex: row.entityIndex, primaryKey: row.primaryKey)] = position
                    }
                    state.batches[number].positions = positions
                }
                if let position = state.batches[number].positions?[key] { return state.batches[number].rows[position] }
            }
            return nil
        }
    }

    /// Forgets every row: the store changed.
    func removeAll() {
        state.withLock { state in
            state.batches.removeAll()
            state.rowCount = 0
        }
    }

    /// The watched store's data generation now, or `nil` when no store is watched.
    private func currentGeneration() -> UInt64? {
        storeGeneration.withLock { $0 }?()
    }

    /// Whether the kept rows belong to `generation`. A newer generation drops them all and
    /// becomes the cache's; an older one (read by a caller that lost a race to a newer look)
    /// leaves the cache alone but is not current either.
    private func isCurrent(_ generation: UInt64?, in state: inout State) -> Bool {
        guard let generation else { return true }
        if generation > state.generation {
            state.batches.removeAll()
            state.rowCount = 0
            state.generation = generation
            return false
        }
        return generation == state.generation
    }
}
