import Foundation

/// Comparisons of attributes with constants, with other attributes, and string operators: which
/// values fit which attribute, and the form each comparison takes.
extension PredicateBinder {
    // MARK: - String operators

    func text(_ subject: Subject, _ op: TextOperator, _ options: TextOptions, _ value: PredicateValue) throws -> BoundPredicate.Node {
        let operation = "\(op.rawValue)\(options.spelling)"
        let attribute = try requireAttribute(subject, operation)
        guard attribute.type == .string else {
            throw ObjectGraphError(
                .typeMismatch,
                "\(subject.name) is \(attribute.type.rawValue), but \(operation) compares strings",
                entityName: entity.name, key: attribute.name)
        }
        guard case .string(let pattern) = value else {
            throw ObjectGraphError(
                .typeMismatch,
                "\(operation) needs a string to compare \(subject.name) with, but the predicate gives \(value.phrase)",
                entityName: entity.name, key: attribute.name)
        }
        let prepared: PreparedPattern
        do {
            prepared = try PreparedPattern(pattern, op, options)
        } catch {
            throw ObjectGraphError(
                .predicateSyntax, "MATCHES needs a regular expression, but \(value.phrase) is not a valid one",
                entityName: entity.name, key: attribute.name)
        }
        return .text(subject.operand(), op, options, pattern, prepared)
    }

    // MARK: - Attribute against constant

    func compare(
        _ subject: Subject, _ attribute: AttributeDescription, _ comparison: ComparisonOperator, _ value: PredicateValue
    ) throws -> BoundPredicate.Node {
        guard comparison.isOrdering else {
            let constant = try equalityValue(value, for: subject)
            return .identity(subject.operand(), .value(constant), negated: comparison == .notEqual)
        }
        try requireOrder(subject, attribute, comparison.symbol)
        let constant = try orderingValue(value, for: subject, attribute, comparison.symbol)
        return .ordering(subject.operand(asNumber: attribute.type == .decimal), comparison, .value(constant))
    }

    /// The value `==`, `!=` and IN compare the subject with, in the case it is stored as.
    func equalityValue(_ value: PredicateValue, for subject: Subject) throws -> AttributeValue {
        switch subject.target {
        case .reference(let relationship): return try referenceValue(value, to: model.entities[relationship.destinationIndex], subject)
        case .object: return try referenceValue(value, to: entity, subject)
        case .attribute(let attribute): return try equalityValue(value, for: subject, attribute)
        case .collection(_, let type):
            return try equalityValue(value, for: subject, AttributeDescription(name: subject.name, type: type, isOptional: true, index: -1))
        }
    }

    func equalityValue(_ value: PredicateValue, for subject: Subject, _ attribute: AttributeDescription) throws -> AttributeValue {
        switch (attribute.type, value) {
        case (_, .null): return .null
        case (.integer16, .integer(let integer)), (.integer32, .integer(let integer)), (.integer64, .integer(let integer)),
            (.double, .integer(let integer)), (.float, .integer(let integer)):
            return .integer(integer)
        case (.integer16, .double(let double)), (.integer32, .double(let double)), (.integer64, .double(let double)),
            (.double, .double(let double)), (.float, .double(let double)):
            return .double(double)
        // Decimals are stored as their canonical text, so equal decimals have equal text; a
        // double means the decimal its shortest round-trip spelling names (0.1 is 0.1).
        case (.decimal, .integer(let integer)): return .decimal(Decimal(integer))
        case (.decimal, .decimal(let decimal)): return .decimal(decimal)
        case (.decimal, .double(let double)):
            // The round trip check catches values beyond Decimal's range, which would otherwise
            // overflow or underflow silently.
            guard double.isFinite, let decimal = Decimal(string: "\(double)", locale: nil),
                Double(decimal.description) == double
            else {
                throw mismatch(subject, attribute, value, note: ", which a decimal cannot represent")
            }
            return .decimal(decimal)
        case (.string, .string(let string)): return .string(string)
        case (.boolean, .boolean(let boolean)): return .boolean(boolean)
        // `inPrint == 1`, as Core Data users write it: 1 and 0 are what a boolean is stored as.
        case (.boolean, .integer(let integer)) where integer == 0 || integer == 1: return .boolean(integer == 1)
        case (.boolean, .integer): throw mismatch(subject, attribute, value, note: "; a boolean equals YES or NO (or 1 or 0)")
        case (.date, .date(let date)): return .date(date)
        case (.binary, .data(let data)): return .binary(data)
        case (.uuid, .uuid(let uuid)): return .uuid(uuid)
        case (.uuid, .string(let string)):
            guard let uuid = UUID(uuidString: string) else { throw mismatch(subject, attribute, value, note: ", which is not a UUID") }
            return .uuid(uuid)
        case (.uri, .url(let url)): return .uri(url)
        // Both are text in the store; comparing the bytes as written avoids URL re-encoding.
        case (.uri, .string(let string)): return .string(string)
        case (.json, _):
            throw mismatch(subject, attribute, value, note: "; json attributes can only be compared with nil")
        default:
            throw mismatch(subject, attribute, value)
        }
    }

