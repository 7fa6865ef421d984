import CSQLite

/// What SQLite said when a call failed: its extended result code, its message, and the statement.
/// Turned into an `ObjectGraphError` by `error(_:…)`, or by a caller that can explain the failure
/// better (a save names the object and the broken constraint).
struct SQLiteFailure {
    /// The extended result code (connections are opened with `SQLITE_OPEN_EXRESCODE`).
    let code: Int32
    /// SQLite's own message (`sqlite3_errmsg`), read right after the failing call.
    let message: String
    /// The statement that failed, if any.
    let sql: String?
    /// The database file, so that damage can be named where it is.
    let databasePath: String?

    /// The failure of `code` on `connection`; reads the connection's current error message.
    init(code: Int32, connection: OpaquePointer?, sql: String?) {
        self.code = code
        if let connection, let text = sqlite3_errmsg(connection) {
            self.message = String(cString: text)
        } else {
            self.message = String(cString: sqlite3_errstr(code))
        }
        self.sql = sql
        databasePath = connection.flatMap { sqlite3_db_filename($0, "main") }.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The primary result code (the low byte), such as `SQLITE_CONSTRAINT` for every constraint kind.
    var primaryCode: Int32 { code & 0xFF }

    /// `"<activity>: <SQLite's message> [SQLITE_NAME (code)]"`, with the kind the code maps to and
    /// `sqliteCode` and `sql` set.
    /// Damage (SQLITE_CORRUPT) names the file and says how to recover its rows.
    func error(_ activity: String, entityName: String? = nil, objectID: ManagedObjectID? = nil, key: String? = nil) -> ObjectGraphError {
        var text = "\(activity): \(message) [\(SQLiteResultCode.describe(code))]"
        if primaryCode == SQLITE_CORRUPT, let databasePath {
            text =
                "\(activity): the store at \(databasePath) is damaged (\(message)) [\(SQLiteResultCode.describe(code))]; \(DamagedStoreRecovery.hint(for: databasePath))"
        }
        return error(SQLiteResultCode.errorKind(of: code), text, entityName: entityName, objectID: objectID, key: key)
    }

    /// An error with a message of the caller's choosing, still carrying the code and the SQL.
    func error(
        _ kind: ObjectGraphError.Kind, _ text: String, entityName: String? = nil, objectID: ManagedObjectID? = nil, key: String? = nil
    ) -> ObjectGraphError {
        attach(to: ObjectGraphError(kind, text, entityName: entityName, objectID: objectID, key: key))
    }

    /// `error` with this failure's code and SQL attached: how explanations built elsewhere (such
    /// as the shared constraint-violation wording) keep SQLite's details.
    func attach(to error: ObjectGraphError) -> ObjectGraphError {
        var error = error
        error.sqliteCode = code
        error.sql = sql
        return error
    }
}
