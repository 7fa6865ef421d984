import Foundation
import ObjectGraph
import PostgresNIO

/// Values in and out of PostgreSQL, following the storage mapping of `PostgreSQLSchema`: the same
/// values the SQLite store keeps (dates as seconds since 2001, floats widened to doubles, URLs
/// and JSON as text, object IDs as their keys), in PostgreSQL's types.
enum PostgreSQLValues {
    /// `value` as its column keeps it, encoded for binding.
    static func data(_ value: AttributeValue) throws -> PostgresData {
        var buffer = ByteBuffer()
        guard let (type, format) = try encode(value, into: &buffer) else { return .null }
        return PostgresData(type: type, formatCode: format, value: buffer)
    }

    /// `values` as their columns keep them, encoded for binding into one buffer that each
    /// value is a slice of: a statement of many rows binds thousands of values, and a buffer
    /// of its own for each (allocated, grown, freed) was most of what encoding them cost.
    static func data(_ values: [AttributeValue]) throws -> [PostgresData] {
        var buffer = ByteBufferAllocator().buffer(capacity: values.count * 16)
        var encoded: [(type: PostgresDataType, format: PostgresFormat, start: Int, length: Int)?] = []
        encoded.reserveCapacity(values.count)
        for value in values {
            let start = buffer.writerIndex
            encoded.append(try encode(value, into: &buffer).map { ($0, $1, start, buffer.writerIndex - start) })
        }
        // Sliced only now: a slice shares the buffer's storage, so writing after slicing would
        // copy the storage every time.
        return encoded.map { value in
            guard let value else { return .null }
            return PostgresData(type: value.type, formatCode: value.format, value: buffer.getSlice(at: value.start, length: value.length))
        }
    }

    /// Appends `value`, as its column keeps it, to `buffer`; returns its type and format, or
    /// `nil` for NULL (nothing appended).
    static func encode(_ value: AttributeValue, into buffer: inout ByteBuffer) throws -> (PostgresDataType, PostgresFormat)? {
        switch value {
        case .null: return nil
        case .integer(let integer): return try encode(integer, into: &buffer)
        // −0.0 is kept as 0.0, as SQLite keeps it (and so the in-memory store).
        case .double(let double): return try encode(double + 0, into: &buffer)
        case .float(let float): return try encode(Double(float) + 0, into: &buffer)
        case .decimal(let decimal): return try encode(decimal, into: &buffer)
        case .string(let string): return try encode(try text(string), into: &buffer)
        case .boolean(let flag): return try encode(flag, into: &buffer)
        case .date(let date): return try encode(date.timeIntervalSinceReferenceDate + 0, into: &buffer)
        case .binary(let bytes): return try encode(bytes, into: &buffer)
        case .uuid(let uuid): return try encode(uuid, into: &buffer)
        case .uri(let url): return try encode(try text(url.absoluteString), into: &buffer)
        case .json(let document): return try encode(try text(document.text), into: &buffer)
        case .object(let objectID): return try encode(objectID.primaryKey ?? 0, into: &buffer)
        }
    }

    private static func encode<Value: PostgresEncodable>(
        _ value: Value, into buffer: inout ByteBuffer
    ) throws -> (PostgresDataType, PostgresFormat) {
        try value.encode(into: &buffer, context: .default)
        return (Value.psqlType, Value.psqlFormat)
    }

    /// PostgreSQL text cannot hold the NUL character, which SQLite's can. Saves and fetches
    /// refuse such strings first, naming where they are (`PostgreSQLTextWithNUL`); this catches
    /// any other text sent (history's context names and authors).
    static func text(_ string: String) throws -> String {
        guard !PostgreSQLTextWithNUL.holdsNUL(string) else {
            throw ObjectGraphError(
                .invalidOperation, "The PostgreSQL store cannot send the string \(string.debugDescription): \(PostgreSQLTextWithNUL.reason)"
            )
        }
        return string
    }

