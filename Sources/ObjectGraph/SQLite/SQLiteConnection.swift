import CSQLite
import Foundation
import Logging

/// One SQLite database connection: owns the `sqlite3*`, prepares and caches statements, runs
/// transactions. Not thread-safe — it is opened with `SQLITE_OPEN_NOMUTEX` and must stay on one
/// serial queue (the store's), which is what makes skipping SQLite's own mutexes safe.
final class SQLiteConnection {
    /// The `sqlite3*`.
    let handle: OpaquePointer
    /// The database file's path, for messages.
    let path: String
    /// How long a statement waits for another connection's lock, and how long `transaction`
    /// keeps retrying to take the write lock, in seconds.
    let busyTimeout: TimeInterval
    /// Statements prepared once and kept by SQL text.
    private var statementCache: [String: SQLiteStatement] = [:]
    /// Called with the SQL text of every statement as it starts running (a test hook; see
    /// `SQLiteConnection+Tracing.swift`).
    var statementObserver: ((String) -> Void)? {
        didSet { updateTracing() }
    }
    /// Logs every statement at debug level when `OBJECTGRAPH_SQL_DEBUG=1`.
    let sqlLogger: Logger?
    private var isClosed = false
    /// The file this connection is counted against in `OpenDatabaseFiles` (nil for none on disk).
    private let file: OpenDatabaseFiles.FileIdentity?

    /// Cached statements beyond this count are dropped (fetches with many predicate shapes could
    /// otherwise grow the cache without bound); callers still holding one keep it alive.
    static let statementCacheLimit = 256

    /// Opens the database at `path`, creating it unless `readOnly`, with extended result codes
    /// and a busy timeout so a write waits for another connection's lock instead of failing at once.
    /// A read-only file in a directory this process cannot write (read-only media, a folder
    /// owned by another user) is opened as immutable (see `ReadOnlyLocation`).
    init(path: String, readOnly: Bool, busyTimeout: TimeInterval) throws {
        let immutable = try readOnly && ReadOnlyLocation.mustOpenImmutable(path)
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE | (immutable ? SQLITE_OPEN_URI : 0)
        let (connection, file) = try OpenDatabaseFiles.opening(path: path) {
            var connection: OpaquePointer?
            let code = sqlite3_open_v2(immutable ? ReadOnlyLocation.immutableURI(path) : path, &connection, flags, nil)
            guard code == SQLITE_OK, let connection else {
                let failure = SQLiteFailure(code: code, connection: connection, sql: nil)
                // A handle is usually returned even on failure and must be released
                // (https://www.sqlite.org/c3ref/open.html); closing NULL is a harmless no-op.
                sqlite3_close_v2(connection)
                throw failure.error("Cannot open the store at \(path)")
            }
            return connection
        }
        // The string operators of predicates, decimals as numbers and the string orders of sorts
        // run as SQL functions and collations of our own.
        var registered = SQLiteTextFunction.register(on: connection)
        if registered == SQLITE_OK { registered = SQLiteRealFunction.register(on: connection) }
        if registered == SQLITE_OK { registered = SQLiteCollations.register(on: connection) }
        guard registered == SQLITE_OK else {
            let failure = SQLiteFailure(code: registered, connection: connection, sql: nil)
            sqlite3_close_v2(connection)
            if let file { OpenDatabaseFiles.closed(file) }
            throw failure.error("Cannot prepare the store at \(path)")
        }
        self.handle = connection
        self.path = path
        self.file = file
        self.busyTimeout = busyTimeout
        self.sqlLogger = Self.makeSQLLogger()
        sqlite3_busy_timeout(connection, Int32(clamping: Int((busyTimeout * 1000).rounded())))
        updateTracing()
    }

    deinit {
        close()
    }

