/// Batch updates of attributes as one `UPDATE … WHERE … RETURNING` statement in a transaction.
extension SQLiteStoreState {
    func updateInPlace(_ request: StoreBatchRequest, _ values: [Int: AttributeValue]) throws -> [ManagedObjectID] {
        try checkWritable()
        let table = try table(for: request.entity)
        let slots = values.keys.sorted()
        let version = quoteIdentifier(SQLiteSchema.versionColumn)
        let assignments = slots.map { "\(quoteIdentifier(request.entity.attributes[$0].name)) = ?" } + ["\(version) = \(version) + 1"]
        var bindings = slots.map { values[$0]! }
        var conditions: [String] = []
        if let entities = request.includesSubentities ? table.kindsFilter : table.ownFilter { conditions.append(entities) }
        if let predicate = request.predicate {
            let fragment = predicate.sqlFragment()
            conditions.append("(\(fragment.sql))")
            bindings += fragment.bindings
        }
        let shared = table.kindsFilter != nil
        let returning = [quoteIdentifier(SQLiteSchema.primaryKeyColumn)] + (shared ? [quoteIdentifier(SQLiteTableLayout.entityColumn)] : [])
        let sql = "UPDATE \(table.quotedName) SET \(assignments.joined(separator: ", "))"
            + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
            + " RETURNING \(returning.joined(separator: ", "))"
        return try connection.transaction {
            let statement = try connection.cachedStatement(sql)
            statement.reset()
            defer {
                statement.reset()
                statement.releaseBindings()
            }
            try statement.bind(bindings)
            var updated: [ManagedObjectID] = []
            while try statement.step(explainingFailure: { failure in
                let columns = Self.constrainedColumns(in: failure.message)
                return failure.error(
                    .constraintViolation, "Cannot update \(request.entity.name) objects: \(failure.message)",
                    entityName: request.entity.name, key: columns.first)
            }) {
                let entity = shared ? model.entity(named: statement.textValue(at: 1)) ?? request.entity : request.entity
                updated.append(ManagedObjectID(space: idSpaces[entity.index], primaryKey: statement.int64(at: 0)))
            }
            return updated
        }
    }
}
