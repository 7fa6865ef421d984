import CSQLite
import Foundation

/// Binding and reading `AttributeValue`s with the storage mapping both stores share:
/// integers and booleans INTEGER; double, float and date REAL (dates as
/// `timeIntervalSinceReferenceDate`); string, decimal (its canonical `description`), URL
/// (`absoluteString`) and JSON TEXT; binary and UUID (16 bytes) BLOB.
extension SQLiteStatement {
    /// Binds every value in order, from parameter 1.
    func bind(_ values: [AttributeValue]) throws {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds `value` to parameter `index` (1-based).
    @inline(__always)
    func bind(_ value: AttributeValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, index)
        case .integer(let integer): code = sqlite3_bind_int64(handle, index, integer)
        case .boolean(let flag): code = sqlite3_bind_int64(handle, index, flag ? 1 : 0)
        // NaN would become NULL here; contexts refuse it before a value reaches a store.
        case .double(let double): code = sqlite3_bind_double(handle, index, double)
        case .float(let float): code = sqlite3_bind_double(handle, index, Double(float))
        case .date(let date): code = sqlite3_bind_double(handle, index, date.timeIntervalSinceReferenceDate)
        case .string(let string): code = bindText(string, at: index)
        case .decimal(let decimal): code = bindText(decimal.description, at: index)
        case .uri(let url): code = bindText(url.absoluteString, at: index)
        case .json(let document): code = bindUTF8(document.data, at: index)
        case .binary(let data): code = bindBlob(data, at: index)
        case .object(let objectID):
            // Stores resolve unsaved destinations to the keys they assign before binding rows.
            guard let primaryKey = objectID.primaryKey else {
                throw ObjectGraphError(
                    .invalidOperation, "cannot store a reference to \(objectID.shortDescription): it has no primary key yet",
                    objectID: objectID)
            }
            code = sqlite3_bind_int64(handle, index, primaryKey)
        case .uuid(let uuid):
            code = withUnsafeBytes(of: uuid.uuid) { bytes in
                sqlite3_bind_blob(handle, index, bytes.baseAddress, 16, csqlite_transient())
            }
        }
        if code != SQLITE_OK { throw bindingFailure(code, at: index) }
    }

    /// Binds a string's UTF-8 bytes in place (SQLite copies them once); an empty string stays
    /// empty TEXT, never NULL.
    private func bindText(_ string: String, at index: Int32) -> Int32 {
        var string = string
        return string.withUTF8 { bytes in
            // A NULL pointer would bind NULL, so an empty buffer points at a static "" instead.
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
            }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text64(handle, index, $0, UInt64(bytes.count), csqlite_transient(), UInt8(SQLITE_UTF8))
            }
        }
    }

    /// Binds UTF-8 bytes held in `Data` as TEXT.
    private func bindUTF8(_ data: Data, at index: Int32) -> Int32 {
        data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
            }
            return sqlite3_bind_text64(
                handle, index, base.assumingMemoryBound(to: CChar.self), UInt64(bytes.count), csqlite_transient(), UInt8(SQLITE_UTF8))
        }
    }

    /// Binds bytes as a BLOB; empty data becomes a zero-length BLOB, which stays distinct from NULL.
    private func bindBlob(_ data: Data, at index: Int32) -> Int32 {
        data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_zeroblob(handle, index, 0)
            }
            return sqlite3_bind_blob64(handle, index, base, UInt64(bytes.count), csqlite_transient())
        }
    }

    /// The value in result `column` (0-based) of the current row, read as an attribute of `type`.
    /// NULL gives `.null`; a value of the wrong storage class, or text that does not decode, is
    /// damage and throws `.corruptStore` naming the column.
    @inline(__always)
    func value(at column: Int32, as type: AttributeType) throws -> AttributeValue {
        let storage = sqlite3_column_type(handle, column)
        if storage == SQLITE_NULL { return .null }
        guard Self.stores(type, as: storage) else { throw wrongStorage(column, storage, type) }
        return try storedValue(at: column, as: type)
    }

    /// Whether SQLite's `storage` class is where `type`'s values are kept (see
    /// `AttributeType.sqliteColumnType`; REAL columns hand back integral values as INTEGER).
    private static func stores(_ type: AttributeType, as storage: Int32) -> Bool {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: storage == SQLITE_INTEGER
        case .double, .float, .date: storage == SQLITE_FLOAT || storage == SQLITE_INTEGER
        case .string, .decimal, .uri, .json: storage == SQLITE_TEXT
        case .binary, .uuid: storage == SQLITE_BLOB
        }
    }

    /// The non-NULL value in `column`, of the storage class `type` is kept in, decoded; values
    /// that do not decode are damage. Read directly (without `value(at:as:)`'s check of the
    /// storage class) for a column SQLite keeps to that class and never NULL: a `NOT NULL` column
    /// of a `STRICT` table.
    @inline(__always)
    func storedValue(at column: Int32, as type: AttributeType) throws -> AttributeValue {
        switch type {
        case .integer64:
            return .integer(sqlite3_column_int64(handle, column))
        case .integer32, .integer16:
            let integer = sqlite3_column_int64(handle, column)
            guard type.holdsInteger(integer) else {
                throw undecodable(column, "\(integer)", type)
            }
            return .integer(integer)
        case .boolean:
            switch sqlite3_column_int64(handle, column) {
            case 0: return .boolean(false)
            case 1: return .boolean(true)
            case let other: throw undecodable(column, "\(other)", type)
            }
        case .double:
            return .double(sqlite3_column_double(handle, column))
        case .float:
            return .float(Float(sqlite3_column_double(handle, column)))
        case .date:
            return .date(Date(timeIntervalSinceReferenceDate: sqlite3_column_double(handle, column)))
        case .string:
            return .string(textValue(at: column))
        case .decimal:
            let text = textValue(at: column)
            guard let decimal = Self.decimal(from: text) else { throw undecodable(column, text, type) }
            return .decimal(decimal)
        case .uri:
            let text = textValue(at: column)
            guard let url = URL(string: text) else { throw undecodable(column, text, type) }
            return .uri(url)
        case .json:
            let data = blobValue(at: column)
            guard (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil else {
                throw undecodable(column, textValue(at: column), type)
            }
            return .json(JSONDocument(validatedData: data))
        case .binary:
            return .binary(blobValue(at: column))
        case .uuid:
            guard sqlite3_column_bytes(handle, column) == 16, let bytes = sqlite3_column_blob(handle, column) else {
                throw undecodable(column, "<\(sqlite3_column_bytes(handle, column)) bytes>", type)
            }
            return .uuid(UUID(uuid: bytes.loadUnaligned(as: uuid_t.self)))
        }
    }

    /// The UTF-8 bytes of the string attribute in result `column`, in SQLite's buffer: valid
    /// until the statement steps again. With `checkingStorage` (a column SQLite does not keep to
    /// TEXT and NOT NULL), NULL gives `nil` and another storage class is damage, as in
    /// `value(at:as:)`.
    @inline(__always)
    func stringBytes(at column: Int32, checkingStorage: Bool) throws -> UnsafeBufferPointer<UInt8>? {
        if checkingStorage {
            let storage = sqlite3_column_type(handle, column)
            if storage == SQLITE_NULL { return nil }
            guard storage == SQLITE_TEXT else { throw wrongStorage(column, storage, .string) }
        }
        // column_text before column_bytes, as https://www.sqlite.org/c3ref/column_blob.html asks.
        let text = sqlite3_column_text(handle, column)
        return UnsafeBufferPointer(start: text, count: text == nil ? 0 : Int(sqlite3_column_bytes(handle, column)))
    }

    /// The foreign key in result `column` as an object ID in `space`; NULL gives `.null`.
    /// Anything but a positive integer is damage.
    @inline(__always)
    func reference(at column: Int32, in space: ObjectIDSpace) throws -> AttributeValue {
        let storage = sqlite3_column_type(handle, column)
        if storage == SQLITE_NULL { return .null }
        guard storage == SQLITE_INTEGER else {
            throw damage(
                column, "holds a \(Self.storageName(storage)) value where a reference to a \(space.entity.name) is stored as INTEGER")
        }
        let key = sqlite3_column_int64(handle, column)
        guard key > 0 else { throw damage(column, "holds \(key), which is not a valid key of a \(space.entity.name) (keys start at 1)") }
        return .object(ManagedObjectID(space: space, primaryKey: key))
    }

    /// The bytes of `column` (a BLOB, or TEXT as UTF-8); a zero-length value gives empty data.
    private func blobValue(at column: Int32) -> Data {
        // column_blob before column_bytes, as https://www.sqlite.org/c3ref/column_blob.html asks.
        guard let bytes = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, column)))
    }

    /// A decimal from its canonical text. `Decimal(string:)` accepts a valid prefix ("12abc" is
    /// 12), so the characters are checked first.
    private static func decimal(from text: String) -> Decimal? {
        guard !text.isEmpty, text.utf8.allSatisfy({ decimalCharacters.contains($0) }) else { return nil }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }

    private static let decimalCharacters = Set("0123456789.-+eE".utf8)

    private func wrongStorage(_ column: Int32, _ storage: Int32, _ type: AttributeType) -> ObjectGraphError {
        damage(
            column, "holds a \(Self.storageName(storage)) value where a \(type.rawValue) attribute is stored as \(type.sqliteColumnType)")
    }

    private func undecodable(_ column: Int32, _ found: String, _ type: AttributeType) -> ObjectGraphError {
        let shown = found.count > 40 ? "\(found.prefix(40))…" : found
        return damage(column, "holds \(shown), which is not a valid \(type.rawValue) value")
    }

    private func damage(_ column: Int32, _ problem: String) -> ObjectGraphError {
        var error = ObjectGraphError(
            .corruptStore, "The store is damaged: column \"\(columnName(column))\" \(problem)", key: columnName(column))
        error.sql = sql
        return error
    }

    private static func storageName(_ storage: Int32) -> String {
        switch storage {
        case SQLITE_INTEGER: "INTEGER"
        case SQLITE_FLOAT: "REAL"
        case SQLITE_TEXT: "TEXT"
        case SQLITE_BLOB: "BLOB"
        default: "NULL"
        }
    }
}
