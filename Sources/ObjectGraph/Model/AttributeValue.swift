import Foundation

/// One stored value, tagged with its kind. Value rows (`ValueRow`, one slot per attribute)
/// are what objects keep and what stores exchange: no `Any` boxing on the hot path.
package enum AttributeValue: Sendable, Hashable {
    case null
    /// integer16, integer32 and integer64 attributes.
    case integer(Int64)
    case double(Double)
    case float(Float)
    case decimal(Decimal)
    case string(String)
    case boolean(Bool)
    /// Seconds since the reference date (2001-01-01 UTC), exactly as `Date` holds them.
    case date(Date)
    case binary(Data)
    case uuid(UUID)
    case uri(URL)
    case json(JSONDocument)
    /// A to-one relationship's destination, in the row slot after the attributes (the store
    /// keeps it as a foreign key). A temporary ID stands for an object not saved yet.
    case object(ManagedObjectID)

    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value as the Swift type documented for its attribute type, or `nil`.
    var anyValue: (any Sendable)? {
        switch self {
        case .null: nil
        case .integer(let value): value
        case .double(let value): value
        case .float(let value): value
        case .decimal(let value): value
        case .string(let value): value
        case .boolean(let value): value
        case .date(let value): value
        case .binary(let value): value
        case .uuid(let value): value
        case .uri(let value): value
        case .json(let value): value
        case .object(let value): value
        }
    }

    /// A short rendering for error messages: strings quoted, long data abbreviated.
    package var debugText: String {
        switch self {
        case .null: "nil"
        case .integer(let value): "\(value)"
        case .double(let value): "\(value)"
        case .float(let value): "\(value)"
        case .decimal(let value): "\(value)"
        case .string(let value): value.count > 40 ? "\"\(value.prefix(40))…\"" : "\"\(value)\""
        case .boolean(let value): "\(value)"
        case .date(let value): MessageText.of(value)
        case .binary(let value): "<\(value.count) bytes>"
        case .uuid(let value): value.uuidString
        case .uri(let value): value.absoluteString
        case .json(let value): value.text.count > 40 ? "\(value.text.prefix(40))…" : value.text
        case .object(let value): value.shortDescription
        }
    }
}
