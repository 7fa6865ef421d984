import Foundation

extension FetchPredicate {
    /// The predicate checked against `entity` of `model`: every key must be a stored attribute,
    /// a to-one relationship, or a key path through to-one relationships to one of those, and
    /// every constant must suit what it is compared with. Throws `.unknownKey` or `.typeMismatch`.
    func bind(to entity: EntityDescription, in model: ManagedObjectModel) throws -> BoundPredicate {
        if let variable = substitutionVariables.first {
            throw ObjectGraphError(
                .invalidOperation,
                "the predicate still uses the variable $\(variable); give it a value with withSubstitutionVariables(_:) before fetching",
                entityName: entity.name)
        }
        return BoundPredicate(root: try PredicateBinder(entity: entity, model: model).bind(node))
    }
}

/// The attribute a sort descriptor names: a stored attribute of `entity`. Key paths through
/// relationships and transient attributes are refused with `.unknownKey`.
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
    return try storedAttribute(key, of: entity, usage: usage)
}

/// The stored attribute `key` of `entity`, or `.unknownKey` (with a suggestion, or saying it is transient).
private func storedAttribute(_ key: String, of entity: EntityDescription, usage: String) throws -> AttributeDescription {
    let attribute = try entity.requireAttribute(key)
    guard !attribute.isTransient else {
        throw ObjectGraphError(
            .unknownKey,
            "\(entity.name).\(key) is transient: transient attributes are not stored, so \(usage) cannot use them",
            entityName: entity.name, key: key)
    }
    return attribute
}

/// The operand a sort key reads: a stored attribute of `entity`, or one reached through to-one
/// relationships, and that attribute.
func sortOperand(_ keyPath: [String], of entity: EntityDescription, in model: ManagedObjectModel) throws -> (BoundPredicate.Operand, AttributeDescription) {
    let subject = try PredicateBinder(entity: entity, model: model).subject(keyPath, usage: "a sort descriptor")
    guard case .attribute(let attribute) = subject.target else {
        throw ObjectGraphError(
            .unknownKey, "\(subject.name) is not an attribute: a sort descriptor sorts by an attribute, possibly through to-one relationships",
            entityName: entity.name, key: keyPath.joined(separator: "."))
    }
    return (subject.operand(asNumber: attribute.type == .decimal), attribute)
}

/// What a key of a predicate names: an attribute (of the fetched entity, or at the end of a key
/// path through to-one relationships), or a to-one relationship.
struct Subject {
    enum Target {
        case attribute(AttributeDescription)
        case reference(RelationshipDescription)
        /// A collection operator's result (`books.@count`), compared like an attribute of `type`.
        case collection(BoundPredicate.Operand, type: AttributeType)
    }
    let target: Target
    /// The to-one hops before the target; empty for a key of the fetched entity itself.
    let path: BoundPredicate.KeyPath?
    /// `Entity.key.path`, for messages.
    let name: String

    var attribute: AttributeDescription? {
        switch target {
        case .attribute(let attribute): return attribute
        // Checked and converted like an attribute of the result's type.
        case .collection(_, let type): return AttributeDescription(name: name, type: type, isOptional: true, index: -1)
        case .reference: return nil
        }
    }

    /// The operand reading the subject; a decimal read `asNumber` is cast to REAL.
    func operand(asNumber: Bool = false) -> BoundPredicate.Operand {
        switch (target, path) {
        case (.attribute(let attribute), nil): return asNumber ? .attributeAsReal(attribute) : .attribute(attribute)
        case (.reference(let relationship), nil): return .reference(relationship)
        case (.attribute(let attribute), var path?):
            path.target = .attribute(attribute)
            return .path(path, asNumber: asNumber)
        case (.reference(let relationship), var path?):
            path.target = .reference(relationship)
            return .path(path, asNumber: false)
        case (.collection(let operand, _), _):
            return operand
        }
    }
}

/// Resolves keys and converts constants to the values their columns are stored as, choosing for
/// each comparison the form that SQL and the in-memory evaluator both implement the same way.
struct PredicateBinder {
    let entity: EntityDescription
    let model: ManagedObjectModel

