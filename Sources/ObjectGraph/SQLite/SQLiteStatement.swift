import CSQLite

/// A prepared statement. Not thread-safe: it belongs to its connection's queue, like the
/// connection itself. Finalized when released; the connection closes with `sqlite3_close_v2`, so a
/// statement that outlives it is still finalized safely.
final class SQLiteStatement {
    /// The `sqlite3_stmt*`.
    let handle: OpaquePointer
    /// The SQL text, for errors and logs.
    let sql: String

    /// The statement's own copy of text bound by `bindBuffered(_:at:)`, and how much text the
    /// current row bound that way (more than the buffer holds when some did not fit).
    private var textBuffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private var textUsed = 0

    /// The buffer's size when it is first needed: room for the text of most rows.
    private static let initialTextBufferSize = 4_096

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
        textBuffer.deallocate()
    }

    /// Starts a row whose text is bound by `bindBuffered(_:at:)`. When the last row's text did
    /// not fit, the buffer grows now: it never moves while a row's text is bound to it.
    func startBufferedRow() {
        if textUsed > textBuffer.count || textBuffer.baseAddress == nil {
            let size = max(textUsed, 2 * textBuffer.count, Self.initialTextBufferSize)
            textBuffer.deallocate()
            textBuffer = .allocate(byteCount: size, alignment: 1)
        }
        textUsed = 0
    }

    /// Binds `string` as TEXT from a copy in the statement's own buffer, which stays put until
    /// the next row (`startBufferedRow()`): SQLite then reads it in place, where a string bound as
    /// usual costs it an allocation, a copy and a free. Text beyond the buffer's room is bound as
    /// usual, and the next row's buffer is made large enough for it.
    func bindBuffered(_ string: String, at index: Int32) throws {
        var string = string
        try string.withUTF8 { try bindBuffered($0, at: index) }
    }

    /// Binds the UTF-8 text `bytes` as `bindBuffered(_:at:)` binds a string.
    func bindBuffered(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) throws {
        let code: Int32
        // A NULL pointer would bind NULL, so an empty string binds a copied "" instead.
        if let source = bytes.baseAddress, !bytes.isEmpty {
            let fits = textUsed + bytes.count <= textBuffer.count
            textUsed += bytes.count
            if fits {
                let target = textBuffer.baseAddress! + (textUsed - bytes.count)
                target.copyMemory(from: source, byteCount: bytes.count)
                code = sqlite3_bind_text64(
                    handle, index, target.assumingMemoryBound(to: CChar.self), UInt64(bytes.count), nil, UInt8(SQLITE_UTF8))
            } else {
                code = sqlite3_bind_text64(
                    handle, index, UnsafeRawPointer(source).assumingMemoryBound(to: CChar.self), UInt64(bytes.count),
                    csqlite_transient(), UInt8(SQLITE_UTF8))
            }
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

    /// Runs one step and returns SQLite's result code, for the hottest writes: the caller builds
    /// a failure's explanation (`failure(_:explain:)`) only when there is one, where
    /// `step(explainingFailure:)` needs it made before every step.
    @inline(__always)
    func stepCode() -> Int32 {
        sqlite3_step(handle)
    }

    /// The error for a failed step, built from the connection's message before anything else
    /// can overwrite it.
    func failure(_ code: Int32, explain: (SQLiteFailure) -> ObjectGraphError?) -> ObjectGraphError {
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
