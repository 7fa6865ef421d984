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
        return try BoundPredicate(normalizing: try PredicateBinder(entity: entity, model: model).bind(node), entity: entity)
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
func storedAttribute(_ key: String, of entity: EntityDescription, usage: String) throws -> AttributeDescription {
    let attribute = try entity.requireAttribute(key)
    guard !attribute.isTransient else {
        throw ObjectGraphError(
            .unknownKey,
            "\(entity.name).\(key) is transient: transient attributes are not stored, so \(usage) cannot use them",
            entityName: entity.name, key: key)
    }
    return attribute
}

/// The operand a sort key (or a property of a values fetch) reads: a stored attribute of
/// `entity`, or one reached through to-one relationships, and that attribute. `usage` names the
/// caller in messages and `rule` says what it takes, so an error names what the user wrote.
func sortOperand(
    _ keyPath: [String], of entity: EntityDescription, in model: ManagedObjectModel,
    usage: String = "a sort descriptor", rule: String = "a sort descriptor sorts by an attribute"
) throws -> (BoundPredicate.Operand, AttributeDescription) {
    let subject = try PredicateBinder(entity: entity, model: model).subject(keyPath, usage: usage)
    guard case .attribute(let attribute) = subject.target else {
        throw ObjectGraphError(
            .unknownKey, "\(subject.name) is not an attribute: \(rule), possibly through to-one relationships",
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
        /// `SELF`: the evaluated object itself, compared like a to-one relationship to its entity.
        case object
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
        case .reference, .object: return nil
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
        case (.object, _):
            return .ownObject
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

    // MARK: - Keys

    /// How messages name a fetch predicate among the users of key paths.
    static let predicateUsage = "a fetch predicate"

    /// The subject `keyPath` names: a stored attribute or to-one relationship of the entity, or
    /// one reached through to-one relationships (`author.publisher.name`).
    func subject(_ keyPath: [String], usage: String = PredicateBinder.predicateUsage) throws -> Subject {
        if keyPath.isEmpty { return Subject(target: .object, path: nil, name: PredicateKeywords.selfKeyword) }
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
                // Quantifiers and collection operators are predicate syntax: elsewhere a to-many is
                // simply not something the caller can use.
                guard usage == Self.predicateUsage else {
                    throw ObjectGraphError(
                        .unknownKey, "\(current.name).\(key) is a to-many relationship, which \(usage) cannot use",
                        entityName: entity.name, key: keyPath.joined(separator: "."))
                }
                return try collectionSubject(
                    relationship, of: current, hops: hops, rest: Array(keyPath[(position + 1)...]), keyPath: keyPath)
            }
            if isLast { return Subject(target: .reference(relationship), path: path(hops), name: "\(current.name).\(key)") }
            let destination = model.entities[relationship.destinationIndex]
            hops.append(BoundPredicate.KeyPath.Hop(relationship: relationship, destinationTable: model.root(of: destination).name))
            current = destination
        }
        preconditionFailure("a non-empty key path ends in the loop")
    }

    /// `books.@count` or `books.@sum.pages` on a to-many of the entity itself, or of an object it
    /// reaches through to-one relationships (`author.books.@count`); a to-many without a
    /// collection operator is refused.
    func collectionSubject(
        _ relationship: RelationshipDescription, of owner: EntityDescription, hops: [BoundPredicate.KeyPath.Hop], rest: [String],
        keyPath: [String]
    ) throws -> Subject {
        let name = keyPath.joined(separator: ".")
        guard let first = rest.first, let function = CollectionOperator(rawValue: first) else {
            throw ObjectGraphError(
                .unknownKey,
                "\(owner.name).\(relationship.name) is a to-many relationship: compare its objects with ANY, ALL or NONE (ANY \(name) …), or use \(relationship.name).@count, @sum, @avg, @min or @max",
                entityName: entity.name, key: name)
        }
        let destination = model.entities[relationship.destinationIndex]
        let members = collection(relationship, of: owner, through: hops)
        if function == .count {
            guard rest.count == 1 else {
                throw ObjectGraphError(
                    .unknownKey, "\(entity.name): '\(name)': nothing may follow @count", entityName: entity.name, key: name)
            }
            return Subject(target: .collection(.count(members, where: nil), type: .integer64), path: nil, name: "\(entity.name).\(name)")
        }
        guard rest.count == 2 else {
            throw ObjectGraphError(
                .unknownKey, "\(entity.name): '\(name)': \(function.rawValue) needs one attribute of \(destination.name) after it",
                entityName: entity.name, key: name)
        }
        let attribute = try storedAttribute(rest[1], of: destination, usage: "a fetch predicate")
        guard function.aggregates(attribute.type) else {
            throw ObjectGraphError(
                .typeMismatch,
                "\(entity.name): \(function.rawValue) cannot aggregate \(destination.name).\(attribute.name), a \(attribute.type.rawValue) attribute",
                entityName: entity.name, key: name)
        }
        return Subject(
            target: .collection(.aggregate(function, members, attribute), type: function.resultType(over: attribute.type)),
            path: nil, name: "\(entity.name).\(name)")
    }

    func path(_ hops: [BoundPredicate.KeyPath.Hop]) -> BoundPredicate.KeyPath? {
        hops.isEmpty ? nil : BoundPredicate.KeyPath(sourceTable: model.root(of: entity).name, hops: hops)
    }

    /// The subject's attribute, or a `.typeMismatch` for a relationship used where `operation` needs one.
    func requireAttribute(_ subject: Subject, _ operation: String) throws -> AttributeDescription {
        if let attribute = subject.attribute { return attribute }
        throw referenceMisuse(subject, operation)
    }

    func referenceMisuse(_ subject: Subject, _ operation: String) -> ObjectGraphError {
        let kind = if case .object = subject.target { "the \(entity.name) itself" } else { "a to-one relationship" }
        return ObjectGraphError(
            .typeMismatch,
            "\(subject.name) is \(kind); it can only be compared with == or != (or IN) to an object, an object ID or nil, not with \(operation)",
            entityName: entity.name, key: subject.name)
    }

    // MARK: - Relationships

    func compare(_ subject: Subject, _ comparison: ComparisonOperator, _ value: PredicateValue) throws -> BoundPredicate.Node {
        guard let attribute = subject.attribute else {
            if comparison.isOrdering { throw referenceMisuse(subject, comparison.symbol) }
            return .identity(subject.operand(), .value(try equalityValue(value, for: subject)), negated: comparison == .notEqual)
        }
        return try compare(subject, attribute, comparison, value)
    }

    func compareReferences(_ lhs: Subject, _ comparison: ComparisonOperator, _ rhs: Subject) throws -> BoundPredicate.Node {
        guard let left = referencedEntity(lhs), let right = referencedEntity(rhs), !comparison.isOrdering,
            model.root(of: left) === model.root(of: right)
        else {
            throw ObjectGraphError(
                .typeMismatch, "\(lhs.name) cannot be compared with \(rhs.name) using '\(comparison.symbol)'",
                entityName: entity.name, key: lhs.name)
        }
        return .identity(lhs.operand(), rhs.operand(), negated: comparison == .notEqual)
    }

    /// The entity whose objects `subject` holds: a to-one's destination, or the entity itself for
    /// `SELF`; `nil` for attributes.
    func referencedEntity(_ subject: Subject) -> EntityDescription? {
        switch subject.target {
        case .reference(let relationship): model.entities[relationship.destinationIndex]
        case .object: entity
        case .attribute, .collection: nil
        }
    }

    /// The value a to-one relationship (or `SELF`) is compared with: nil, or an object of
    /// `destination`.
    func referenceValue(_ value: PredicateValue, to destination: EntityDescription, _ subject: Subject) throws -> AttributeValue {
        let isSelf = if case .object = subject.target { true } else { false }
        switch value {
        case .null: return .null
        case .object(let objectID) where model.entity(objectID.entity, isKindOf: destination):
            return .object(objectID)
        case .object(let objectID):
            let holds = isSelf ? "is a \(destination.name)" : "holds \(destination.name) objects"
            throw ObjectGraphError(
                .typeMismatch,
                "\(subject.name) \(holds), but the predicate compares it with \(objectID.shortDescription), a \(objectID.entity.name)",
                entityName: entity.name, key: subject.name)
        default:
            let kind = isSelf ? "the \(destination.name) itself" : "a to-one relationship to \(destination.name)"
            throw ObjectGraphError(
                .typeMismatch, "\(subject.name) is \(kind); compare it with an object, an object ID or nil, not \(value.phrase)",
                entityName: entity.name, key: subject.name)
        }
    }
}
