import CSQLite

/// Names and meanings of SQLite result codes, so errors say `SQLITE_CONSTRAINT_UNIQUE (2067)`
/// rather than a bare number. Swift cannot import the extended-code macros (they are expressions),
/// so the table spells them out as (primary code, extended number).
/// See <https://www.sqlite.org/rescode.html>.
enum SQLiteResultCode {
    /// The code's name, such as `SQLITE_BUSY_TIMEOUT`, or `SQLITE code N` for an unknown one.
    static func name(of code: Int32) -> String {
        if let name = extendedNames[code] { return name }
        if let name = primaryNames[code & 0xFF] {
            return code > 0xFF ? "\(name) (extended code \(code >> 8))" : name
        }
        return "SQLITE code \(code)"
    }

    /// `SQLITE_CONSTRAINT_UNIQUE (2067)`: the name and number, for the end of error messages.
    static func describe(_ code: Int32) -> String {
        "\(name(of: code)) (\(code))"
    }

    /// The kind of `ObjectGraphError` a failure with this (extended) code becomes.
    static func errorKind(of code: Int32) -> ObjectGraphError.Kind {
        switch code & 0xFF {
        case SQLITE_FULL: .diskFull
        case SQLITE_READONLY: .readOnly
        case SQLITE_CORRUPT, SQLITE_NOTADB: .corruptStore
        case SQLITE_CONSTRAINT: .constraintViolation
        case SQLITE_CANTOPEN: .storeUnavailable
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        default: .sqlite
        }
    }

    /// Extended codes the store reacts to (the macros are not importable; see above).
    static let constraintUnique: Int32 = SQLITE_CONSTRAINT | (8 << 8)
    static let constraintPrimaryKey: Int32 = SQLITE_CONSTRAINT | (6 << 8)
    static let constraintNotNull: Int32 = SQLITE_CONSTRAINT | (5 << 8)

    private static let primaryNames: [Int32: String] = [
        SQLITE_OK: "SQLITE_OK", SQLITE_ERROR: "SQLITE_ERROR", SQLITE_INTERNAL: "SQLITE_INTERNAL",
        SQLITE_PERM: "SQLITE_PERM", SQLITE_ABORT: "SQLITE_ABORT", SQLITE_BUSY: "SQLITE_BUSY",
        SQLITE_LOCKED: "SQLITE_LOCKED", SQLITE_NOMEM: "SQLITE_NOMEM", SQLITE_READONLY: "SQLITE_READONLY",
        SQLITE_INTERRUPT: "SQLITE_INTERRUPT", SQLITE_IOERR: "SQLITE_IOERR", SQLITE_CORRUPT: "SQLITE_CORRUPT",
        SQLITE_NOTFOUND: "SQLITE_NOTFOUND", SQLITE_FULL: "SQLITE_FULL", SQLITE_CANTOPEN: "SQLITE_CANTOPEN",
        SQLITE_PROTOCOL: "SQLITE_PROTOCOL", SQLITE_EMPTY: "SQLITE_EMPTY", SQLITE_SCHEMA: "SQLITE_SCHEMA",
        SQLITE_TOOBIG: "SQLITE_TOOBIG", SQLITE_CONSTRAINT: "SQLITE_CONSTRAINT", SQLITE_MISMATCH: "SQLITE_MISMATCH",
        SQLITE_MISUSE: "SQLITE_MISUSE", SQLITE_NOLFS: "SQLITE_NOLFS", SQLITE_AUTH: "SQLITE_AUTH",
        SQLITE_FORMAT: "SQLITE_FORMAT", SQLITE_RANGE: "SQLITE_RANGE", SQLITE_NOTADB: "SQLITE_NOTADB",
        SQLITE_NOTICE: "SQLITE_NOTICE", SQLITE_WARNING: "SQLITE_WARNING", SQLITE_ROW: "SQLITE_ROW",
        SQLITE_DONE: "SQLITE_DONE"
    ]

    private static let extendedNames: [Int32: String] = Dictionary(
        uniqueKeysWithValues: extendedCodes.map { ($0.primary | ($0.number << 8), $0.name) })

