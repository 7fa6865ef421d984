/// To-many relationships in predicates: ANY/ALL/NONE, collection operators and SUBQUERY.
extension PredicateBinder {
    /// `ANY books.year > 2000`: the comparison's key path starts with a to-many relationship of
    /// the entity; the rest of it is bound to the destination entity, for each member.
    func quantified(_ quantifier: Quantifier, _ comparison: PredicateNode) throws -> BoundPredicate.Node {
        guard let keyPath = Self.keyPath(of: comparison), !keyPath.isEmpty,
            let relationship = entity.relationship(named: keyPath[0]), relationship.isToMany
        else {
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
    func subquery(_ collectionPath: [String], _ variable: String, _ predicate: PredicateNode) throws -> Subject {
        let name = collectionPath.joined(separator: ".")
        guard collectionPath.count == 1, let relationship = entity.relationship(named: name), relationship.isToMany else {
            throw ObjectGraphError(
                .unknownKey, "\(entity.name): SUBQUERY goes through '\(name)', which is not a to-many relationship of \(entity.name)",
                entityName: entity.name, key: name)
        }
        let destination = model.entities[relationship.destinationIndex]
        let inner = try PredicateBinder(entity: destination, model: model).bind(try Self.rebase(predicate, on: "$" + variable))
        return Subject(
            target: .collection(.count(collection(relationship), where: inner), type: .integer64), path: nil, name: "SUBQUERY(\(name))")
    }

    /// The predicate with the leading `$variable` taken off its key paths (which must all start with it).
    static func rebase(_ node: PredicateNode, on variable: String) throws -> PredicateNode {
        func path(_ keyPath: [String]) throws -> [String] {
            guard keyPath.first == variable else {
                throw ObjectGraphError(
                    .unknownKey,
                    "inside a SUBQUERY, key paths start with its variable (\(variable).…), but '\(keyPath.joined(separator: "."))' does not",
                    key: keyPath.joined(separator: "."))
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

    /// Where the members of a to-many `relationship` are stored, for SQL: a relationship of the
    /// entity, or of `owner`, which the row reaches through the to-one `hops`.
    func collection(
        _ relationship: RelationshipDescription, of owner: EntityDescription? = nil, through hops: [BoundPredicate.KeyPath.Hop] = []
    ) -> BoundPredicate.Collection {
        let owner = owner ?? entity
        let storage: BoundPredicate.Collection.Storage
        switch RelationshipStorage(relationship, of: owner, in: model) {
        case .inverseForeignKey(let inverse, _):
            storage = .inverseForeignKey(column: inverse.name)
        case .joinTable(let table, let side):
            let columns = table.columns(for: side)
            storage = .joinTable(name: table.name, own: columns.own, other: columns.other)
        case .foreignKey:
            storage = .inverseForeignKey(column: relationship.name)  // unreachable: to-manys are never foreign keys
        }
        var collection = BoundPredicate.Collection(
            relationship: relationship, storage: storage,
            destinationTable: model.root(of: model.entities[relationship.destinationIndex]).name,
            sourceTable: model.root(of: owner).name)
        // The owner is the object the last hop refers to: its foreign key, read along the hops before it.
        if let last = hops.last {
            collection.owner = BoundPredicate.KeyPath(
                sourceTable: model.root(of: entity).name, hops: hops.dropLast(), target: .reference(last.relationship))
        }
        return collection
    }

    /// The key path on the left of a comparison, if it has one.
    static func keyPath(of node: PredicateNode) -> [String]? {
        switch node {
        case .comparison(.keyPath(let keyPath), _, _), .comparison(_, _, .keyPath(let keyPath)): keyPath
        case .between(let keyPath, _, _), .membership(let keyPath, _), .text(let keyPath, _, _, _): keyPath
        default: nil
        }
    }

    /// The comparison with the first component of its key path removed (`books.year` → `year`).
    static func dropFirstKey(of node: PredicateNode) -> PredicateNode {
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
}
