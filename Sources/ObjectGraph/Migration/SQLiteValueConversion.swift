/// How a migration turns a column of one attribute type into another, in SQL, when no value can
/// be lost or changed on the way: widenings, and types whose string form SQLite can write
/// exactly as ObjectGraph would.
enum SQLiteValueConversion {
    /// The stored value serves as it is (same storage class, a wider type).
    case asStored
    /// `CAST(… AS REAL)`: an integer as a double.
    case toReal
    /// `CAST(… AS TEXT)`: an integer as its decimal digits.
    case integerToText
    /// A 16-byte UUID as `UUID.uuidString` writes it.
    case uuidToText

    /// The conversion from `old` to `new`, or `nil` when values could be lost or changed.
    init?(from old: AttributeType, to new: AttributeType) {
        switch (old, new) {
        case _ where old == new: self = .asStored
        case (.integer16, .integer32), (.integer16, .integer64), (.integer32, .integer64), (.float, .double): self = .asStored
        case (.integer16, .double), (.integer32, .double), (.integer64, .double): self = .toReal
        case (.integer16, .string), (.integer32, .string), (.integer64, .string): self = .integerToText
        case (.decimal, .string), (.uri, .string), (.json, .string): self = .asStored
        case (.uuid, .string): self = .uuidToText
        default: return nil
        }
    }

    /// The SQL expression converting `column` (a quoted column reference).
    func sql(_ column: String) -> String {
        switch self {
        case .asStored: return column
        case .toReal: return "CAST(\(column) AS REAL)"
        case .integerToText: return "CAST(\(column) AS TEXT)"
        case .uuidToText:
            // hex() is upper case, as uuidString is: 8-4-4-4-12 digits.
            let digits = "hex(\(column))"
            let groups = [(1, 8), (9, 4), (13, 4), (17, 4), (21, 12)].map { "substr(\(digits), \($0.0), \($0.1))" }
            return "CASE WHEN \(column) IS NULL THEN NULL ELSE \(groups.joined(separator: " || '-' || ")) END"
        }
    }
}