    func bind(_ node: PredicateNode) throws -> BoundPredicate.Node {
        switch node {
        case .comparison(.subqueryCount(let collection, let variable, let predicate), let comparison, .value(let value)):
            return try compare(try subquery(collection, variable, predicate), comparison, value)
        case .comparison(.value(let value), let comparison, .subqueryCount(let collection, let variable, let predicate)):
            return try compare(try subquery(collection, variable, predicate), comparison.mirrored, value)
        case .comparison(.subqueryCount, _, _), .comparison(_, _, .subqueryCount):
            throw ObjectGraphError(.typeMismatch, "a SUBQUERY(…).@count can only be compared with a number", entityName: entity.name)
        case .constant(let value):
            return .constant(value)
        case .and(let nodes):
            return .and(try nodes.map(bind))
        case .or(let nodes):
            return .or(try nodes.map(bind))
        case .not(let node):
            return .not(try bind(node))
        case .comparison(.keyPath(let lhs), let comparison, .keyPath(let rhs)):
            let left = try subject(lhs), right = try subject(rhs)
            guard let leftAttribute = left.attribute, let rightAttribute = right.attribute else {
                return try compareReferences(left, comparison, right)
            }
            return try compare(left, leftAttribute, comparison, right, rightAttribute)
        case .comparison(.keyPath(let keyPath), let comparison, .value(let value)):
            return try compare(try subject(keyPath), comparison, value)
        case .comparison(.value(let value), let comparison, .keyPath(let keyPath)):
            return try compare(try subject(keyPath), comparison.mirrored, value)
        case .comparison(.value(let lhs), let comparison, .value(let rhs)):
            throw ObjectGraphError(
                .typeMismatch,
                "the predicate compares two values (\(PredicateFormatter.render(lhs)) \(comparison.symbol) \(PredicateFormatter.render(rhs))); one side must be a key",
                entityName: entity.name)
        case .between(let keyPath, let lower, let upper):
            let subject = try subject(keyPath)
            let attribute = try requireAttribute(subject, "BETWEEN")
            try requireOrder(subject, attribute, "BETWEEN")
            return .between(
                subject.operand(asNumber: attribute.type == .decimal),
                lower: .value(try orderingValue(lower, for: subject, attribute, "BETWEEN")),
                upper: .value(try orderingValue(upper, for: subject, attribute, "BETWEEN")))
        case .membership(let keyPath, let values):
            let subject = try subject(keyPath)
            return .membership(subject.operand(), try values.map { try equalityValue($0, for: subject) })
        case .text(let keyPath, let op, let options, let value):
            return try text(try subject(keyPath), op, options, value)
        case .quantified(let quantifier, let comparison):
            return try quantified(quantifier, comparison)
        case .invalid(let message):
            throw ObjectGraphError(.typeMismatch, message, entityName: entity.name)
        }
    }

    // MARK: - To-many relationships

    /// `ANY books.year > 2000`: the comparison's key path starts with a to-many relationship of
    /// the entity; the rest of it is bound to the destination entity, for each member.
    private func quantified(_ quantifier: Quantifier, _ comparison: PredicateNode) throws -> BoundPredicate.Node {
        guard let keyPath = Self.keyPath(of: comparison), keyPath.count > 1,
              let relationship = entity.relationship(named: keyPath[0]), relationship.isToMany else {
            throw ObjectGraphError(
                .typeMismatch,
                "\(entity.name): \(quantifier.rawValue) needs a comparison whose key path starts with a to-many relationship (ANY books.title == 'x'), but got \(PredicateFormatter.render(comparison))",
                entityName: entity.name)
        }
        let destination = model.entities[relationship.destinationIndex]
        let inner = try PredicateBinder(entity: destination, model: model).bind(Self.dropFirstKey(of: comparison))
        return .quantified(quantifier, collection(relationship), inner)
    }

    /// `SUBQUERY(collection, $variable, predicate).@count`, as the count of the members of a
    /// to-many relationship of the entity that match `predicate` (its key paths start at `$variable`).
    private func subquery(_ collectionPath: [String], _ variable: String, _ predicate: PredicateNode) throws -> Subject {
        let name = collectionPath.joined(separator: ".")
        guard collectionPath.count == 1, let relationship = entity.relationship(named: name), relationship.isToMany else {
            throw ObjectGraphError(
                .unknownKey, "\(entity.name): SUBQUERY goes through '\(name)', which is not a to-many relationship of \(entity.name)",
                entityName: entity.name, key: name)
        }
        let destination = model.entities[relationship.destinationIndex]
        let inner = try PredicateBinder(entity: destination, model: model).bind(try Self.rebase(predicate, on: "$" + variable))
        return Subject(target: .collection(.count(collection(relationship), where: inner), type: .integer64), path: nil, name: "SUBQUERY(\(name))")
    }