    /// Every extended result code of sqlite3.h, as (primary code, extended number, name).
    private static let extendedCodes: [(primary: Int32, number: Int32, name: String)] = [
        (SQLITE_ERROR, 1, "SQLITE_ERROR_MISSING_COLLSEQ"),
        (SQLITE_ERROR, 2, "SQLITE_ERROR_RETRY"),
        (SQLITE_ERROR, 3, "SQLITE_ERROR_SNAPSHOT"),
        (SQLITE_IOERR, 1, "SQLITE_IOERR_READ"),
        (SQLITE_IOERR, 2, "SQLITE_IOERR_SHORT_READ"),
        (SQLITE_IOERR, 3, "SQLITE_IOERR_WRITE"),
        (SQLITE_IOERR, 4, "SQLITE_IOERR_FSYNC"),
        (SQLITE_IOERR, 5, "SQLITE_IOERR_DIR_FSYNC"),
        (SQLITE_IOERR, 6, "SQLITE_IOERR_TRUNCATE"),
        (SQLITE_IOERR, 7, "SQLITE_IOERR_FSTAT"),
        (SQLITE_IOERR, 8, "SQLITE_IOERR_UNLOCK"),
        (SQLITE_IOERR, 9, "SQLITE_IOERR_RDLOCK"),
        (SQLITE_IOERR, 10, "SQLITE_IOERR_DELETE"),
        (SQLITE_IOERR, 11, "SQLITE_IOERR_BLOCKED"),
        (SQLITE_IOERR, 12, "SQLITE_IOERR_NOMEM"),
        (SQLITE_IOERR, 13, "SQLITE_IOERR_ACCESS"),
        (SQLITE_IOERR, 14, "SQLITE_IOERR_CHECKRESERVEDLOCK"),
        (SQLITE_IOERR, 15, "SQLITE_IOERR_LOCK"),
        (SQLITE_IOERR, 16, "SQLITE_IOERR_CLOSE"),
        (SQLITE_IOERR, 17, "SQLITE_IOERR_DIR_CLOSE"),
        (SQLITE_IOERR, 18, "SQLITE_IOERR_SHMOPEN"),
        (SQLITE_IOERR, 19, "SQLITE_IOERR_SHMSIZE"),
        (SQLITE_IOERR, 20, "SQLITE_IOERR_SHMLOCK"),
        (SQLITE_IOERR, 21, "SQLITE_IOERR_SHMMAP"),
        (SQLITE_IOERR, 22, "SQLITE_IOERR_SEEK"),
        (SQLITE_IOERR, 23, "SQLITE_IOERR_DELETE_NOENT"),
        (SQLITE_IOERR, 24, "SQLITE_IOERR_MMAP"),
        (SQLITE_IOERR, 25, "SQLITE_IOERR_GETTEMPPATH"),
        (SQLITE_IOERR, 26, "SQLITE_IOERR_CONVPATH"),
        (SQLITE_IOERR, 27, "SQLITE_IOERR_VNODE"),
        (SQLITE_IOERR, 28, "SQLITE_IOERR_AUTH"),
        (SQLITE_IOERR, 29, "SQLITE_IOERR_BEGIN_ATOMIC"),
        (SQLITE_IOERR, 30, "SQLITE_IOERR_COMMIT_ATOMIC"),
        (SQLITE_IOERR, 31, "SQLITE_IOERR_ROLLBACK_ATOMIC"),
        (SQLITE_IOERR, 32, "SQLITE_IOERR_DATA"),
        (SQLITE_IOERR, 33, "SQLITE_IOERR_CORRUPTFS"),
        (SQLITE_LOCKED, 1, "SQLITE_LOCKED_SHAREDCACHE"),
        (SQLITE_LOCKED, 2, "SQLITE_LOCKED_VTAB"),
        (SQLITE_BUSY, 1, "SQLITE_BUSY_RECOVERY"),
        (SQLITE_BUSY, 2, "SQLITE_BUSY_SNAPSHOT"),
        (SQLITE_BUSY, 3, "SQLITE_BUSY_TIMEOUT"),
        (SQLITE_CANTOPEN, 1, "SQLITE_CANTOPEN_NOTEMPDIR"),
        (SQLITE_CANTOPEN, 2, "SQLITE_CANTOPEN_ISDIR"),
        (SQLITE_CANTOPEN, 3, "SQLITE_CANTOPEN_FULLPATH"),
        (SQLITE_CANTOPEN, 4, "SQLITE_CANTOPEN_CONVPATH"),
        (SQLITE_CANTOPEN, 5, "SQLITE_CANTOPEN_DIRTYWAL"),
        (SQLITE_CANTOPEN, 6, "SQLITE_CANTOPEN_SYMLINK"),
        (SQLITE_CORRUPT, 1, "SQLITE_CORRUPT_VTAB"),
        (SQLITE_CORRUPT, 2, "SQLITE_CORRUPT_SEQUENCE"),
        (SQLITE_CORRUPT, 3, "SQLITE_CORRUPT_INDEX"),
        (SQLITE_READONLY, 1, "SQLITE_READONLY_RECOVERY"),
        (SQLITE_READONLY, 2, "SQLITE_READONLY_CANTLOCK"),
        (SQLITE_READONLY, 3, "SQLITE_READONLY_ROLLBACK"),
        (SQLITE_READONLY, 4, "SQLITE_READONLY_DBMOVED"),
        (SQLITE_READONLY, 5, "SQLITE_READONLY_CANTINIT"),
        (SQLITE_READONLY, 6, "SQLITE_READONLY_DIRECTORY"),
        (SQLITE_ABORT, 2, "SQLITE_ABORT_ROLLBACK"),
        (SQLITE_CONSTRAINT, 1, "SQLITE_CONSTRAINT_CHECK"),
        (SQLITE_CONSTRAINT, 2, "SQLITE_CONSTRAINT_COMMITHOOK"),
        (SQLITE_CONSTRAINT, 3, "SQLITE_CONSTRAINT_FOREIGNKEY"),
        (SQLITE_CONSTRAINT, 4, "SQLITE_CONSTRAINT_FUNCTION"),
        (SQLITE_CONSTRAINT, 5, "SQLITE_CONSTRAINT_NOTNULL"),
        (SQLITE_CONSTRAINT, 6, "SQLITE_CONSTRAINT_PRIMARYKEY"),
        (SQLITE_CONSTRAINT, 7, "SQLITE_CONSTRAINT_TRIGGER"),
        (SQLITE_CONSTRAINT, 8, "SQLITE_CONSTRAINT_UNIQUE"),
        (SQLITE_CONSTRAINT, 9, "SQLITE_CONSTRAINT_VTAB"),
        (SQLITE_CONSTRAINT, 10, "SQLITE_CONSTRAINT_ROWID"),
        (SQLITE_CONSTRAINT, 11, "SQLITE_CONSTRAINT_PINNED"),
        (SQLITE_CONSTRAINT, 12, "SQLITE_CONSTRAINT_DATATYPE"),
        (SQLITE_NOTICE, 1, "SQLITE_NOTICE_RECOVER_WAL"),
        (SQLITE_NOTICE, 2, "SQLITE_NOTICE_RECOVER_ROLLBACK"),
        (SQLITE_WARNING, 1, "SQLITE_WARNING_AUTOINDEX"),
        (SQLITE_AUTH, 1, "SQLITE_AUTH_USER")
    ]
}
