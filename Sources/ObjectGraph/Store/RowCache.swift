import Synchronization

/// Rows recently fetched through a coordinator, shared by all its contexts: firing a fault for
/// an object another context fetched (or one this context let go of) takes its row from here
/// instead of going back to the store.
///
/// A fetch hands over its whole result (a reference, not a copy; the rows' value arrays are
/// shared with the objects made from them), so remembering costs nothing per row. Each result
/// is indexed by key the first time a fault looks into it. The most recent results are kept up
/// to `capacity` rows in all (a larger result is not kept: its rows would outlive the objects
/// made from them by far); a save through the coordinator empties the cache, since its rows may
/// be stale.
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

    private let batches = Mutex<[Batch]>([])
    private let capacity: Int

    init(capacity: Int = 20_000) {
        self.capacity = capacity
    }

    /// Keeps the rows of a fetch (rows without values, skipped by the store, are ignored on lookup).
    func remember(_ rows: [Snapshot]) {
        guard !rows.isEmpty, rows.count <= capacity else { return }
        batches.withLock { batches in
            var total = batches.reduce(rows.count) { $0 + $1.rows.count }
            while total > capacity, !batches.isEmpty { total -= batches.removeFirst().rows.count }
            batches.append(Batch(rows: rows))
        }
    }

    /// The cached row of the entity at `entityIndex` with `primaryKey`, newest fetch first.
    func row(entityIndex: Int, primaryKey: Int64) -> Snapshot? {
        let key = Key(entityIndex: entityIndex, primaryKey: primaryKey)
        return batches.withLock { batches in
            for number in batches.indices.reversed() {
                if batches[number].positions == nil {
                    var positions: [Key: Int] = [:]
                    positions.reserveCapacity(batches[number].rows.count)
                    for (position, row) in batches[number].rows.enumerated() where !row.values.isEmpty {
                        positions[Key(entityIndex: row.entityIndex, primaryKey: row.primaryKey)] = position
                    }
                    batches[number].positions = positions
                }
                if let position = batches[number].positions?[key] { return batches[number].rows[position] }
            }
            return nil
        }
    }

    /// Forgets every row: the store changed.
    func removeAll() {
        batches.withLock { $0.removeAll() }
    }
}
