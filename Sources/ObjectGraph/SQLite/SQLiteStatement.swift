import CSQLite

/// A prepared statement. Not thread-safe: it belongs to its connection's queue, like the
/// connection itself. Finalized when released; the connection closes with `sqlite3_close_v2`, so a
/// statement that outlives it is still finalized safely.
final class SQLiteStatement {
    /// The `sqlite3_stmt*`.
    let handle: OpaquePointer
    /// The SQL text, for errors and logs.
    let sql: String

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Readies the statement for a new run from the start. A reset statement also ends the read
    /// transaction an unfinished SELECT would hold open.
    ///
    /// Bindings are kept: every caller binds all parameters before each run, and keeping them lets
    /// SQLite reuse each parameter's buffer row after row instead of allocating a copy of every
    /// string again (see `releaseBindings()` for giving the memory back).
    func reset() {
        // sqlite3_reset repeats the last step's error, which was already reported.
        sqlite3_reset(handle)
    }

    /// Sets every parameter to NULL, releasing SQLite's copies of bound text and blobs.
    func releaseBindings() {
        sqlite3_clear_bindings(handle)
    }

    /// Runs one step: `true` when a row is ready, `false` when the statement is done.
    @inline(__always)
    func step() throws -> Bool {
        try step(explainingFailure: { _ in nil })
    }

    /// Runs one step; on failure `explain` may turn SQLite's failure into a more precise error
    /// (returning `nil` keeps the generic one). `explain` runs only when the step fails.
    @inline(__always)
    func step(explainingFailure explain: (SQLiteFailure) -> ObjectGraphError?) throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw failure(code, explain: explain)
    }

    /// Runs the statement to completion, skipping any rows (DDL, pragmas, writes).
    func execute() throws {
        while try step() {}
    }

    /// The error for a failed step, built from the connection's message before anything else
    /// can overwrite it.
    private func failure(_ code: Int32, explain: (SQLiteFailure) -> ObjectGraphError?) -> ObjectGraphError {
        let failure = SQLiteFailure(code: code, connection: sqlite3_db_handle(handle), sql: sql)
        return explain(failure) ?? failure.error("SQLite could not run a statement")
    }

    /// The error for a failed `sqlite3_bind_*` call.
    func bindingFailure(_ code: Int32, at index: Int32) -> ObjectGraphError {
        SQLiteFailure(code: code, connection: sqlite3_db_handle(handle), sql: sql)
            .error("Cannot bind parameter \(index) of a statement")
    }

    /// The name SQLite gives result column `column`, for error messages.
    func columnName(_ column: Int32) -> String {
        sqlite3_column_name(handle, column).map { String(cString: $0) } ?? "column \(column)"
    }

    /// The 64-bit integer in `column` (0 for NULL). For primary keys and versions, which are
    /// never NULL.
    @inline(__always)
    func int64(at column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    /// The text in `column`, or `nil` for NULL.
    /// Whether result `column` of the current row is NULL.
    func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    func text(at column: Int32) -> String? {
        guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return nil }
        return textValue(at: column)
    }

    /// The text of a column known not to be NULL, decoded straight from SQLite's buffer.
    @inline(__always)
    func textValue(at column: Int32) -> String {
        // column_text before column_bytes, as https://www.sqlite.org/c3ref/column_blob.html asks.
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }
}

// A statement is confined to its connection's queue.
@available(*, unavailable)
extension SQLiteStatement: Sendable {}
