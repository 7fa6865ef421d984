import CSQLite
import Foundation

/// A SQLite store as SQL text, and back: the schema exactly as the file holds it, every row of
/// every table (ObjectGraph's metadata and key counters included) as an `INSERT`, the indexes
/// last, in one transaction. Values are written so that loading gives back the same bytes:
/// reals in Swift's shortest exact form, text with control characters and blobs in hexadecimal.
enum SQLiteDump {
    /// Writes the dump of the database on `connection` (read in one read transaction, so it is
    /// one snapshot) to `output`, a line at a time.
    static func write(from connection: SQLiteConnection, to output: FileHandle) throws {
        try connection.readTransaction {
            func emit(_ line: String) throws { try output.write(contentsOf: Data((line + "\n").utf8)) }
            try emit("-- ObjectGraph store dump of \(connection.path)")
            try emit("BEGIN;")
            let schema = try connection.prepare(
                "SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type = 'index', rowid"
            )
            var tables: [String] = []
            var indexes: [String] = []
            while try schema.step() {
                guard let type = schema.text(at: 0), let name = schema.text(at: 1), let sql = schema.text(at: 2) else { continue }
                if type == "table" {
                    try emit(sql + ";")
                    tables.append(name)
                } else {
                    indexes.append(sql + ";")
                }
            }
            for table in tables {
                let rows = try connection.prepare("SELECT * FROM \(quoteIdentifier(table))")
                let columns = sqlite3_column_count(rows.handle)
                while try rows.step() {
                    try emit(
                        "INSERT INTO \(quoteIdentifier(table)) VALUES(\((0..<columns).map { literal(rows.handle, $0) }.joined(separator: ",")));"
                    )
                }
            }
            for index in indexes { try emit(index) }
            try emit("COMMIT;")
        }
    }

    /// Column `column` of the current row as an SQL literal of the same storage class and value.
    private static func literal(_ statement: OpaquePointer, _ column: Int32) -> String {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return String(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT:
            let value = sqlite3_column_double(statement, column)
            guard value.isFinite else { return value < 0 ? "-9e999" : "9e999" }
            // Swift's shortest form reads back to the same double; the exponent form keeps
            // SQLite from taking a whole number for an integer.
            let text = value.description
            return text.contains(where: { $0 == "." || $0 == "e" }) ? text : text + ".0"
        case SQLITE_TEXT:
            let bytes = UnsafeBufferPointer(
                start: sqlite3_column_text(statement, column), count: Int(sqlite3_column_bytes(statement, column)))
            // Quoted when printable; control characters (NUL among them) in hexadecimal.
            if bytes.allSatisfy({ $0 >= 0x20 }) {
                return "'" + String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "'", with: "''") + "'"
            }
            return "CAST(X'\(hex(bytes))' AS TEXT)"
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let base = sqlite3_column_blob(statement, column) else { return "X''" }
            return "X'\(hex(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count)))'"
        default: return "NULL"
        }
    }

    private static func hex(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension SQLiteStore {
    /// Writes the store as SQL text to a new file at `url` (see `SQLiteDump`), read on a
    /// read-only connection of its own while the store stays in use.
    func dump(to url: URL) throws {
        let target = SQLiteStoreState.fileSystemPath(url)
        guard let sourcePath = storeDescription.url.map(SQLiteStoreState.fileSystemPath) else {
            throw ObjectGraphError(.invalidOperation, "Cannot dump the store: it has no file")
        }
        guard !FileManager.default.fileExists(atPath: target) else {
            throw ObjectGraphError(
                .invalidOperation, "Cannot dump the store at \(sourcePath) to \(target): that file exists already; dump to a new file")
        }
        guard FileManager.default.createFile(atPath: target, contents: nil), let output = FileHandle(forWritingAtPath: target) else {
            throw ObjectGraphError(.storeUnavailable, "Cannot dump the store at \(sourcePath) to \(target): the file cannot be created")
        }
        defer { try? output.close() }
        let source = try SQLiteConnection(path: sourcePath, readOnly: true, busyTimeout: storeDescription.busyTimeout)
        defer { source.close() }
        try SQLiteDump.write(from: source, to: output)
    }
}

extension SQLiteStoreState {
    /// Makes a new store file at `path` from the dump at `dumpPath` (one transaction: a dump that
    /// fails half-way leaves no file), in WAL mode, and checks that it is an ObjectGraph store.
    static func load(dumpAt dumpPath: String, into path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw ObjectGraphError(
                .invalidOperation, "Cannot load the dump \(dumpPath) into \(path): that file exists already; load into a new file")
        }
        let sql: String
        do {
            sql = try String(contentsOfFile: dumpPath, encoding: .utf8)
        } catch {
            throw ObjectGraphError(.storeUnavailable, "Cannot read the dump \(dumpPath): \(error.localizedDescription)")
        }
        var loaded = false
        defer { if !loaded { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } } }
        do {
            let connection = try SQLiteConnection(path: path, readOnly: false, busyTimeout: 5)
            defer { connection.close() }
            var message: UnsafeMutablePointer<CChar>?
            let code = sqlite3_exec(connection.handle, sql, nil, nil, &message)
            guard code == SQLITE_OK else {
                let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
                sqlite3_free(message)
                _ = sqlite3_exec(connection.handle, "ROLLBACK", nil, nil, nil)
                throw SQLiteFailure(code: code, connection: connection.handle, sql: nil).error(
                    SQLiteResultCode.errorKind(of: code), "Cannot load the dump \(dumpPath) into \(path): \(text)")
            }
            try connection.execute("PRAGMA journal_mode = WAL")
        }
        _ = try readMetadata(path: path)
        loaded = true
    }
}
