import CSQLite

/// Batch updates of attributes, and deletes of rows nothing refers to, as one `UPDATE`/`DELETE …
/// WHERE …` statement in a transaction: no row is read first.
extension SQLiteStoreState {
    func updateInPlace(_ request: StoreBatchRequest, _ values: [Int: AttributeValue]) throws -> [ManagedObjectID] {
        let slots = values.keys.sorted()
        let version = quoteIdentifier(StoreSchema.versionColumn)
        let assignments = slots.map { "\(quoteIdentifier(request.entity.attributes[$0].name)) = ?" } + ["\(version) = \(version) + 1"]
        return try runInPlace(request, "UPDATE", "SET \(assignments.joined(separator: ", "))", slots.map { values[$0]! })
    }

    func deleteInPlace(_ request: StoreBatchRequest) throws -> [ManagedObjectID] {
        try runInPlace(request, "DELETE FROM", "", [])
    }

    /// Whether rows of `entity` (or of its sub-entities) can be referred to: a to-one relationship
    /// points at them, or a join table holds them.
    func isReferenced(_ entity: EntityDescription) -> Bool {
        let kinds = Set(model.kindIndexes[entity.index])
        let pointedAt = model.entities.contains { source in
            source.toOneRelationships.contains { model.kindIndexes[$0.destinationIndex].contains(where: kinds.contains) }
        }
        return pointedAt || model.kinds(of: entity).contains { !relationshipLayout.joinColumns(holding: $0, in: model).isEmpty }
    }

    /// `<verb> "Table" <clause> WHERE <rows>`, bound to `bindings` then the predicate's, in one
    /// transaction; returns the IDs of the rows it touched. A table of one entity reports the
    /// keys through SQLite's update hook as the statement changes its rows (the same work a
    /// plain statement does); a shared table's rows must also say their entity, so there the
    /// statement ends `RETURNING "_pk", "_entity"`.
    private func runInPlace(
        _ request: StoreBatchRequest, _ verb: String, _ clause: String, _ leading: [AttributeValue]
    ) throws -> [ManagedObjectID] {
        try checkWritable()
        let table = try table(for: request.entity)
        var bindings = leading
        var conditions: [String] = []
        if let entities = request.includesSubentities ? table.kindsFilter : table.ownFilter { conditions.append(entities) }
        if let predicate = request.predicate {
            let fragment = predicate.sqlFragment()
            conditions.append("(\(fragment.sql))")
            bindings += fragment.bindings
        }
        let shared = table.kindsFilter != nil
        let sql =
            "\(verb) \(table.quotedName)\(clause.isEmpty ? "" : " " + clause)"
            + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
            + (shared
                ? " RETURNING \(quoteIdentifier(StoreSchema.primaryKeyColumn)), \(quoteIdentifier(TableLayout.entityColumn))" : "")
        return try connection.transaction {
            let statement = try connection.cachedStatement(sql)
            statement.reset()
            defer {
                statement.reset()
                statement.releaseBindings()
            }
            try statement.bind(bindings)
            func step() throws -> Bool {
                try statement.step(explainingFailure: { failure in
                    // A uniqueness clash names its columns; other failures keep SQLite's own kind.
                    guard failure.primaryCode == SQLITE_CONSTRAINT else {
                        return failure.error("Cannot change \(request.entity.name) objects", entityName: request.entity.name)
                    }
                    return failure.error(
                        .constraintViolation, "Cannot change \(request.entity.name) objects: \(failure.message)",
                        entityName: request.entity.name, key: Self.constrainedColumns(in: failure.message).first)
                })
            }
            guard shared else {
                let space = idSpaces[request.entity.index]
                return try connection.changedRowIDs { while try step() {} }.map { ManagedObjectID(space: space, primaryKey: $0) }
            }
            var changed: [ManagedObjectID] = []
            while try step() {
                let entity = model.entity(named: statement.textValue(at: 1)) ?? request.entity
                changed.append(ManagedObjectID(space: idSpaces[entity.index], primaryKey: statement.int64(at: 0)))
            }
            return changed
        }
    }
}
