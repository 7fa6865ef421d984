/// The type of an attribute, as written in a model file's `"type"` field.
public enum AttributeType: String, Sendable, CaseIterable, Codable {
    /// A 16-bit signed integer (`Int16`).
    case integer16
    /// A 32-bit signed integer (`Int32`).
    case integer32
    /// A 64-bit signed integer (`Int64`).
    case integer64
    /// A 64-bit floating-point number (`Double`).
    case double
    /// A 32-bit floating-point number (`Float`).
    case float
    /// An exact decimal number (`Decimal`).
    case decimal
    /// A Unicode string (`String`).
    case string
    /// A Boolean (`Bool`).
    case boolean
    /// A point in time (`Date`), kept to sub-microsecond precision.
    case date
    /// Raw bytes (`Data`).
    case binary
    /// A UUID (`UUID`).
    case uuid
    /// A URL (`URL`).
    case uri
    /// Any `Codable` value, stored as JSON text (`JSONDocument`).
    case json

    /// The Swift type that `ManagedObject.value(forKey:)` returns for this attribute type.
    public var swiftTypeName: String {
        switch self {
        case .integer16: "Int16"
        case .integer32: "Int32"
        case .integer64: "Int64"
        case .double: "Double"
        case .float: "Float"
        case .decimal: "Decimal"
        case .string: "String"
        case .boolean: "Bool"
        case .date: "Date"
        case .binary: "Data"
        case .uuid: "UUID"
        case .uri: "URL"
        case .json: "JSONDocument"
        }
    }

    /// Whether values of this type are numbers (integers, floating point or decimal).
    var isNumeric: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .double, .float, .decimal: true
        default: false
        }
    }

    /// Whether values of this type are integers.
    var isInteger: Bool {
        switch self {
        case .integer16, .integer32, .integer64: true
        default: false
        }
    }

    /// Whether an integer attribute of this type can hold `value` (false for other types). Plain
    /// comparisons: this runs for every integer a program sets or the store reads.
    @inline(__always)
    func holdsInteger(_ value: Int64) -> Bool {
        switch self {
        case .integer16: value >= Int64(Int16.min) && value <= Int64(Int16.max)
        case .integer32: value >= Int64(Int32.min) && value <= Int64(Int32.max)
        case .integer64: true
        default: false
        }
    }

    /// The inclusive range an integer attribute of this type can hold.
    var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: Int64(Int16.min)...Int64(Int16.max)
        case .integer32: Int64(Int32.min)...Int64(Int32.max)
        case .integer64: Int64.min...Int64.max
        default: nil
        }
    }
}
