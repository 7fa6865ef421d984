import Foundation

/// The real-number values no store keeps as they are: NaN (refused) and −0.0 (kept as 0.0).
extension AttributeValue {
    /// Whether the value is a NaN number or date, which no store keeps (SQLite reads NaN as NULL).
    var isNaN: Bool {
        switch self {
        case .double(let value): value.isNaN
        case .float(let value): value.isNaN
        case .decimal(let value): value.isNaN
        case .date(let value): value.timeIntervalSinceReferenceDate.isNaN
        default: false
        }
    }

    /// Whether the value is a real number or date at −0.0.
    var isNegativeZero: Bool {
        switch self {
        case .double(let value): value == 0 && value.sign == .minus
        case .float(let value): value == 0 && value.sign == .minus
        case .date(let value): value.timeIntervalSinceReferenceDate == 0 && value.timeIntervalSinceReferenceDate.sign == .minus
        default: false
        }
    }

    /// The value with a −0.0 made 0.0, as SQLite stores it.
    var withPositiveZero: AttributeValue {
        switch self {
        case .double(0): .double(0)
        case .float(0): .float(0)
        case .date(let value) where value.timeIntervalSinceReferenceDate == 0: .date(Date(timeIntervalSinceReferenceDate: 0))
        default: self
        }
    }
}