    /// Drops every statement and closes the connection. `sqlite3_close_v2` defers the real close
    /// until statements still referenced elsewhere are finalized, so this never leaks or fails.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        statementCache.removeAll()
        sqlite3_trace_v2(handle, 0, nil, nil)
        sqlite3_close_v2(handle)
        // Forgotten now even if SQLite keeps the connection until statements held elsewhere are
        // finalized: such a connection only finalizes, but it still holds its -shm lock.
        if let file { OpenDatabaseFiles.closed(file) }
    }

    /// Runs every statement in `sql` (DDL, pragmas) in order, each traced and reported on its own.
    func execute(_ sql: String) throws {
        try sql.withCString { start in
            var next: UnsafePointer<CChar>? = start
            while let current = next, current.pointee != 0 {
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(handle, current, -1, &statement, &tail)
                guard code == SQLITE_OK else {
                    let failure = SQLiteFailure(code: code, connection: handle, sql: Self.text(from: current, to: nil))
                    throw failure.error("Cannot prepare a statement")
                }
                let text = Self.text(from: current, to: tail)
                next = tail
                // Only whitespace or a comment was left: nothing to run.
                guard let statement else { continue }
                try SQLiteStatement(handle: statement, sql: text).execute()
            }
        }
    }

    /// The statement for `sql` (a single statement), prepared on first use with
    /// `SQLITE_PREPARE_PERSISTENT` and reused afterwards. The caller binds and steps it; `reset()`
    /// comes first.
    func cachedStatement(_ sql: String) throws -> SQLiteStatement {
        if let statement = statementCache[sql] { return statement }
        let statement = try prepare(sql, flags: UInt32(SQLITE_PREPARE_PERSISTENT))
        if statementCache.count >= Self.statementCacheLimit { statementCache.removeAll() }
        statementCache[sql] = statement
        return statement
    }

    /// A new statement for `sql`, not cached: for statements run once. `activity` opens the
    /// message of the error thrown if SQLite refuses the statement.
    func prepare(
        _ sql: String, flags: UInt32 = 0, activity: @autoclosure () -> String = "Cannot prepare a statement"
    ) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, flags, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteFailure(code: code, connection: handle, sql: sql).error(activity())
        }
        return SQLiteStatement(handle: statement, sql: sql)
    }

    /// Writes a consistent copy of the database into a new file at `path` (`VACUUM INTO`: one
    /// read transaction, so one snapshot, whatever other connections commit meanwhile).
    /// `activity` opens the message of the error thrown when it fails.
    func copy(into path: String, activity: @autoclosure () -> String) throws {
        let statement = try prepare("VACUUM INTO ?", activity: activity())
        try statement.bind([.string(path)])
        _ = try statement.step(explainingFailure: { $0.error(activity()) })
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`: the write lock is taken up front, so a busy
    /// database fails (after the busy timeout) before any work instead of at commit. On any error
    /// the transaction is rolled back and the FIRST error is rethrown; a failed rollback cannot
    /// hide it.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try beginImmediate()
        return try committing("Cannot commit the transaction", body)
    }

    /// Runs `body` inside one read transaction (`BEGIN DEFERRED … COMMIT`), so several statements
    /// see one snapshot of the database; inside a transaction already open, simply runs `body`.
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        guard !isInTransaction else { return try body() }
        try runCached("BEGIN DEFERRED", activity: "Cannot start a read transaction on the store at \(path)")
        return try committing("Cannot end the read transaction on the store at \(path)", body)
    }

    /// Runs `body` in the transaction just begun, then commits. On any error the transaction is
    /// rolled back and the FIRST error is rethrown; a failed rollback cannot hide it.
    private func committing<T>(_ activity: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        do {
            let result = try body()
            try runCached("COMMIT", activity: activity())
            return result
        } catch {
            rollbackIfActive()
            throw error
        }
    }

    /// Rolls back the open transaction, if SQLite has not already done so itself (it does after
    /// some errors, such as SQLITE_FULL: https://www.sqlite.org/lang_transaction.html).
    private func rollbackIfActive() {
        guard sqlite3_get_autocommit(handle) == 0 else { return }
        try? runCached("ROLLBACK", activity: "Cannot roll back the transaction")
    }

    /// `BEGIN IMMEDIATE`, retried while the database is busy (see `retryingWhileBusy`).
    private func beginImmediate() throws {
        try retryingWhileBusy {
            try runCached("BEGIN IMMEDIATE", activity: "Cannot start a transaction on the store at \(path)")
        }
    }

    /// Runs `body` again, with a growing pause, while it fails with SQLITE_BUSY, until
    /// `busyTimeout` has passed. The busy handler already waits for a lock held by another
    /// connection (another process writing the same file); the retry covers the cases where
    /// SQLite reports busy at once without waiting (a WAL file being recovered, a snapshot that
    /// moved on, `PRAGMA journal_mode` while another connection creates the file), so the work
    /// fails only when the file stayed locked for the whole timeout.
    func retryingWhileBusy<T>(_ body: () throws -> T) throws -> T {
        let deadline = ProcessInfo.processInfo.systemUptime + busyTimeout
        var pause: TimeInterval = 0.001
        while true {
            do {
                return try body()
            } catch let error as ObjectGraphError where error.sqliteCode.map({ $0 & 0xFF == SQLITE_BUSY }) == true {
                let remaining = deadline - ProcessInfo.processInfo.systemUptime
                guard remaining > 0 else { throw busy(error) }
                Thread.sleep(forTimeInterval: min(pause, remaining))
                pause = min(pause * 2, 0.1)
            }
        }
    }

    /// The error of a write that could not take the write lock within the busy timeout: SQLite's
    /// own error (the file, the message, the code), with the reason spelled out.
    private func busy(_ error: ObjectGraphError) -> ObjectGraphError {
        var explained = ObjectGraphError(
            error.kind,
            "\(error.message); another connection (perhaps another process) kept the database locked for longer than the busy timeout of \(busyTimeout.formatted()) s"
        )
        explained.sqliteCode = error.sqliteCode
        explained.sql = error.sql
        return explained
    }

    private func runCached(_ sql: String, activity: @autoclosure () -> String) throws {
        let statement = try cachedStatement(sql)
        statement.reset()
        defer { sqlite3_reset(statement.handle) }
        while try statement.step(explainingFailure: { $0.error(activity()) }) {}
    }

    /// The number of rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int {
        Int(sqlite3_changes64(handle))
    }

    /// The number of rows every INSERT, UPDATE and DELETE on this connection changed since it
    /// opened: when it moves, the connection wrote.
    var totalChanges: Int64 {
        sqlite3_total_changes64(handle)
    }

    /// Whether a transaction is open.
    var isInTransaction: Bool {
        sqlite3_get_autocommit(handle) == 0
    }

    /// The SQL between `start` and `end` (the whole rest when `end` is nil), tidied.
    private static func text(from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>?) -> String {
        let count = end.map { $0 - start } ?? strlen(start)
        let bytes = UnsafeRawPointer(start).assumingMemoryBound(to: UInt8.self)
        return tidy(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
    }

    /// `sql` without surrounding whitespace or a final semicolon: one statement as a person would
    /// write it, for errors, logs and the statement observer.
    static func tidy(_ sql: String) -> String {
        var text = sql.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasSuffix(";") {
            text.removeLast()
            text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return text
    }
}

// A connection is confined to one serial queue (it is opened with SQLITE_OPEN_NOMUTEX).
@available(*, unavailable)
extension SQLiteConnection: Sendable {}