    /// The predicate with the leading `$variable` taken off its key paths (which must all start with it).
    private static func rebase(_ node: PredicateNode, on variable: String) throws -> PredicateNode {
        func path(_ keyPath: [String]) throws -> [String] {
            guard keyPath.count > 1, keyPath[0] == variable else {
                throw ObjectGraphError(.unknownKey, "inside a SUBQUERY, key paths start with its variable (\(variable).…), but '\(keyPath.joined(separator: "."))' does not", key: keyPath.joined(separator: "."))
            }
            return Array(keyPath.dropFirst())
        }
        func operand(_ operand: PredicateOperand) throws -> PredicateOperand {
            if case .keyPath(let keyPath) = operand { return .keyPath(try path(keyPath)) }
            return operand
        }
        switch node {
        case .constant, .invalid: return node
        case .comparison(let lhs, let comparison, let rhs): return .comparison(try operand(lhs), comparison, try operand(rhs))
        case .between(let keyPath, let lower, let upper): return .between(try path(keyPath), lower: lower, upper: upper)
        case .membership(let keyPath, let values): return .membership(try path(keyPath), values)
        case .text(let keyPath, let op, let options, let value): return .text(try path(keyPath), op, options, value)
        case .quantified(let quantifier, let inner): return .quantified(quantifier, try rebase(inner, on: variable))
        case .and(let nodes): return .and(try nodes.map { try rebase($0, on: variable) })
        case .or(let nodes): return .or(try nodes.map { try rebase($0, on: variable) })
        case .not(let inner): return .not(try rebase(inner, on: variable))
        }
    }

    /// Where the members of the entity's to-many `relationship` are stored, for SQL.
    private func collection(_ relationship: RelationshipDescription) -> BoundPredicate.Collection {
        let storage: BoundPredicate.Collection.Storage
        switch RelationshipStorage(relationship, of: entity, in: model) {
        case .inverseForeignKey(let inverse, _):
            storage = .inverseForeignKey(column: inverse.name)
        case .joinTable(let table, let side):
            let columns = table.columns(for: side)
            storage = .joinTable(name: table.name, own: columns.own, other: columns.other)
        case .foreignKey:
            storage = .inverseForeignKey(column: relationship.name) // unreachable: to-manys are never foreign keys
        }
        return BoundPredicate.Collection(
            relationship: relationship, storage: storage,
            destinationTable: model.root(of: model.entities[relationship.destinationIndex]).name,
            sourceTable: model.root(of: entity).name)
    }

    /// The key path on the left of a comparison, if it has one.
    private static func keyPath(of node: PredicateNode) -> [String]? {
        switch node {
        case .comparison(.keyPath(let keyPath), _, _), .comparison(_, _, .keyPath(let keyPath)): keyPath
        case .between(let keyPath, _, _), .membership(let keyPath, _), .text(let keyPath, _, _, _): keyPath
        default: nil
        }
    }

    /// The comparison with the first component of its key path removed (`books.year` → `year`).
    private static func dropFirstKey(of node: PredicateNode) -> PredicateNode {
        func drop(_ keyPath: [String]) -> [String] { Array(keyPath.dropFirst()) }
        switch node {
        case .comparison(.keyPath(let keyPath), let comparison, let rhs): return .comparison(.keyPath(drop(keyPath)), comparison, rhs)
        case .comparison(let lhs, let comparison, .keyPath(let keyPath)): return .comparison(lhs, comparison, .keyPath(drop(keyPath)))
        case .between(let keyPath, let lower, let upper): return .between(drop(keyPath), lower: lower, upper: upper)
        case .membership(let keyPath, let values): return .membership(drop(keyPath), values)
        case .text(let keyPath, let op, let options, let value): return .text(drop(keyPath), op, options, value)
        default: return node
        }
    }

    // MARK: - Keys

