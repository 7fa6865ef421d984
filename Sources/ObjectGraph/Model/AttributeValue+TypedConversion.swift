import Foundation

/// Exact conversions from each Swift type an attribute accepts to the stored value for an
/// attribute of `type`; `nil` when the value does not fit exactly (the caller reports why).
/// Both `setValue` paths end here: the typed overloads directly, the `Any` one after its casts.
extension AttributeValue {
    static func converting(_ value: Int64, to type: AttributeType) -> AttributeValue? {
        switch type {
        case .integer16, .integer32, .integer64: type.holdsInteger(value) ? .integer(value) : nil
        case .double: Double(exactly: value).map { .double($0) }
        case .float: Float(exactly: value).map { .float($0) }
        case .decimal: .decimal(Decimal(value))
        default: nil
        }
    }

    static func converting(_ value: Double, to type: AttributeType) -> AttributeValue? {
        guard !value.isNaN else { return nil }
        // SQLite writes integral REALs as integers, which loses the sign of zero; both stores
        // keep +0.0 for -0.0 so they agree (the two compare equal anyway).
        switch type {
        case .double: return .double(value + 0)
        case .float:
            if value.isInfinite { return .float(Float(value)) }
            return Float(exactly: value).map { .float($0 + 0) }
        default: return nil
        }
    }

    static func converting(_ value: Float, to type: AttributeType) -> AttributeValue? {
        guard !value.isNaN else { return nil }
        switch type {
        case .float: return .float(value + 0)
        case .double: return .double(Double(value) + 0)
        default: return nil
        }
    }

    static func converting(_ value: Decimal, to type: AttributeType) -> AttributeValue? {
        type == .decimal && !value.isNaN ? .decimal(value) : nil
    }

    static func converting(_ value: String, to type: AttributeType) -> AttributeValue? {
        type == .string ? .string(value) : nil
    }

    static func converting(_ value: Bool, to type: AttributeType) -> AttributeValue? {
        type == .boolean ? .boolean(value) : nil
    }

    static func converting(_ value: Date, to type: AttributeType) -> AttributeValue? {
        type == .date && !value.timeIntervalSinceReferenceDate.isNaN ? .date(value) : nil
    }

    static func converting(_ value: Data, to type: AttributeType) -> AttributeValue? {
        type == .binary ? .binary(value) : nil
    }

    static func converting(_ value: UUID, to type: AttributeType) -> AttributeValue? {
        type == .uuid ? .uuid(value) : nil
    }

    static func converting(_ value: URL, to type: AttributeType) -> AttributeValue? {
        type == .uri ? .uri(value) : nil
    }
}
