import ObjectGraph

/// What the statements that write many rows at once share: each takes its rows as one array per
/// column (`PostgreSQLBinaryArray`), joined by `unnest`, so a save of many rows costs a few round
/// trips; and a savepoint before each, so that when one fails its rows can be written again one
/// at a time, and the error explained per object.
extension PostgreSQLStoreState {
    /// Rows per statement that takes its rows as arrays: each statement may scan the whole table
    /// once, so fewer are better; the size of the values bounds it too (`arrayStatementBytes`).
    static let rowsPerArray = 100_000

    /// About how many bytes of arrays one statement binds at most.
    static let arrayStatementBytes = 64 << 20

    /// The end of the run of `rows` from `start` that one array statement writes: rows for which
    /// `belongs` holds, at most `rowLimit` of them and about `byteLimit` of values.
    static func arrayRunEnd<Row>(
        _ rows: [Row], from start: Int, bindings: (Row) -> [AttributeValue], rowLimit: Int = rowsPerArray,
        byteLimit: Int = arrayStatementBytes, belongs: (Row) -> Bool
    ) -> Int {
        func length(_ row: Row) -> Int { bindings(row).reduce(0) { $0 + PostgreSQLBinaryArray.approximateLength(of: $1) } }
        var end = start + 1
        var bytes = length(rows[start])
        while end < rows.count, end - start < rowLimit, bytes < byteLimit, belongs(rows[end]) {
            bytes += length(rows[end])
            end += 1
        }
        return end
    }

    /// The result of `body`, run after a savepoint; nil when the server refused it, the
    /// transaction then put back as it was before.
    func undoneIfRefused<T>(_ body: () throws -> T) throws -> T? {
        try connection.execute("SAVEPOINT objectgraph_rows")
        do {
            return try body()
        } catch is PostgreSQLFailure {
            try connection.execute("ROLLBACK TO SAVEPOINT objectgraph_rows")
            return nil
        }
    }
}
