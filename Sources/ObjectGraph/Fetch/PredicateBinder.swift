import Foundation

extension FetchPredicate {
    /// The predicate checked against `entity`: every key must be a stored attribute, and every
    /// constant must suit its attribute's type. Throws `.unknownKey` or `.typeMismatch`.
    func bind(to entity: EntityDescription) throws -> BoundPredicate {
        BoundPredicate(root: try PredicateBinder(entity: entity).bind(node))
    }
}

/// The attribute a fetch predicate or sort descriptor names: a stored attribute of `entity`.
/// Key paths through relationships and transient attributes are refused with `.unknownKey`.
func fetchableAttribute(_ keyPath: [String], of entity: EntityDescription, usage: String) throws -> AttributeDescription {
    let key = keyPath.joined(separator: ".")
    guard keyPath.count == 1 else {
        throw ObjectGraphError(
            .unknownKey,
            "\(entity.name): \(usage) uses the key path '\(key)', but key paths through relationships are not supported yet",
            entityName: entity.name, key: key)
    }
    if entity.relationships.contains(where: { $0.name == key }) {
        throw ObjectGraphError(
            .unknownKey,
            "\(entity.name).\(key) is a relationship, but \(usage) can only use attributes so far",
            entityName: entity.name, key: key)
    }
    let attribute = try entity.requireAttribute(key)
    guard !attribute.isTransient else {
        throw ObjectGraphError(
            .unknownKey,
            "\(entity.name).\(key) is transient: transient attributes are not stored, so \(usage) cannot use them",
            entityName: entity.name, key: key)
    }
    return attribute
}

/// Resolves keys and converts constants to the values their columns are stored as, choosing for
/// each comparison the form that SQL and the in-memory evaluator both implement the same way.
private struct PredicateBinder {
    let entity: EntityDescription

    func bind(_ node: PredicateNode) throws -> BoundPredicate.Node {
        switch node {
        case .constant(let value):
            return .constant(value)
        case .and(let nodes):
            return .and(try nodes.map(bind))
        case .or(let nodes):
            return .or(try nodes.map(bind))
        case .not(let node):
            return .not(try bind(node))
        case .comparison(.keyPath(let lhs), let comparison, .keyPath(let rhs)):
            return try compare(try attribute(lhs), comparison, try attribute(rhs))
        case .comparison(.keyPath(let keyPath), let comparison, .value(let value)):
            return try compare(try attribute(keyPath), comparison, value)
        case .comparison(.value(let value), let comparison, .keyPath(let keyPath)):
            return try compare(try attribute(keyPath), comparison.mirrored, value)
        case .comparison(.value(let lhs), let comparison, .value(let rhs)):
            throw ObjectGraphError(
                .typeMismatch,
                "the predicate compares two values (\(PredicateFormatter.render(lhs)) \(comparison.symbol) \(PredicateFormatter.render(rhs))); one side must be a key",
                entityName: entity.name)
        case .between(let keyPath, let lower, let upper):
            let attribute = try attribute(keyPath)
            try requireOrder(attribute, "BETWEEN")
            return .between(
                column(attribute, asNumber: attribute.type == .decimal),
                lower: .value(try orderingValue(lower, for: attribute, "BETWEEN")),
                upper: .value(try orderingValue(upper, for: attribute, "BETWEEN")))
        case .membership(let keyPath, let values):
            let attribute = try attribute(keyPath)
            return .membership(.attribute(attribute), try values.map { try equalityValue($0, for: attribute) })
        case .text(let keyPath, let op, let options, let value):
            return try text(try attribute(keyPath), op, options, value)
        }
    }

    // MARK: - String operators

    private func text(_ attribute: AttributeDescription, _ op: TextOperator, _ options: TextOptions, _ value: PredicateValue) throws -> BoundPredicate.Node {
        let operation = "\(op.rawValue)\(options.spelling)"
        guard attribute.type == .string else {
            throw ObjectGraphError(
                .typeMismatch,
                "\(entity.name).\(attribute.name) is \(attribute.type.rawValue), but \(operation) compares strings",
                entityName: entity.name, key: attribute.name)
        }
        guard case .string(let pattern) = value else {
            throw ObjectGraphError(
                .typeMismatch,
                "\(operation) needs a string to compare \(entity.name).\(attribute.name) with, but the predicate gives \(value.phrase)",
                entityName: entity.name, key: attribute.name)
        }
        var regex: SendableRegex?
        if op == .matches {
            do {
                regex = SendableRegex(expression: try TextMatcher.regularExpression(pattern, options: options))
            } catch {
                throw ObjectGraphError(
                    .predicateSyntax, "MATCHES needs a regular expression, but \(value.phrase) is not a valid one",
                    entityName: entity.name, key: attribute.name)
            }
        }
        return .text(.attribute(attribute), op, options, pattern, regex)
    }

    private func attribute(_ keyPath: [String]) throws -> AttributeDescription {
        try fetchableAttribute(keyPath, of: entity, usage: "a fetch predicate")
    }

    // MARK: - Attribute against constant

