import ObjectGraph

/// What the statements that write many rows at once share: each takes its rows as one array per
/// column (`PostgreSQLBinaryArray`), joined by `unnest`, so a save of many rows costs a few round
/// trips. When the server refuses one (a uniqueness clash, a missing value), the error cannot
/// say which row: the whole save is rolled back and made again writing each row alone
/// (`writesRowByRow`), so it fails at the row that broke the rule and explains it per object.
/// A savepoint before each statement would let only that statement's rows be written again,
/// but every savepoint is a subtransaction, and a transaction of more than 64 of them makes
/// every other session's visibility checks slower.
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

    /// The result of `body`, a statement writing many rows; throws `ArrayStatementRefused`
    /// when the server refused it (the save then runs again row by row, see `save(_:)`).
    func together<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as PostgreSQLFailure where failure.trouble == nil {
            throw ArrayStatementRefused(failure: failure)
        }
    }
}

/// The server refused a statement writing many rows: the save's transaction rolls back, and
/// the save runs again writing each row alone.
struct ArrayStatementRefused: Error {
    let failure: PostgreSQLFailure
}
