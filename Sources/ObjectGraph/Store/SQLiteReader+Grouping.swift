/// Values fetches with aggregates: one `SELECT … GROUP BY … ORDER BY` over the entity's table.
extension SQLiteReader {
    func groupedValues(_ request: StoreGroupRequest) throws -> [[AttributeValue]] {
        let table = try table(for: request.entity)
        let expressions = request.selectedExpressions(in: SQLiteDialect())
        var sql = "SELECT \(expressions.joined(separator: ", ")) FROM \(table.quotedName)"
        var conditions: [String] = []
        var bindings: [AttributeValue] = []
        if let entities = request.includesSubentities ? table.kindsFilter : table.ownFilter { conditions.append(entities) }
        if let predicate = request.predicate {
            let fragment = predicate.sqlFragment()
            conditions.append("(\(fragment.sql))")
            bindings = fragment.bindings
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        if !request.groupBy.isEmpty {
            let keys = request.groupBy.map { BoundPredicate.sql(for: $0) }.joined(separator: ", ")
            sql += " GROUP BY \(keys) ORDER BY \(keys)"
        }
        let statement = try connection.cachedStatement(sql)
        statement.reset()
        defer { statement.reset() }
        try statement.bind(bindings)
        var rows: [[AttributeValue]] = []
        while try statement.step() {
            rows.append(
                try request.columns.enumerated().map { index, column in
                    try statement.value(at: Int32(index), as: column.type)
                })
        }
        return rows
    }
}
