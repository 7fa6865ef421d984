extension BoundPredicate {
    /// The predicate as an SQL boolean expression over the entity's table, for a WHERE clause, in
    /// SQLite's dialect.
    func sqlFragment() -> SQLFragment {
        sqlFragment(in: SQLiteDialect())
    }

    /// The predicate as an SQL boolean expression over the entity's table, for a WHERE clause,
    /// in `dialect`, its parameters numbered from `firstParameter` (where they are numbered).
    ///
    /// Columns are the quoted attribute names; every constant is a parameter. `==` and `!=`
    /// become the dialect's null-safe identity (`IS` and `IS NOT`, able to use an index). AND and
    /// OR groups are parenthesised, so the fragment can be combined with other conditions as it
    /// is. Key paths through relationships become scalar subqueries; collections (`@count`,
    /// ANY/ALL/NONE), subqueries on the destination's rows, correlated to the row by its `_pk`.
    package func sqlFragment<Dialect: SQLDialect>(in dialect: Dialect, firstParameter: Int = 1) -> SQLFragment {
        var writer = Writer(dialect: dialect, firstParameter: firstParameter)
        let sql = writer.sql(for: root, scope: nil)
        return SQLFragment(sql: sql, bindings: writer.bindings)
    }

    /// The SQL expression reading `operand` for a row of the fetched table (an attribute or a
    /// key path: no bindings), for ORDER BY and GROUP BY, in SQLite's dialect.
    static func sql(for operand: Operand) -> String {
        sql(for: operand, in: SQLiteDialect())
    }

    /// The SQL expression reading `operand` for a row of the fetched table, in `dialect`.
    package static func sql<Dialect: SQLDialect>(for operand: Operand, in dialect: Dialect) -> String {
        var writer = Writer(dialect: dialect, firstParameter: 1)
        return writer.sql(for: operand, scope: nil)
    }

    /// Builds the SQL text and its bindings in order. `scope` is the alias of the row a nested
    /// subquery is about (`nil` at the top, where columns are unqualified).
    private struct Writer<Dialect: SQLDialect> {
        let dialect: Dialect
        /// The number of the first parameter.
        let firstParameter: Int
        var bindings: [AttributeValue] = []
        /// How many subqueries are open: each gets its own aliases.
        private var depth = 0

        init(dialect: Dialect, firstParameter: Int) {
            self.dialect = dialect
            self.firstParameter = firstParameter
        }

        /// Binds `value` and returns its placeholder.
        private mutating func parameter(_ value: AttributeValue) -> String {
            bindings.append(value)
            return dialect.placeholder(firstParameter + bindings.count - 1)
        }

        mutating func sql(for node: Node, scope: String?) -> String {
            switch node {
            case .constant(let value):
                return dialect.booleanLiteral(value)
            case .identity(let lhs, let rhs, let negated):
                let (left, right) = pair(lhs, rhs, scope: scope)
                return dialect.identity(left, right, negated: negated)
            case .ordering(let lhs, let comparison, let rhs):
                let (left, right) = pair(lhs, rhs, scope: scope)
                return "\(left) \(comparison.symbol) \(right)"
            case .between(let operand, let lower, let upper):
                guard
                    roundsIntegers,
                    MixedNumberComparison.needsExactness(operand, against: lower)
                        || MixedNumberComparison.needsExactness(lower, against: operand)
                        || MixedNumberComparison.needsExactness(operand, against: upper)
                        || MixedNumberComparison.needsExactness(upper, against: operand)
                else {
                    let value = sql(for: operand, scope: scope)
                    let low = sql(for: lower, scope: scope)
                    return "\(value) BETWEEN \(low) AND \(sql(for: upper, scope: scope))"
                }
                // Each bound compared on its own, the side of each pair made exact as it needs.
                let (value, low) = pair(operand, lower, scope: scope)
                let (again, high) = pair(operand, upper, scope: scope)
                return "(\(value) >= \(low) AND \(again) <= \(high))"
            case .membership(let operand, let values):
                // `x IN ()` is valid only in SQLite; a constant false says the same everywhere.
                guard !values.isEmpty else { return dialect.booleanLiteral(false) }
                let value = sql(for: operand, scope: scope)
                let storable = values.map(Self.storable)
                if let shortest = dialect.shortestJSONList, storable.count >= shortest, let list = SQLValueList.json(storable) {
                    return dialect.membership(value, inJSONArray: parameter(.string(list)))
                }
                return membership(operand, value, storable)
            case .text(let operand, let op, let givenOptions, let givenPattern, _):
                // The SQL function matches as TextMatcher does, so every store agrees on every string.
                let value = sql(for: operand, scope: scope)
                let (options, pattern) = dialect.textArguments(op, givenOptions, givenPattern)
                let arguments = [AttributeValue.integer(op.code), .integer(Int64(options.rawValue)), .string(pattern)].map { parameter($0) }
                return "\(dialect.textFunction)(\(value), \(arguments.joined(separator: ", ")))"
            case .quantified(let quantifier, let collection, let inner):
                // EXISTS is never unknown, as the evaluator's quantifiers are two-valued.
                let (from, member) = members(of: collection, scope: scope)
                let condition = sql(for: inner, scope: member)
                depth -= 1
                switch quantifier {
                case .any: return "EXISTS (SELECT 1 \(from) AND (\(condition)))"
                case .all: return "NOT EXISTS (SELECT 1 \(from) AND NOT (\(condition)))"
                case .none: return "NOT EXISTS (SELECT 1 \(from) AND (\(condition)))"
                }
            case .and(let nodes):
                return group(nodes, "AND", scope: scope)
            case .or(let nodes):
                return group(nodes, "OR", scope: scope)
            case .not(let node):
                return "NOT (\(sql(for: node, scope: scope)))"
            }
        }

        /// Whether the dialect compares integers with doubles as doubles (see `pair`).
        private var roundsIntegers: Bool { dialect.exactAgainstIntegers("") != nil }

        /// Both sides of a comparison, the double one made exact against integers where the
        /// dialect would round an integer of the other side (see `MixedNumberComparison`).
        private mutating func pair(_ lhs: Operand, _ rhs: Operand, scope: String?) -> (String, String) {
            var left = sql(for: lhs, scope: scope)
            var right = sql(for: rhs, scope: scope)
            if MixedNumberComparison.needsExactness(lhs, against: rhs), let exact = dialect.exactAgainstIntegers(left) { left = exact }
            if MixedNumberComparison.needsExactness(rhs, against: lhs), let exact = dialect.exactAgainstIntegers(right) { right = exact }
            return (left, right)
        }

        /// `value IN (…)` of `operand`'s SQL `value`. Where integers meet doubles and the dialect
        /// rounds integers, the list is split so that each part compares exactly: an integer
        /// operand with every double of the list made exact against integers (a list's values
        /// share one type: doubles left plain would make the whole comparison one of doubles);
        /// a double operand made exact against the list's large integers, and compared plainly
        /// with the rest.
        private mutating func membership(_ operand: Operand, _ value: String, _ values: [AttributeValue]) -> String {
            let exactValue = dialect.exactAgainstIntegers(value)
            switch MixedNumberComparison.kind(of: operand) {
            case .integer? where values.contains { MixedNumberComparison.kind(of: $0) == .floating }:
                let items = values.map { item in
                    let placeholder = parameter(item)
                    return MixedNumberComparison.kind(of: item) == .floating
                        ? dialect.exactAgainstIntegers(placeholder) ?? placeholder : placeholder
                }
                return "\(value) IN (\(items.joined(separator: ", ")))"
            case .floating?
            where exactValue != nil
                && values.contains { MixedNumberComparison.kind(of: $0) == .integer && MixedNumberComparison.isLarge($0) }:
                let large = values.filter { MixedNumberComparison.kind(of: $0) == .integer && MixedNumberComparison.isLarge($0) }
                let rest = values.filter { !(MixedNumberComparison.kind(of: $0) == .integer && MixedNumberComparison.isLarge($0)) }
                let exact = "\(exactValue!) IN (\(large.map { parameter($0) }.joined(separator: ", ")))"
                guard !rest.isEmpty else { return exact }
                return "(\(value) IN (\(rest.map { parameter($0) }.joined(separator: ", "))) OR \(exact))"
            default:
                return "\(value) IN (\(values.map { parameter($0) }.joined(separator: ", ")))"
            }
        }

        /// The longest run of tests joined by one operator without parentheses.
        private static var longestFlatGroup: Int { 8 }

        /// `(a OP b OP …)`. SQLite parses a flat chain into a tree as deep as the chain is long
        /// and refuses trees deeper than 1,000 ("Expression tree is too large"), so a longer group
        /// is written as two parenthesised halves, each split again: log₂ of its length deep.
        /// Deeply nested members come first: SQLite's parser holds less on its stack for a
        /// parenthesis that opens the group than for one that ends it (see `maximumNesting`).
        private mutating func group(_ nodes: [Node], _ op: String, scope: String?) -> String {
            guard nodes.count > Self.longestFlatGroup else {
                let ordered =
                    nodes.count > 1 && nodes.contains(where: { $0.nesting > 0 })
                    ? nodes.enumerated().sorted { ($0.element.nesting, $1.offset) > ($1.element.nesting, $0.offset) }.map(\.element)
                    : nodes
                return "(" + ordered.map { sql(for: $0, scope: scope) }.joined(separator: " \(op) ") + ")"
            }
            let middle = nodes.count / 2
            return "(" + group(Array(nodes[..<middle]), op, scope: scope) + " \(op) " + group(Array(nodes[middle...]), op, scope: scope)
                + ")"
        }

        mutating func sql(for operand: Operand, scope: String?) -> String {
            switch operand {
            case .attribute(let attribute):
                return column(dialect.columnName(of: attribute), scope)
            case .attributeAsReal(let attribute):
                return dialect.real(column(dialect.columnName(of: attribute), scope))
            case .reference(let relationship):
                return column(relationship.name, scope)
            case .ownObject:
                return column(StoreSchema.primaryKeyColumn, scope)
            case .value(let value):
                return parameter(Self.storable(value))
            case .path(let path, let asNumber):
                let reference = pathSQL(path, scope: scope)
                return asNumber ? dialect.real(reference) : reference
            case .count(let collection, let predicate):
                let (from, member) = members(of: collection, scope: scope)
                let condition = predicate.map { " AND (\(sql(for: $0, scope: member)))" } ?? ""
                depth -= 1
                return "(SELECT count(*) \(from)\(condition))"
            case .aggregate(let function, let collection, let attribute):
                let (from, member) = members(of: collection, scope: scope)
                depth -= 1
                let value = column(dialect.columnName(of: attribute), member)
                switch function {
                case .count: return "(SELECT count(\(value)) \(from))"
                case .sum: return "(SELECT coalesce(sum(\(value)), 0) \(from))"
                case .avg: return "(SELECT avg(\(value)) \(from))"
                case .min: return "(SELECT min(\(value)) \(from))"
                case .max: return "(SELECT max(\(value)) \(from))"
                }
            }
        }

        /// `name`, qualified by `scope` inside a subquery.
        private func column(_ name: String, _ scope: String?) -> String {
            scope.map { "\($0).\(quoteIdentifier(name))" } ?? quoteIdentifier(name)
        }

        /// The row's own key, as a subquery about it refers to it.
        private func ownKey(_ scope: String?, table: String) -> String {
            "\(scope ?? quoteIdentifier(table)).\(quoteIdentifier(StoreSchema.primaryKeyColumn))"
        }

        /// `FROM … WHERE <member of the row's collection>` and the alias of the member rows.
        /// Opens a subquery level; the caller closes it (`depth -= 1`) when done with the alias.
        private mutating func members(of collection: Collection, scope: String?) -> (from: String, member: String) {
            depth += 1
            let member = quoteIdentifier("_m\(depth)")
            let owner = collection.owner.map { ownerReference($0, scope: scope) } ?? ownKey(scope, table: collection.sourceTable)
            switch collection.storage {
            case .inverseForeignKey(let column):
                return (
                    "FROM \(quoteIdentifier(collection.destinationTable)) AS \(member) WHERE \(member).\(quoteIdentifier(column)) = \(owner)",
                    member
                )
            case .joinTable(let name, let own, let other):
                let pair = quoteIdentifier("_j\(depth)")
                let key = quoteIdentifier(StoreSchema.primaryKeyColumn)
                return (
                    "FROM \(quoteIdentifier(name)) AS \(pair) JOIN \(quoteIdentifier(collection.destinationTable)) AS \(member) ON \(member).\(key) = \(pair).\(quoteIdentifier(other)) WHERE \(pair).\(quoteIdentifier(own)) = \(owner)",
                    member
                )
            }
        }

        /// The key of the object a collection belongs to when it is reached through to-ones: the
        /// row's own foreign key, qualified (the subquery may read a table with a column of the
        /// same name), or the foreign key at the end of the path.
        private mutating func ownerReference(_ path: KeyPath, scope: String?) -> String {
            if path.hops.isEmpty, case .reference(let relationship) = path.target {
                return "\(scope ?? quoteIdentifier(path.sourceTable)).\(quoteIdentifier(relationship.name))"
            }
            return pathSQL(path, scope: scope)
        }

        /// A key path as nested scalar subqueries, each reading the next foreign key (and at the
        /// end the target) from the row the previous one names: NULL as soon as a hop is NULL, as
        /// a LEFT JOIN would give.
        private mutating func pathSQL(_ path: KeyPath, scope: String?) -> String {
            let key = quoteIdentifier(StoreSchema.primaryKeyColumn)
            var reference = "\(scope ?? quoteIdentifier(path.sourceTable)).\(quoteIdentifier(path.hops[0].relationship.name))"
            for (number, hop) in path.hops.enumerated() {
                let column: String
                if number + 1 < path.hops.count {
                    column = path.hops[number + 1].relationship.name
                } else {
                    switch path.target {
                    case .attribute(let attribute): column = dialect.columnName(of: attribute)
                    case .reference(let relationship): column = relationship.name
                    case .none: return "NULL"
                    }
                }
                let alias = quoteIdentifier("_hop\(depth)_\(number)")
                reference =
                    "(SELECT \(alias).\(quoteIdentifier(column)) FROM \(quoteIdentifier(hop.destinationTable)) AS \(alias) WHERE \(alias).\(key) = \(reference))"
            }
            return reference
        }

        /// A constant as the store holds it: an object not saved yet has no key, so it becomes 0,
        /// which no stored key is (keys start at 1).
        private static func storable(_ value: AttributeValue) -> AttributeValue {
            if case .object(let objectID) = value, objectID.isTemporaryID { return .integer(0) }
            return value
        }
    }
}
