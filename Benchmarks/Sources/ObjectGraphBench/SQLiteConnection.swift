import BenchSQLite
import Foundation

/// A failed SQLite call, with SQLite's own message.
struct SQLiteFailure: Error, CustomStringConvertible {
    var code: Int32
    var message: String
    var description: String { "SQLite error \(code): \(message)" }
}

/// The thinnest possible wrapper over a `sqlite3*`: the raw baseline and the result checks use
/// it, so it must add nothing to what is measured.
final class SQLiteConnection {
    let handle: OpaquePointer

    /// Opens (creating) the database in WAL mode with `synchronous=NORMAL`, the settings every
    /// backend uses.
    init(url: URL) throws {
        var db: OpaquePointer?
        let code = sqlite3_open_v2(url.path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw SQLiteFailure(code: code, message: "cannot open \(url.path): \(message)")
        }
        handle = db
        try execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
    }

    func close() throws {
        // close_v2 so that a statement still alive finishes the close when it is finalized.
        let code = sqlite3_close_v2(handle)
        guard code == SQLITE_OK else { throw SQLiteFailure(code: code, message: "close: \(String(cString: sqlite3_errmsg(handle)))") }
    }

    func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &error)
        if code != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? "unknown"
            sqlite3_free(error)
            throw SQLiteFailure(code: code, message: "\(message) in: \(sql)")
        }
    }

    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code, sql) }
        return SQLiteStatement(handle: statement, connection: self)
    }

    func failure(_ code: Int32, _ context: String) -> SQLiteFailure {
        SQLiteFailure(code: code, message: "\(String(cString: sqlite3_errmsg(handle))) in: \(context)")
    }

    /// The single integer a `SELECT count(*)`-style query returns.
    func integer(_ sql: String) throws -> Int64 {
        let statement = try prepare(sql)
        guard try statement.step() else { throw SQLiteFailure(code: SQLITE_ERROR, message: "no row from: \(sql)") }
        return sqlite3_column_int64(statement.handle, 0)
    }
}

/// A prepared statement, finalized when released.
final class SQLiteStatement {
    let handle: OpaquePointer
    private let connection: SQLiteConnection

    fileprivate init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Steps once: `true` for a row, `false` when done.
    @inline(__always)
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw connection.failure(code, String(cString: sqlite3_sql(handle)))
        }
    }

    @inline(__always)
    func reset() {
        sqlite3_reset(handle)
    }

    /// Column `index` as text; SQLite's buffer is decoded straight into a Swift string.
    @inline(__always)
    func text(_ index: Int32) -> String {
        let bytes = sqlite3_column_text(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Column `index` as optional text.
    @inline(__always)
    func optionalText(_ index: Int32) -> String? {
        sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : text(index)
    }

    /// The row in the column order of `personColumns`.
    @inline(__always)
    func person() -> PersonRow {
        PersonRow(
            id: sqlite3_column_int64(handle, 0),
            name: text(1),
            email: text(2),
            age: sqlite3_column_int64(handle, 3),
            score: sqlite3_column_double(handle, 4),
            createdAt: sqlite3_column_double(handle, 5),
            bio: optionalText(6)
        )
    }
}

/// The column list every raw query reads, in `SQLiteStatement.person()` order. Every backend's
/// `Person` table keys its rows by the person's id — raw's and GRDB's `id INTEGER PRIMARY KEY`,
/// ObjectGraph's `_pk`, which holds the model's `primaryKey` attribute `id` — so the id is the
/// rowid, whatever the column's name.
let personColumns = "rowid, name, email, age, score, createdAt, bio"

/// The INSERT of one person into any backend's `Person` table, parameters in `personColumns` order.
let personInsertSQL = "INSERT INTO Person (\(personColumns)) VALUES (?, ?, ?, ?, ?, ?, ?)"

extension SQLiteStatement {
    /// Runs this statement (`personInsertSQL`) for `row`, strings bound without copying
    /// (SQLITE_STATIC: the buffers outlive the step that reads them).
    func insertPerson(_ row: PersonRow) throws {
        sqlite3_bind_int64(handle, 1, row.id)
        sqlite3_bind_int64(handle, 4, row.age)
        sqlite3_bind_double(handle, 5, row.score)
        sqlite3_bind_double(handle, 6, row.createdAt)
        var name = row.name
        var email = row.email
        try name.withUTF8 { name in
            try email.withUTF8 { email in
                sqlite3_bind_text(handle, 2, name.baseAddress, Int32(name.count), nil)
                sqlite3_bind_text(handle, 3, email.baseAddress, Int32(email.count), nil)
                if var bio = row.bio {
                    try bio.withUTF8 { bio in
                        sqlite3_bind_text(handle, 7, bio.baseAddress, Int32(bio.count), nil)
                        _ = try step()
                    }
                } else {
                    sqlite3_bind_null(handle, 7)
                    _ = try step()
                }
            }
        }
        reset()
    }
}

/// Reads the whole `Person` table of any backend's store (they share table and column names and
/// storage classes) and checksums it, to check what a write workload left behind.
func tableChecksum(at url: URL) throws -> Checksum {
    let connection = try SQLiteConnection(url: url)
    defer { try? connection.close() }
    var checksum = Checksum()
    let statement = try connection.prepare("SELECT \(personColumns) FROM Person")
    while try statement.step() { checksum.add(statement.person()) }
    return checksum
}