    private func compare(_ attribute: AttributeDescription, _ comparison: ComparisonOperator, _ value: PredicateValue) throws -> BoundPredicate.Node {
        guard comparison.isOrdering else {
            let constant = try equalityValue(value, for: attribute)
            return .identity(.attribute(attribute), .value(constant), negated: comparison == .notEqual)
        }
        try requireOrder(attribute, comparison.symbol)
        let constant = try orderingValue(value, for: attribute, comparison.symbol)
        return .ordering(column(attribute, asNumber: attribute.type == .decimal), comparison, .value(constant))
    }

    /// The value `==`, `!=` and IN compare the column with, in the case the column is stored as.
    private func equalityValue(_ value: PredicateValue, for attribute: AttributeDescription) throws -> AttributeValue {
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
                throw mismatch(attribute, value, note: ", which a decimal cannot represent")
            }
            return .decimal(decimal)
        case (.string, .string(let string)): return .string(string)
        case (.boolean, .boolean(let boolean)): return .boolean(boolean)
        case (.date, .date(let date)): return .date(date)
        case (.binary, .data(let data)): return .binary(data)
        case (.uuid, .uuid(let uuid)): return .uuid(uuid)
        case (.uuid, .string(let string)):
            guard let uuid = UUID(uuidString: string) else { throw mismatch(attribute, value, note: ", which is not a UUID") }
            return .uuid(uuid)
        case (.uri, .url(let url)): return .uri(url)
        // Both are text in the store; comparing the bytes as written avoids URL re-encoding.
        case (.uri, .string(let string)): return .string(string)
        case (.json, _):
            throw mismatch(attribute, value, note: "; json attributes can only be compared with nil")
        default:
            throw mismatch(attribute, value)
        }
    }

    /// The value `<`, `<=`, `>`, `>=` and BETWEEN compare the column with. Decimal columns are
    /// compared as REAL (`castToReal`), so decimal constants are converted the same way.
    private func orderingValue(_ value: PredicateValue, for attribute: AttributeDescription, _ operation: String) throws -> AttributeValue {
        switch (attribute.type, value) {
        case (_, .null):
            throw ObjectGraphError(
                .typeMismatch,
                "\(entity.name).\(attribute.name) \(operation) nil is never true (an ordering comparison with nil is unknown); use == nil or != nil",
                entityName: entity.name, key: attribute.name)
        case (let type, .integer(let integer)) where type.isNumeric: return .integer(integer)
        case (let type, .double(let double)) where type.isNumeric: return .double(double)
        case (.decimal, .decimal(let decimal)): return castToReal(.decimal(decimal))
        case (.string, .string(let string)): return .string(string)
        case (.date, .date(let date)): return .date(date)
        default: throw mismatch(attribute, value)
        }
    }

    // MARK: - Attribute against attribute

    private func compare(_ lhs: AttributeDescription, _ comparison: ComparisonOperator, _ rhs: AttributeDescription) throws -> BoundPredicate.Node {
        guard let lhsFamily = Family(lhs.type), let rhsFamily = Family(rhs.type), lhsFamily == rhsFamily else {
            throw ObjectGraphError(
                .typeMismatch,
                "\(entity.name).\(lhs.name) (\(lhs.type.rawValue)) cannot be compared with \(entity.name).\(rhs.name) (\(rhs.type.rawValue))",
                entityName: entity.name, key: lhs.name)
        }
        if comparison.isOrdering {
            try requireOrder(lhs, comparison.symbol)
            try requireOrder(rhs, comparison.symbol)
        }
        // Two decimal columns are equal exactly when their canonical texts are; any other
        // comparison involving a decimal column is numeric, through CAST(… AS REAL).
        let numeric = (lhs.type == .decimal || rhs.type == .decimal) && (comparison.isOrdering || lhs.type != rhs.type)
        let left = column(lhs, asNumber: numeric && lhs.type == .decimal)
        let right = column(rhs, asNumber: numeric && rhs.type == .decimal)
        return comparison.isOrdering
            ? .ordering(left, comparison, right)
            : .identity(left, right, negated: comparison == .notEqual)
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

    private func column(_ attribute: AttributeDescription, asNumber: Bool) -> BoundPredicate.Operand {
        asNumber ? .attributeAsReal(attribute) : .attribute(attribute)
    }

    /// Ordering applies to numbers, dates and strings only.
    private func requireOrder(_ attribute: AttributeDescription, _ operation: String) throws {
        guard attribute.type.isNumeric || attribute.type == .date || attribute.type == .string else {
            throw ObjectGraphError(
                .typeMismatch,
                "\(entity.name).\(attribute.name) is \(attribute.type.rawValue), which has no order: '\(operation)' applies only to numbers, dates and strings",
                entityName: entity.name, key: attribute.name)
        }
    }

    private func mismatch(_ attribute: AttributeDescription, _ value: PredicateValue, note: String = "") -> ObjectGraphError {
        ObjectGraphError(
            .typeMismatch,
            "\(entity.name).\(attribute.name) is \(attribute.type.rawValue) but the predicate compares it with \(value.phrase)\(note)",
            entityName: entity.name, key: attribute.name)
    }
}