    /// The value of `cell` as an attribute of `type`; numbers convert between the integer,
    /// double and numeric results of aggregates (PostgreSQL sums integers as numeric).
    static func value(of cell: PostgresCell, as type: AttributeType) throws -> AttributeValue {
        guard let bytes = cell.bytes else { return .null }
        if let value = directValue(of: bytes, dataType: cell.dataType, as: type) { return value }
        switch type {
        case .integer16, .integer32, .integer64:
            switch cell.dataType {
            case .numeric: return .integer(NSDecimalNumber(decimal: try cell.decode(Decimal.self)).int64Value)
            case .float4, .float8: return .integer(Int64(try cell.decode(Double.self)))
            default: return .integer(try cell.decode(Int64.self))
            }
        case .double: return .double(try double(cell))
        case .float: return .float(Float(try double(cell)))
        case .date: return .date(Date(timeIntervalSinceReferenceDate: try double(cell)))
        case .decimal:
            switch cell.dataType {
            case .int2, .int4, .int8: return .decimal(Decimal(try cell.decode(Int64.self)))
            case .float4, .float8: return .decimal(Decimal(try cell.decode(Double.self)))
            default: return .decimal(try cell.decode(Decimal.self))
            }
        case .string: return .string(try cell.decode(String.self))
        case .boolean: return .boolean(try cell.decode(Bool.self))
        case .binary: return .binary(try cell.decode(Data.self))
        case .uuid: return .uuid(try cell.decode(UUID.self))
        case .uri:
            let text = try cell.decode(String.self)
            guard let url = URL(string: text) else {
                throw ObjectGraphError(.corruptStore, "The store is damaged: column \(cell.columnName) holds '\(text)', which is not a URL")
            }
            return .uri(url)
        case .json: return .json(JSONDocument(validatedData: Data(try cell.decode(String.self).utf8)))
        }
    }

    /// The value of a cell's binary bytes when the column has the type the store creates for
    /// `type` (the common case, read straight from the bytes: postgres-nio's generic decoding
    /// was a third of what reading a row cost); `nil` for anything else, which `value(of:as:)`
    /// decodes through postgres-nio, with its checks and errors.
    private static func directValue(of bytes: ByteBuffer, dataType: PostgresDataType, as type: AttributeType) -> AttributeValue? {
        switch (type, dataType) {
        case (.integer16, .int8), (.integer32, .int8), (.integer64, .int8):
            guard bytes.readableBytes == 8, let integer = bytes.getInteger(at: bytes.readerIndex, as: Int64.self) else { return nil }
            return .integer(integer)
        case (.double, .float8), (.float, .float8), (.date, .float8):
            guard bytes.readableBytes == 8, let bits = bytes.getInteger(at: bytes.readerIndex, as: UInt64.self) else { return nil }
            let double = Double(bitPattern: bits)
            switch type {
            case .float: return .float(Float(double))
            case .date: return .date(Date(timeIntervalSinceReferenceDate: double))
            default: return .double(double)
            }
        case (.string, .text), (.string, .varchar):
            return bytes.getString(at: bytes.readerIndex, length: bytes.readableBytes).map { .string($0) }
        case (.boolean, .bool):
            guard bytes.readableBytes == 1, let byte = bytes.getInteger(at: bytes.readerIndex, as: UInt8.self) else { return nil }
            return byte <= 1 ? .boolean(byte == 1) : nil
        default:
            return nil
        }
    }

    /// A number cell as a double, whichever numeric type the server gave.
    private static func double(_ cell: PostgresCell) throws -> Double {
        switch cell.dataType {
        case .int2, .int4, .int8: return Double(try cell.decode(Int64.self))
        case .numeric: return NSDecimalNumber(decimal: try cell.decode(Decimal.self)).doubleValue
        default: return try cell.decode(Double.self)
        }
    }

    /// A foreign key cell as a reference to an object of `space`.
    static func reference(of cell: PostgresCell, in space: ObjectIDSpace) throws -> AttributeValue {
        guard cell.bytes != nil else { return .null }
        let key = try cell.decode(Int64.self)
        guard key > 0 else {
            throw ObjectGraphError(
                .corruptStore,
                "The store is damaged: column \(cell.columnName) holds \(key), which is not a valid key of a \(space.entity.name) (keys start at 1)"
            )
        }
        return .object(ManagedObjectID(space: space, primaryKey: key))
    }
}
