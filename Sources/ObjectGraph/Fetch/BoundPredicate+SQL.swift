extension BoundPredicate {
    /// The predicate as an SQL boolean expression over the entity's table, for a WHERE clause.
    ///
    /// Columns are the quoted attribute names; every constant is a `?` parameter. `==` and `!=`
    /// become `IS` and `IS NOT` (null-safe, and able to use an index). AND and OR groups are
    /// parenthesised, so the fragment can be combined with other conditions as it is.
    func sqlFragment() -> SQLFragment {
        var bindings: [AttributeValue] = []
        let sql = Self.sql(for: root, bindings: &bindings)
        return SQLFragment(sql: sql, bindings: bindings)
    }

    private static func sql(for node: Node, bindings: inout [AttributeValue]) -> String {
        switch node {
        case .constant(let value):
            return value ? "1" : "0"
        case .identity(let lhs, let rhs, let negated):
            let left = sql(for: lhs, bindings: &bindings)
            return "\(left) \(negated ? "IS NOT" : "IS") \(sql(for: rhs, bindings: &bindings))"
        case .ordering(let lhs, let comparison, let rhs):
            let left = sql(for: lhs, bindings: &bindings)
            return "\(left) \(comparison.symbol) \(sql(for: rhs, bindings: &bindings))"
        case .between(let operand, let lower, let upper):
            let value = sql(for: operand, bindings: &bindings)
            let low = sql(for: lower, bindings: &bindings)
            return "\(value) BETWEEN \(low) AND \(sql(for: upper, bindings: &bindings))"
        case .membership(let operand, let values):
            // `x IN ()` is valid only in SQLite; a constant false says the same everywhere.
            guard !values.isEmpty else { return "0" }
            let value = sql(for: operand, bindings: &bindings)
            bindings.append(contentsOf: values.map(storable))
            return "\(value) IN (\(Array(repeating: "?", count: values.count).joined(separator: ", ")))"
        case .text(let operand, let op, let options, let pattern, _):
            // The SQL function runs TextMatcher itself, so both stores agree on every string.
            let value = sql(for: operand, bindings: &bindings)
            bindings += [.string(op.rawValue), .integer(Int64(options.rawValue)), .string(pattern)]
            return "\(SQLiteTextFunction.name)(\(value), ?, ?, ?)"
        case .and(let nodes):
            return "(" + nodes.map { sql(for: $0, bindings: &bindings) }.joined(separator: " AND ") + ")"
        case .or(let nodes):
            return "(" + nodes.map { sql(for: $0, bindings: &bindings) }.joined(separator: " OR ") + ")"
        case .not(let node):
            return "NOT (\(sql(for: node, bindings: &bindings)))"
        }
    }

    private static func sql(for operand: Operand, bindings: inout [AttributeValue]) -> String {
        switch operand {
        case .attribute(let attribute):
            return quoteIdentifier(attribute.name)
        case .attributeAsReal(let attribute):
            return "CAST(\(quoteIdentifier(attribute.name)) AS REAL)"
        case .value(let value):
            bindings.append(storable(value))
            return "?"
        case .reference(let relationship):
            return quoteIdentifier(relationship.name)
        case .path(let path, let asNumber):
            let reference = pathSQL(path)
            return asNumber ? "CAST(\(reference) AS REAL)" : reference
        }
    }

    /// A key path as nested scalar subqueries, each reading the next foreign key (and at the end
    /// the target) from the row the previous one names: NULL as soon as a hop is NULL, as a LEFT
    /// JOIN would give.
    private static func pathSQL(_ path: KeyPath) -> String {
        let key = quoteIdentifier(SQLiteSchema.primaryKeyColumn)
        var reference = "\(quoteIdentifier(path.sourceTable)).\(quoteIdentifier(path.hops[0].relationship.name))"
        for (number, hop) in path.hops.enumerated() {
            let column: String
            if number + 1 < path.hops.count {
                column = path.hops[number + 1].relationship.name
            } else {
                switch path.target {
                case .attribute(let attribute): column = attribute.name
                case .reference(let relationship): column = relationship.name
                case .none: return "NULL"
                }
            }
            let alias = quoteIdentifier("_hop\(number)")
            reference = "(SELECT \(alias).\(quoteIdentifier(column)) FROM \(quoteIdentifier(hop.destinationTable)) AS \(alias) WHERE \(alias).\(key) = \(reference))"
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