    /// The subject `keyPath` names: a stored attribute or to-one relationship of the entity, or
    /// one reached through to-one relationships (`author.publisher.name`).
    func subject(_ keyPath: [String], usage: String = "a fetch predicate") throws -> Subject {
        var current = entity
        var hops: [BoundPredicate.KeyPath.Hop] = []
        for (position, key) in keyPath.enumerated() {
            let isLast = position == keyPath.count - 1
            guard let relationship = current.relationship(named: key) else {
                guard isLast else {
                    throw ObjectGraphError(
                        .unknownKey,
                        "\(entity.name): the key path '\(keyPath.joined(separator: "."))' goes through \(current.name).\(key), which is not a relationship",
                        entityName: entity.name, key: keyPath.joined(separator: "."))
                }
                let attribute = try storedAttribute(key, of: current, usage: usage)
                return Subject(target: .attribute(attribute), path: path(hops), name: "\(current.name).\(key)")
            }
            guard relationship.isToOne else {
                return try collectionSubject(relationship, of: current, hops: hops, rest: Array(keyPath[(position + 1)...]), keyPath: keyPath)
            }
            if isLast { return Subject(target: .reference(relationship), path: path(hops), name: "\(current.name).\(key)") }
            let destination = model.entities[relationship.destinationIndex]
            hops.append(BoundPredicate.KeyPath.Hop(relationship: relationship, destinationTable: model.root(of: destination).name))
            current = destination
        }
        throw ObjectGraphError(.unknownKey, "\(entity.name): a fetch predicate uses an empty key path", entityName: entity.name)
    }

    /// `books.@count` or `books.@sum.pages` on a to-many of the entity itself (a to-many reached
    /// through to-ones, or one without a collection operator, is refused).
    private func collectionSubject(
        _ relationship: RelationshipDescription, of owner: EntityDescription, hops: [BoundPredicate.KeyPath.Hop], rest: [String], keyPath: [String]
    ) throws -> Subject {
        let name = keyPath.joined(separator: ".")
        guard hops.isEmpty, let first = rest.first, let function = CollectionOperator(rawValue: first) else {
            throw ObjectGraphError(
                .unknownKey,
                "\(owner.name).\(relationship.name) is a to-many relationship: compare its objects with ANY, ALL or NONE (ANY \(name) …), or use \(relationship.name).@count, @sum, @avg, @min or @max",
                entityName: entity.name, key: name)
        }
        let destination = model.entities[relationship.destinationIndex]
        if function == .count {
            guard rest.count == 1 else {
                throw ObjectGraphError(.unknownKey, "\(entity.name): '\(name)': nothing may follow @count", entityName: entity.name, key: name)
            }
            return Subject(target: .collection(.count(collection(relationship), where: nil), type: .integer64), path: nil, name: "\(entity.name).\(name)")
        }
        guard rest.count == 2 else {
            throw ObjectGraphError(.unknownKey, "\(entity.name): '\(name)': \(function.rawValue) needs one attribute of \(destination.name) after it", entityName: entity.name, key: name)
        }
        let attribute = try storedAttribute(rest[1], of: destination, usage: "a fetch predicate")
        guard function.aggregates(attribute.type) else {
            throw ObjectGraphError(
                .typeMismatch, "\(entity.name): \(function.rawValue) cannot aggregate \(destination.name).\(attribute.name), a \(attribute.type.rawValue) attribute",
                entityName: entity.name, key: name)
        }
        return Subject(
            target: .collection(.aggregate(function, collection(relationship), attribute), type: function.resultType(over: attribute.type)),
            path: nil, name: "\(entity.name).\(name)")
    }

    private func path(_ hops: [BoundPredicate.KeyPath.Hop]) -> BoundPredicate.KeyPath? {
        hops.isEmpty ? nil : BoundPredicate.KeyPath(sourceTable: model.root(of: entity).name, hops: hops)
    }

    /// The subject's attribute, or a `.typeMismatch` for a relationship used where `operation` needs one.
    private func requireAttribute(_ subject: Subject, _ operation: String) throws -> AttributeDescription {
        if let attribute = subject.attribute { return attribute }
        throw referenceMisuse(subject, operation)
    }

    private func referenceMisuse(_ subject: Subject, _ operation: String) -> ObjectGraphError {
        ObjectGraphError(
            .typeMismatch,
            "\(subject.name) is a to-one relationship; it can only be compared with == or != (or IN) to an object, an object ID or nil, not with \(operation)",
            entityName: entity.name, key: subject.name)
    }

    // MARK: - Relationships

    private func compare(_ subject: Subject, _ comparison: ComparisonOperator, _ value: PredicateValue) throws -> BoundPredicate.Node {
        guard let attribute = subject.attribute else {
            if comparison.isOrdering { throw referenceMisuse(subject, comparison.symbol) }
            return .identity(subject.operand(), .value(try equalityValue(value, for: subject)), negated: comparison == .notEqual)
        }
        return try compare(subject, attribute, comparison, value)
    }

