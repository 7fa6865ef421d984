/// Questions a connection asks SQLite about itself: query plans and integer pragmas.
extension SQLiteConnection {
    /// The detail line of each step of `sql`'s query plan ("SEARCH Person USING INDEX
    /// Person_age_idx (age>? AND age<?)", "USE TEMP B-TREE FOR ORDER BY"), in plan order.
    /// Parameters need no values: SQLite plans without them.
    func queryPlan(of sql: String) throws -> [String] {
        let statement = try prepare("EXPLAIN QUERY PLAN " + sql)
        var details: [String] = []
        while try statement.step() { details.append(statement.text(at: 3) ?? "") }
        return details
    }

    /// The value of the pragma `name` (`data_version`, `page_count`, `cache_size`…), read
    /// through a cached statement. `name` is one of the library's own, never user text.
    func integerPragma(_ name: StaticString) throws -> Int64 {
        let statement = try cachedStatement("PRAGMA \(name)")
        statement.reset()
        defer { statement.reset() }
        _ = try statement.step()
        return statement.int64(at: 0)
    }
}
