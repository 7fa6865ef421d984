import CSQLite

/// The rowids SQLite reports through its update hook, one C call per row changed.
private final class ChangedRowIDs {
    var rowIDs: [Int64] = []
}

extension SQLiteConnection {
    /// Runs `body` and returns the rowids of the rows its statements insert, update or delete,
    /// in the order SQLite changes them, as SQLite reports them through its update hook. Cheaper
    /// than `RETURNING`, which makes SQLite keep every row in a temporary table first and then
    /// look each one up again to change it, where a plain statement changes rows as it scans.
    func changedRowIDs(_ body: () throws -> Void) throws -> [Int64] {
        let collector = ChangedRowIDs()
        sqlite3_update_hook(
            handle,
            { context, _, _, _, rowID in
                guard let context else { return }
                Unmanaged<ChangedRowIDs>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.rowIDs.append(rowID) }
            }, Unmanaged.passUnretained(collector).toOpaque())
        defer { sqlite3_update_hook(handle, nil, nil) }
        try withExtendedLifetime(collector) { try body() }
        return collector.rowIDs
    }
}
