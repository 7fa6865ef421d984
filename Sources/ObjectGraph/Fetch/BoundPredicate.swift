/// A predicate checked against one entity: keys resolved to attributes and constants converted to
/// the values their columns are stored as. It renders itself as SQL (`sqlFragment()`) and
/// evaluates itself on value rows (`evaluate(_:)`); the two are designed together and agree on
/// every row.
///
/// Truth is three-valued, as in SQL: `IS` / `IS NOT` (from `==` / `!=`) are always true or false,
/// while ordering comparisons, BETWEEN and IN are unknown when an operand is NULL; AND, OR and NOT
/// follow Kleene logic; a row matches only when the whole predicate is true.
package struct BoundPredicate: Sendable {
    let root: Node

    package indirect enum Node: Sendable {
        case constant(Bool)
        /// `lhs IS rhs`, or `lhs IS NOT rhs` when negated.
        case identity(Operand, Operand, negated: Bool)
        /// `lhs op rhs` for `<`, `<=`, `>`, `>=`.
        case ordering(Operand, ComparisonOperator, Operand)
        /// `operand BETWEEN lower AND upper`.
        case between(Operand, lower: Operand, upper: Operand)
        /// `operand IN (values…)`; an empty list is false.
        case membership(Operand, [AttributeValue])
        /// A string operator (see `TextMatcher`); unknown when the operand is NULL. `regex` is the
        /// compiled pattern of MATCHES.
        case text(Operand, TextOperator, TextOptions, String, PreparedPattern)
        /// ANY, ALL or NONE of the collection's objects match `Node` (bound to its destination).
        case quantified(Quantifier, Collection, Node)
        case and([Node])
        case or([Node])
        case not(Node)
    }

    package enum Operand: Sendable {
        /// The attribute's column, as stored.
        case attribute(AttributeDescription)
        /// A decimal attribute's column as a number (see `castToReal`).
        case attributeAsReal(AttributeDescription)
        /// A to-one relationship's foreign key.
        case reference(RelationshipDescription)
        /// `SELF`: the row's own object (its primary key in SQL).
        case ownObject
        /// The value at the end of a key path through to-one relationships (nil when a hop is
        /// nil); decimals cast to REAL when `asNumber`.
        case path(KeyPath, asNumber: Bool)
        /// A constant, bound as a parameter.
        case value(AttributeValue)
        /// `books.@count`: how many objects a to-many relationship holds; with a predicate
        /// (bound to the destination), how many of them match it (a SUBQUERY).
        indirect case count(Collection, where: Node?)
        /// `books.@sum.pages` (and @avg, @min, @max) over a to-many relationship's objects.
        indirect case aggregate(CollectionOperator, Collection, AttributeDescription)
    }

    /// A to-many relationship of the bound entity, with where its members are stored.
    package struct Collection: Sendable {
        enum Storage: Sendable {
            /// The destinations' rows carry the foreign key `column` (the inverse to-one).
            case inverseForeignKey(column: String)
            /// Pairs in a join table: this side's keys in `own`, the destinations' in `other`.
            case joinTable(name: String, own: String, other: String)
        }
        let relationship: RelationshipDescription
        let storage: Storage
        /// The table of the destination's hierarchy.
        let destinationTable: String
        /// The table of the bound entity's hierarchy.
        let sourceTable: String
        /// The object whose relationship this is, when it is not the row itself but one reached
        /// through to-one relationships (`author.books.@count` on a book): the key path from the
        /// row to the last of them, whose target is that to-one. `nil` for the row itself.
        var owner: KeyPath? = nil

        /// The owner as an operand for the in-memory evaluator: the row's to-one, or the to-one
        /// at the end of the path.
        var ownerOperand: Operand? {
            guard let owner else { return nil }
            if owner.hops.isEmpty, case .reference(let relationship) = owner.target { return .reference(relationship) }
            return .path(owner, asNumber: false)
        }
    }

    /// A key path through to-one relationships: the hops, from the fetched entity's table; what
    /// is read at the end is the operand's attribute or relationship (the last hop's target).
    package struct KeyPath: Sendable {
        struct Hop: Sendable {
            /// A to-one relationship of the previous hop's destination (or the fetched entity).
            let relationship: RelationshipDescription
            /// The table holding the destination's rows (its hierarchy root's).
            let destinationTable: String
        }
        /// The table of the fetched entity (its hierarchy root's).
        let sourceTable: String
        let hops: [Hop]
        /// What the path reads at its end (set by the binder).
        var target: Target = .none

        enum Target: Sendable {
            case none
            case attribute(AttributeDescription)
            case reference(RelationshipDescription)
        }
    }

    /// The destination entities (by index) of every relationship a key path of the predicate goes
    /// through or compares.
    var reachedEntityIndexes: Set<Int> {
        var indexes: Set<Int> = []
        func visit(_ operand: Operand) {
            switch operand {
            case .path(let path, _):
                for hop in path.hops { indexes.insert(hop.relationship.destinationIndex) }
            case .count(let collection, _), .aggregate(_, let collection, _):
                indexes.insert(collection.relationship.destinationIndex)
                if let owner = collection.ownerOperand { visit(owner) }
            default: break
            }
        }
        func visit(_ node: Node) {
            switch node {
            case .constant: break
            case .identity(let lhs, let rhs, _), .ordering(let lhs, _, let rhs):
                visit(lhs)
                visit(rhs)
            case .between(let operand, let lower, let upper):
                visit(operand)
                visit(lower)
                visit(upper)
            case .membership(let operand, _), .text(let operand, _, _, _, _): visit(operand)
            case .quantified(_, let collection, let inner):
                indexes.insert(collection.relationship.destinationIndex)
                visit(inner)
            case .and(let nodes), .or(let nodes): nodes.forEach(visit)
            case .not(let node): visit(node)
            }
        }
        visit(root)
        return indexes
    }

    /// What evaluating relationships needs from outside the row: other objects' rows by ID
    /// (`nil` when unavailable, read as nil), and the members of an object's to-many relationship.
    struct RowResolver {
        let row: (ManagedObjectID) -> ValueRow?
        let members: (ManagedObjectID, RelationshipDescription) -> [ManagedObjectID]
    }

    /// Whether the row of an object of `entity` (the bound entity or one of its sub-entities)
    /// matches. Relationships are read through `resolve`, with `objectID` naming the row's object.
    func evaluate(
        _ values: ValueRow, entity: EntityDescription? = nil, objectID: ManagedObjectID? = nil, resolve: RowResolver? = nil
    ) -> Bool {
        Self.truth(of: root, in: Row(values: values, entity: entity, objectID: objectID, resolve: resolve)) == true
    }

    /// A row being evaluated, with what reading relationships needs.
    private struct Row {
        let values: ValueRow
        let entity: EntityDescription?
        let objectID: ManagedObjectID?
        let resolve: RowResolver?

        /// The rows of the objects in `collection`, with their IDs (empty when unknown).
        func members(of collection: Collection) -> [Row] {
            guard let resolve else { return [] }
            let owner: ManagedObjectID, ownerEntity: EntityDescription
            if let reference = collection.ownerOperand {
                guard case .object(let id) = BoundPredicate.value(of: reference, in: self) else { return [] }
                (owner, ownerEntity) = (id, id.entity)
            } else {
                guard let objectID else { return [] }
                (owner, ownerEntity) = (objectID, entity ?? objectID.entity)
            }
            let relationship = ownerEntity.relationships[collection.relationship.index]
            return resolve.members(owner, relationship).compactMap { member in
                resolve.row(member).map { Row(values: $0, entity: member.entity, objectID: member, resolve: resolve) }
            }
        }

        /// The slot of `relationship` in this row: a sub-entity's row keeps its to-ones after its
        /// own (possibly more) attributes.
        func slot(of relationship: RelationshipDescription) -> Int {
            entity.map { $0.relationships[relationship.index].slot } ?? relationship.slot
        }
    }

    /// The node's truth on the row: `nil` is SQL's UNKNOWN.
    private static func truth(of node: Node, in row: Row) -> Bool? {
        switch node {
        case .constant(let value):
            return value
        case .identity(let lhs, let rhs, let negated):
            return (compareStored(value(of: lhs, in: row), value(of: rhs, in: row)) == 0) != negated
        case .ordering(let lhs, let comparison, let rhs):
            return order(value(of: lhs, in: row), comparison, value(of: rhs, in: row))
        case .between(let operand, let lower, let upper):
            let value = value(of: operand, in: row)
            return kleeneAnd(
                order(value, .greaterOrEqual, Self.value(of: lower, in: row)),
                order(value, .lessOrEqual, Self.value(of: upper, in: row)))
        case .membership(let operand, let values):
            // SQL: an empty list is false even for NULL; otherwise NULL on the left is unknown,
            // a match is true, and no match is unknown if the list holds a NULL.
            if values.isEmpty { return false }
            let value = value(of: operand, in: row)
            if value.isNull { return nil }
            var sawNull = false
            for candidate in values {
                if candidate.isNull {
                    sawNull = true
                } else if compareStored(value, candidate) == 0 {
                    return true
                }
            }
            return sawNull ? nil : false
        case .text(let operand, let op, let options, _, let prepared):
            guard case .string(let string) = value(of: operand, in: row) else { return nil }
            return TextMatcher.matches(string, op, options, prepared)
        case .quantified(let quantifier, let collection, let inner):
            // Two-valued, as SQL's EXISTS: a member whose comparison is unknown counts as neither.
            let members = row.members(of: collection)
            switch quantifier {
            case .any: return members.contains { truth(of: inner, in: $0) == true }
            case .all: return !members.contains { truth(of: inner, in: $0) == false }
            case .none: return !members.contains { truth(of: inner, in: $0) == true }
            }
        case .and(let nodes):
            var unknown = false
            for node in nodes {
                switch truth(of: node, in: row) {
                case false?: return false
                case nil: unknown = true
                case true?: continue
                }
            }
            return unknown ? nil : true
        case .or(let nodes):
            var unknown = false
            for node in nodes {
                switch truth(of: node, in: row) {
                case true?: return true
                case nil: unknown = true
                case false?: continue
                }
            }
            return unknown ? nil : false
        case .not(let node):
            return truth(of: node, in: row).map { !$0 }
        }
    }

    /// The operand's value for a row of `entity` (its object `objectID`), as a sort reads it.
    static func value(
        of operand: Operand, values: ValueRow, entity: EntityDescription?, objectID: ManagedObjectID?, resolve: RowResolver?
    ) -> AttributeValue {
        value(of: operand, in: Row(values: values, entity: entity, objectID: objectID, resolve: resolve))
    }

    private static func value(of operand: Operand, in row: Row) -> AttributeValue {
        switch operand {
        case .attribute(let attribute): return row.values[attribute.index]
        case .attributeAsReal(let attribute): return castToReal(row.values[attribute.index])
        case .reference(let relationship): return row.values[row.slot(of: relationship)]
        case .ownObject: return row.objectID.map(AttributeValue.object) ?? .null
        case .value(let value): return value
        case .path(let path, let asNumber):
            var values = row.values
            var entity = row.entity
            for hop in path.hops {
                let slot = entity.map { $0.relationships[hop.relationship.index].slot } ?? hop.relationship.slot
                guard case .object(let objectID) = values[slot], let next = row.resolve?.row(objectID) else { return .null }
                values = next
                entity = objectID.entity
            }
            switch path.target {
            case .none: return .null
            case .attribute(let attribute): return asNumber ? castToReal(values[attribute.index]) : values[attribute.index]
            case .reference(let relationship): return values[entity.map { $0.relationships[relationship.index].slot } ?? relationship.slot]
            }
        case .count(let collection, let predicate):
            let members = row.members(of: collection)
            guard let predicate else { return .integer(Int64(members.count)) }
            return .integer(Int64(members.filter { truth(of: predicate, in: $0) == true }.count))
        case .aggregate(let function, let collection, let attribute):
            return aggregate(function, row.members(of: collection).map { $0.values[attribute.index] })
        }
    }

    /// SQLite's aggregates over `values`: NULLs ignored; @sum is 0 for none (an integer while
    /// every value is one, else a double), @avg a double, @min/@max by stored order; nil for none.
    static func aggregate(_ function: CollectionOperator, _ values: [AttributeValue]) -> AttributeValue {
        let present = values.filter { !$0.isNull }
        switch function {
        case .count:
            return .integer(Int64(present.count))
        case .sum, .avg:
            var integerSum: Int64 = 0, doubleSum = 0.0, allIntegers = true
            for value in present {
                switch value {
                case .integer(let integer):
                    integerSum &+= integer
                    doubleSum += Double(integer)
                default:
                    allIntegers = false
                    doubleSum += value.numericValue ?? 0
                }
            }
            if function == .avg { return present.isEmpty ? .null : .double(doubleSum / Double(present.count)) }
            return allIntegers ? .integer(integerSum) : .double(doubleSum)
        case .min:
            return present.min { compareStored($0, $1) < 0 } ?? .null
        case .max:
            return present.max { compareStored($0, $1) < 0 } ?? .null
        }
    }

    /// An ordering comparison: unknown when either side is NULL.
    private static func order(_ lhs: AttributeValue, _ comparison: ComparisonOperator, _ rhs: AttributeValue) -> Bool? {
        if lhs.isNull || rhs.isNull { return nil }
        let result = compareStored(lhs, rhs)
        switch comparison {
        case .equal: return result == 0
        case .notEqual: return result != 0
        case .less: return result < 0
        case .lessOrEqual: return result <= 0
        case .greater: return result > 0
        case .greaterOrEqual: return result >= 0
        }
    }

    private static func kleeneAnd(_ a: Bool?, _ b: Bool?) -> Bool? {
        if a == false || b == false { return false }
        if a == nil || b == nil { return nil }
        return true
    }
}