    private func compareReferences(_ lhs: Subject, _ comparison: ComparisonOperator, _ rhs: Subject) throws -> BoundPredicate.Node {
        guard case .reference(let left) = lhs.target, case .reference(let right) = rhs.target, !comparison.isOrdering,
              model.root(of: model.entities[left.destinationIndex]) === model.root(of: model.entities[right.destinationIndex])
        else {
            throw ObjectGraphError(
                .typeMismatch, "\(lhs.name) cannot be compared with \(rhs.name) using '\(comparison.symbol)'",
                entityName: entity.name, key: lhs.name)
        }
        return .identity(lhs.operand(), rhs.operand(), negated: comparison == .notEqual)
    }

    /// The value a to-one relationship is compared with: nil, or an object of its destination.
    private func referenceValue(_ value: PredicateValue, for relationship: RelationshipDescription, _ subject: Subject) throws -> AttributeValue {
        let destination = model.entities[relationship.destinationIndex]
        switch value {
        case .null: return .null
        case .object(let objectID) where model.entity(objectID.entity, isKindOf: destination):
            return .object(objectID)
        case .object(let objectID):
            throw ObjectGraphError(
                .typeMismatch, "\(subject.name) holds \(destination.name) objects, but the predicate compares it with \(objectID.shortDescription), a \(objectID.entity.name)",
                entityName: entity.name, key: subject.name)
        default:
            throw ObjectGraphError(
                .typeMismatch, "\(subject.name) is a to-one relationship to \(destination.name); compare it with an object, an object ID or nil, not \(value.phrase)",
                entityName: entity.name, key: subject.name)
        }
    }

    // MARK: - String operators

    private func text(_ subject: Subject, _ op: TextOperator, _ options: TextOptions, _ value: PredicateValue) throws -> BoundPredicate.Node {
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
        return .text(subject.operand(), op, options, pattern, regex)
    }

    // MARK: - Attribute against constant

    private func compare(_ subject: Subject, _ attribute: AttributeDescription, _ comparison: ComparisonOperator, _ value: PredicateValue) throws -> BoundPredicate.Node {
        guard comparison.isOrdering else {
            let constant = try equalityValue(value, for: subject)
            return .identity(subject.operand(), .value(constant), negated: comparison == .notEqual)
        }
        try requireOrder(subject, attribute, comparison.symbol)
        let constant = try orderingValue(value, for: subject, attribute, comparison.symbol)
        return .ordering(subject.operand(asNumber: attribute.type == .decimal), comparison, .value(constant))
    }

    /// The value `==`, `!=` and IN compare the subject with, in the case it is stored as.
    private func equalityValue(_ value: PredicateValue, for subject: Subject) throws -> AttributeValue {
        switch subject.target {
        case .reference(let relationship): return try referenceValue(value, for: relationship, subject)
        case .attribute(let attribute): return try equalityValue(value, for: subject, attribute)
        case .collection(_, let type):
            return try equalityValue(value, for: subject, AttributeDescription(name: subject.name, type: type, isOptional: true, index: -1))
        }
    }

    private func equalityValue(_ value: PredicateValue, for subject: Subject, _ attribute: AttributeDescription) throws -> AttributeValue {
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
    private func orderingValue(_ value: PredicateValue, for subject: Subject, _ attribute: AttributeDescription, _ operation: String) throws -> AttributeValue {
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

    private func compare(
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
        // comparison involving a decimal column is numeric, through CAST(… AS REAL).
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
    private func requireOrder(_ subject: Subject, _ attribute: AttributeDescription, _ operation: String) throws {
        guard attribute.type.isNumeric || attribute.type == .date || attribute.type == .string else {
            throw ObjectGraphError(
                .typeMismatch,
                "\(subject.name) is \(attribute.type.rawValue), which has no order: '\(operation)' applies only to numbers, dates and strings",
                entityName: entity.name, key: attribute.name)
        }
    }

    private func mismatch(_ subject: Subject, _ attribute: AttributeDescription, _ value: PredicateValue, note: String = "") -> ObjectGraphError {
        ObjectGraphError(
            .typeMismatch,
            "\(subject.name) is \(attribute.type.rawValue) but the predicate compares it with \(value.phrase)\(note)",
            entityName: entity.name, key: attribute.name)
    }
}
