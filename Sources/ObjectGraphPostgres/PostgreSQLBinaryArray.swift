import Foundation
import ObjectGraph
import PostgresNIO

/// A column of values bound as one PostgreSQL array in binary form (array_recv's format: a
/// header, then each element's length and bytes, −1 for NULL), each element encoded as
/// `PostgreSQLValues` binds that value alone. A statement of many rows then binds a few
/// parameters, however many rows it writes, and the server neither parses nor plans the values
/// (as it would an array's text). postgres-nio's own array encoding cannot hold NULLs.
struct PostgreSQLBinaryArray {
    /// The SQL name of the elements' type (`bigint`, `text`, …); `nil` when every value is NULL
    /// (no type can be told: a statement assigns NULL itself instead).
    let elementType: String?
    /// The array, ready to bind.
    let data: PostgresData

    init<Values: Collection<AttributeValue>>(_ values: Values) throws {
        var elements = ByteBuffer()
        elements.reserveCapacity(values.count * 12)
        var type: PostgresDataType?
        var holdsNull = false
        for value in values {
            let lengthAt = elements.writerIndex
            elements.writeInteger(Int32(-1))
            guard let (elementType, _) = try PostgreSQLValues.encode(value, into: &elements) else {
                holdsNull = true
                continue
            }
            guard type == nil || type == elementType else {
                throw ObjectGraphError(
                    .invalidOperation, "Cannot bind values of types \(type!) and \(elementType) as one PostgreSQL array")
            }
            type = elementType
            elements.setInteger(Int32(elements.writerIndex - lengthAt - 4), at: lengthAt)
        }
        guard let type else {
            elementType = nil
            data = .null
            return
        }
        guard let (arrayType, name) = Self.arrayTypes[type] else {
            throw ObjectGraphError(.invalidOperation, "Cannot bind values of type \(type) as a PostgreSQL array")
        }
        var array = Self.header(of: values.count, type, holdsNull: holdsNull, reserving: elements.readableBytes)
        array.writeBuffer(&elements)
        elementType = name
        data = PostgresData(type: arrayType, formatCode: .binary, value: array)
    }

    /// Keys (or versions) as one `bigint[]`.
    static func integers(_ values: [Int64]) -> PostgresData {
        var array = header(of: values.count, .int8, holdsNull: false, reserving: values.count * 12)
        for value in values {
            array.writeInteger(Int32(8))
            array.writeInteger(value)
        }
        return PostgresData(type: .int8Array, formatCode: .binary, value: array)
    }

    /// A buffer holding the header of a one-dimensional array of `count` elements of `type`,
    /// with room for `elementBytes` more.
    private static func header(of count: Int, _ type: PostgresDataType, holdsNull: Bool, reserving elementBytes: Int) -> ByteBuffer {
        var array = ByteBuffer()
        array.reserveCapacity(20 + elementBytes)
        array.writeInteger(Int32(1))  // dimensions
        array.writeInteger(Int32(holdsNull ? 1 : 0))
        array.writeInteger(type.rawValue)
        array.writeInteger(Int32(count))
        array.writeInteger(Int32(1))  // the first index
        return array
    }

    /// For each element type `PostgreSQLValues` encodes, its array's type and its SQL name.
    private static let arrayTypes: [PostgresDataType: (PostgresDataType, String)] = [
        .int8: (.int8Array, "bigint"), .float8: (.float8Array, "double precision"), .numeric: (.numericArray, "numeric"),
        .bool: (.boolArray, "boolean"), .uuid: (.uuidArray, "uuid"), .text: (.textArray, "text"), .bytea: (.byteaArray, "bytea")
    ]

    /// Roughly how many bytes a value adds to an array: what bounds the rows of one statement
    /// when values are large (see `PostgreSQLStoreState.arrayStatementBytes`).
    static func approximateLength(of value: AttributeValue) -> Int {
        switch value {
        case .string(let string): string.utf8.count + 4
        case .json(let document): document.text.utf8.count + 4
        case .uri(let url): url.absoluteString.utf8.count + 4
        case .binary(let bytes): bytes.count + 4
        case .decimal: 24
        default: 12
        }
    }
}