    /// The value `<`, `<=`, `>`, `>=` and BETWEEN compare the column with. Decimal columns are
    /// compared as REAL (`castToReal`), so decimal constants are converted the same way.
    func orderingValue(
        _ value: PredicateValue, for subject: Subject, _ attribute: AttributeDescription, _ operation: String
    ) throws -> AttributeValue {
        switch (attribute.type, value) {
        case (_, .null):
            throw ObjectGraphError(
                .typeMismatch,
                "\(subject.name) \(operation) nil is never true (an ordering comparison with nil is unknown); use == nil or != nil",
                entityName: entity.name, key: attribute.name)
        case (let type, .integer(let integer)) where type.isNumeric: return .integer(integer)
        case (let type, .double(let double)) where type.isNumeric: return .double(double)
        case (.decimal, .decimal(let decimal)): return castToReal(.decimal(decimal))
        case (.string, .string(let string)): return .string(string)
        case (.date, .date(let date)): return .date(date)
        default: throw mismatch(subject, attribute, value)
        }
    }

    // MARK: - Attribute against attribute

    func compare(
        _ left: Subject, _ lhs: AttributeDescription, _ comparison: ComparisonOperator, _ right: Subject, _ rhs: AttributeDescription
    ) throws -> BoundPredicate.Node {
        guard let lhsFamily = Family(lhs.type), let rhsFamily = Family(rhs.type), lhsFamily == rhsFamily else {
            throw ObjectGraphError(
                .typeMismatch,
                "\(left.name) (\(lhs.type.rawValue)) cannot be compared with \(right.name) (\(rhs.type.rawValue))",
                entityName: entity.name, key: lhs.name)
        }
        if comparison.isOrdering {
            try requireOrder(left, lhs, comparison.symbol)
            try requireOrder(right, rhs, comparison.symbol)
        }
        // Two decimal columns are equal exactly when their canonical texts are; any other
        // comparison involving a decimal column is numeric, through `castToReal`.
        let numeric = (lhs.type == .decimal || rhs.type == .decimal) && (comparison.isOrdering || lhs.type != rhs.type)
        let leftOperand = left.operand(asNumber: numeric && lhs.type == .decimal)
        let rightOperand = right.operand(asNumber: numeric && rhs.type == .decimal)
        return comparison.isOrdering
            ? .ordering(leftOperand, comparison, rightOperand)
            : .identity(leftOperand, rightOperand, negated: comparison == .notEqual)
    }

    /// Attribute types whose values can be compared with each other (json with nothing).
    private enum Family: Equatable {
        case number, text, boolean, date, binary, uuid

        init?(_ type: AttributeType) {
            switch type {
            case .integer16, .integer32, .integer64, .double, .float, .decimal: self = .number
            case .string, .uri: self = .text
            case .boolean: self = .boolean
            case .date: self = .date
            case .binary: self = .binary
            case .uuid: self = .uuid
            case .json: return nil
            }
        }
    }

    // MARK: - Helpers

    /// Ordering applies to numbers, dates and strings only.
    func requireOrder(_ subject: Subject, _ attribute: AttributeDescription, _ operation: String) throws {
        guard attribute.type.isNumeric || attribute.type == .date || attribute.type == .string else {
            throw ObjectGraphError(
                .typeMismatch,
                "\(subject.name) is \(attribute.type.rawValue), which has no order: '\(operation)' applies only to numbers, dates and strings",
                entityName: entity.name, key: attribute.name)
        }
    }

    func mismatch(_ subject: Subject, _ attribute: AttributeDescription, _ value: PredicateValue, note: String = "") -> ObjectGraphError {
        ObjectGraphError(
            .typeMismatch,
            "\(subject.name) is \(attribute.type.rawValue) but the predicate compares it with \(value.phrase)\(note)",
            entityName: entity.name, key: attribute.name)
    }
}
