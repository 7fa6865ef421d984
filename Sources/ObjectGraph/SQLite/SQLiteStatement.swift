import CSQLite

/// A prepared statement. Not thread-safe: it belongs to its connection's queue, like the
/// connection itself. Finalized when released; the connection closes with `sqlite3_close_v2`, so a
/// statement that outlives it is still finalized safely.
final class SQLiteStatement {
    /// The `sqlite3_stmt*`.
    let handle: OpaquePointer
    /// The SQL text, for errors and logs.
    let sql: String

    /// The statement's own copy of text bound by `bindBuffered(_:at:)`, and how much of it the
    /// current row uses.
    private var textBuffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private var textUsed = 0

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
        textBuffer.deallocate()
    }

    /// Starts a row whose text, bound by `bindBuffered(_:at:)`, takes `byteCount` bytes in all:
    /// the buffer grows (if it must) now, so that it never moves while the row's text is bound.
    func reserveTextBuffer(_ byteCount: Int) {
        textUsed = 0
        guard byteCount > textBuffer.count else { return }
        textBuffer.deallocate()
        textBuffer = .allocate(byteCount: max(byteCount, 2 * textBuffer.count), alignment: 1)
    }

    /// Binds `string` as TEXT from a copy in the statement's own buffer (reserved by
    /// `reserveTextBuffer(_:)`), which stays put until the next row: SQLite then reads it in place,
    /// where a string bound as usual costs it an allocation, a copy and a free.
    func bindBuffered(_ string: String, at index: Int32) throws {
        var string = string
        try string.withUTF8 { try bindBuffered($0, at: index) }
    }

    /// Binds the UTF-8 text `bytes` as `bindBuffered(_:at:)` binds a string.
    func bindBuffered(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) throws {
        // A NULL pointer would bind NULL, so an empty string binds a copied "" instead.
        let code: Int32
        if let source = bytes.baseAddress, !bytes.isEmpty {
            precondition(textUsed + bytes.count <= textBuffer.count, "text bound beyond what reserveTextBuffer(_:) reserved")
            let target = textBuffer.baseAddress! + textUsed
            target.copyMemory(from: source, byteCount: bytes.count)
            textUsed += bytes.count
            code = sqlite3_bind_text64(
                handle, index, target.assumingMemoryBound(to: CChar.self), UInt64(bytes.count), nil, UInt8(SQLITE_UTF8))
        } else {
            code = sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
        }
        if code != SQLITE_OK { throw bindingFailure(code, at: index) }
    }

    /// Readies the statement for a new run from the start. A reset statement also ends the read
    /// transaction an unfinished SELECT would hold open.
    ///
    /// Bindings are kept: every caller binds all parameters before each run. (Rebinding a
    /// parameter frees SQLite's copy of its old text, so a copied string costs an allocation per
    /// run whatever happens here; `bindBuffered(_:at:)` avoids the copy. `releaseBindings()`
    /// gives the copies back once a save is over.)
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
        if failure.message.hasPrefix(SQLiteTextFunction.predicateErrorPrefix) {
            return failure.error(.predicateSyntax, String(failure.message.dropFirst(SQLiteTextFunction.predicateErrorPrefix.count)))
        }
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

    /// Result `column` (0-based) of the current row as a double.
    func double(at column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    /// Whether result `column` of the current row is NULL.
    func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    /// The text in `column`, or `nil` for NULL.
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
