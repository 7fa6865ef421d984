/// What SQLite plans for a statement, as `EXPLAIN QUERY PLAN` words it.
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
}
