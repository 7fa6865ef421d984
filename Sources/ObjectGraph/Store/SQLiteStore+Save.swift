/// Saving: one `BEGIN IMMEDIATE` transaction per save, deletes then updates then inserts, each
/// with a prepared statement reused row after row; the primary-key counters are persisted in the
/// same transaction and restored if it fails, so a failed save leaves no trace at all.
extension SQLiteStoreState {
    /// Applies `request`; returns the keys given to inserts that had temporary IDs, in insert order.
    func save(_ request: SaveRequest) throws -> [Int64] {
        guard !request.isEmpty else { return [] }
        try checkWritable()
        // Bindings stay in place from row to row; once the save is over, SQLite's copies of its
        // values are given back.
        defer {
            for table in tables { table.releaseBindings() }
            for plan in updatePlans.values { plan.statement.releaseBindings() }
        }
        var before = primaryKeyCounters
        do {
            return try connection.transaction {
                try refreshPrimaryKeyCountersIfChangedElsewhere()
                before = primaryKeyCounters
                for objectID in request.deletes { try delete(objectID) }
                for update in request.updates { try apply(update) }
                var assigned: [Int64] = []
                assigned.reserveCapacity(request.inserts.count)
                for insert in request.inserts {
                    if let key = try self.insert(insert) { assigned.append(key) }
                }
                if primaryKeyCounters != before { try persistPrimaryKeyCounters(changedFrom: before) }
                return assigned
            }
        } catch {
            primaryKeyCounters = before
            throw error
        }
    }

    /// Deletes a row. A row that is already gone is not an error: the save's intent holds.
    private func delete(_ objectID: ManagedObjectID) throws {
        let table = try table(for: objectID.entity)
        let key = try savedKey(of: objectID, "delete")
        let statement = try table.delete(on: connection)
        statement.reset()
        try statement.bind(.integer(key), at: 1)
        _ = try statement.step(explainingFailure: {
            $0.error("Cannot delete \(objectID.shortDescription)", entityName: table.entity.name, objectID: objectID)
        })
    }

    /// Writes the changed stored attributes of a row and bumps its version.
    private func apply(_ update: SaveRequest.Update) throws {
        let table = try table(for: update.objectID.entity)
        let key = try savedKey(of: update.objectID, "update")
        try checkRow(update.values, of: update.objectID)
        let plan = try updatePlan(for: table, changing: update.changedAttributes, of: update.objectID)
        let statement = plan.statement
        statement.reset()
        var parameter: Int32 = 1
        for slot in plan.slots {
            try statement.bind(update.values[slot], at: parameter)
            parameter += 1
        }
        try statement.bind(.integer(key), at: parameter)
        _ = try statement.step(explainingFailure: { explain($0, objectID: update.objectID, values: update.values, table: table) })
        guard connection.changes > 0 else { throw ConstraintViolation.rowGone(update.objectID) }
    }

    /// Inserts a row; returns its key when the store assigned it (the object ID was temporary).
    private func insert(_ insert: SaveRequest.Insert) throws -> Int64? {
        let table = try table(for: insert.objectID.entity)
        try checkRow(insert.values, of: insert.objectID)
        let index = table.entity.index
        let key: Int64
        let assigned: Int64?
        if let permanent = insert.objectID.primaryKey {
            key = permanent
            assigned = nil
            // Keys obtained in advance were reserved; this only guards against any that were not.
            primaryKeyCounters[index] = max(primaryKeyCounters[index], permanent)
        } else {
            key = try nextPrimaryKey(for: index)
            assigned = key
        }
        let statement = try table.insert(on: connection)
        statement.reset()
        try statement.bind(.integer(key), at: 1)
        // Parameters follow the SELECT's column layout: 1 is `_pk`, attributes from 2.
        for column in table.columns {
            try statement.bind(insert.values[column.slot], at: column.index)
        }
        _ = try statement.step(explainingFailure: { explain($0, objectID: insert.objectID, values: insert.values, table: table) })
        return assigned
    }

    /// The UPDATE for this combination of changed attributes, prepared once. Transient
    /// attributes are never written; with no stored change the row's version is still bumped,
    /// which also proves the row exists.
    private func updatePlan(for table: SQLiteStoreTable, changing changed: [Int], of objectID: ManagedObjectID) throws -> UpdatePlan {
        let shape = UpdateShape(entity: table.entity.index, changedAttributes: changed)
        if let last = lastUpdatePlan, last.shape == shape { return last.plan }
        if let plan = updatePlans[shape] {
            lastUpdatePlan = (shape, plan)
            return plan
        }
        let attributes = table.entity.attributes
        var slots: [Int] = []
        for slot in changed where !slots.contains(slot) {
            guard attributes.indices.contains(slot) else {
                throw ObjectGraphError(.invalidOperation, "Cannot save \(objectID.shortDescription): attribute slot \(slot) does not exist", entityName: table.entity.name, objectID: objectID)
            }
            if !attributes[slot].isTransient { slots.append(slot) }
        }
        let version = quoteIdentifier(SQLiteSchema.versionColumn)
        let assignments = slots.map { "\(quoteIdentifier(attributes[$0].name)) = ?" } + ["\(version) = \(version) + 1"]
        let sql = "UPDATE \(table.quotedName) SET \(assignments.joined(separator: ", ")) WHERE \(quoteIdentifier(SQLiteSchema.primaryKeyColumn)) = ?"
        let plan = UpdatePlan(statement: try connection.cachedStatement(sql), slots: slots)
        // Shapes are few in practice; the bound only stops a pathological caller growing the map.
        if updatePlans.count >= SQLiteConnection.statementCacheLimit { updatePlans.removeAll() }
        updatePlans[shape] = plan
        lastUpdatePlan = (shape, plan)
        return plan
    }

    /// The primary key of an object that must already be saved.
    private func savedKey(of objectID: ManagedObjectID, _ action: String) throws -> Int64 {
        guard let key = objectID.primaryKey else {
            throw ObjectGraphError(
                .invalidOperation, "Cannot \(action) \(objectID.shortDescription) in the store: it has never been saved",
                entityName: objectID.entity.name, objectID: objectID)
        }
        return key
    }

    /// A value row must hold one value per attribute of its entity.
    private func checkRow(_ values: [AttributeValue], of objectID: ManagedObjectID) throws {
        let expected = objectID.entity.attributes.count
        guard values.count == expected else {
            throw ObjectGraphError(
                .invalidOperation, "Cannot save \(objectID.shortDescription): its row has \(values.count) values for \(expected) attributes",
                entityName: objectID.entity.name, objectID: objectID)
        }
    }
}
