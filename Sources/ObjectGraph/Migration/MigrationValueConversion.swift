/// How a migration turns a column of one attribute type into another, in SQL, when no value can
/// be lost or changed on the way: widenings, and types whose string form the database can write
/// exactly as ObjectGraph would. Each store writes the SQL (`MigrationTarget.convert`).
package enum MigrationValueConversion {
    /// The stored value serves as it is (same storage class, a wider type).
    case asStored
    /// An integer as a double.
    case toReal
    /// An integer as its decimal digits.
    case integerToText
    /// A UUID as `UUID.uuidString` writes it.
    case uuidToText

    /// The conversion from `old` to `new`, or `nil` when values could be lost or changed.
    package init?(from old: AttributeType, to new: AttributeType) {
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
}
