extension InMemoryStore {
    /// Applies a save in the same order, with the same checks, as the SQLite store: keys for new
    /// rows first, then deletes, updates and inserts, each row checked against the constraints as
    /// it is written, then relationship pairs and positions.
    func apply(_ request: SaveRequest, to state: inout State) throws -> [Int64] {
        var keys = SaveKeys(idSpaces: idSpaces)
        var assigned: [Int64] = []
        var rowKeys: [Int64] = []
        for insert in request.inserts {
            let index = insert.objectID.entity.index
            if let permanent = insert.objectID.primaryKey {
                rowKeys.append(permanent)
                state.tables[index].maxKey = max(state.tables[index].maxKey, permanent)
            } else {
                state.tables[index].maxKey += 1
                let key = state.tables[index].maxKey
                keys.assign(key, to: insert.objectID)
                assigned.append(key)
                rowKeys.append(key)
            }
        }
        for objectID in request.deletes {
            guard let primaryKey = objectID.primaryKey,
                  let row = state.tables[objectID.entity.index].rows.removeValue(forKey: primaryKey) else { continue }
            Self.removeFromUniqueIndexes(row, of: objectID.entity, in: &state.tables[objectID.entity.index])
            forgetRelationships(of: objectID, key: primaryKey, in: &state)
        }
        for update in request.updates {
            let entity = update.objectID.entity
            guard let primaryKey = update.objectID.primaryKey,
                  let old = state.tables[entity.index].rows[primaryKey] else {
                throw ConstraintViolation.rowGone(update.objectID)
            }
            let values = try keys.resolvingReferences(in: update.values, of: update.objectID)
            var row = old
            for slot in update.changedAttributes { row.values[slot] = values[slot] }
            row.version += 1
            Self.removeFromUniqueIndexes(old, of: entity, in: &state.tables[entity.index])
            try Self.write(row, objectID: update.objectID, into: &state.tables[entity.index])
        }
        for (insert, primaryKey) in zip(request.inserts, rowKeys) {
            let entity = insert.objectID.entity
            var values = try keys.resolvingReferences(in: insert.values, of: insert.objectID)
            for attribute in entity.attributes where attribute.isTransient { values[attribute.index] = attribute.defaultValue }
            try Self.write(Snapshot(primaryKey: primaryKey, values: values, version: 1), objectID: insert.objectID, into: &state.tables[entity.index])
        }
        try applyRelationshipChanges(request.relationshipChanges, keys: keys, to: &state)
        return assigned
    }

    /// Stores `row` after checking required values and uniqueness, as SQLite's NOT NULL columns
    /// and unique indexes would.
    private static func write(_ row: Snapshot, objectID: ManagedObjectID, into table: inout Table) throws {
        let entity = objectID.entity
        for attribute in entity.storedAttributes where !attribute.isOptional && row.values[attribute.index].isNull {
            throw ConstraintViolation.missingValue(entity: entity, objectID: objectID, key: attribute.name)
        }
        for (number, keys) in entity.uniquenessConstraints.enumerated() {
            // Like SQLite, rows with a NULL in any constrained column never conflict.
            guard let indexKey = uniqueKey(of: row, for: keys, in: entity) else { continue }
            if let holder = table.uniqueIndexes[number][indexKey], holder != row.primaryKey {
                throw ConstraintViolation.uniqueness(entity: entity, objectID: objectID, keys: keys, values: indexKey.values)
            }
        }
        for (number, keys) in entity.uniquenessConstraints.enumerated() {
            if let indexKey = uniqueKey(of: row, for: keys, in: entity) { table.uniqueIndexes[number][indexKey] = row.primaryKey }
        }
        table.rows[row.primaryKey] = row
    }

    private static func removeFromUniqueIndexes(_ row: Snapshot, of entity: EntityDescription, in table: inout Table) {
        for (number, keys) in entity.uniquenessConstraints.enumerated() {
            if let indexKey = uniqueKey(of: row, for: keys, in: entity) { table.uniqueIndexes[number][indexKey] = nil }
        }
    }

    private static func uniqueKey(of row: Snapshot, for keys: [String], in entity: EntityDescription) -> StoredValuesKey? {
        var values: [AttributeValue] = []
        for key in keys {
            guard let attribute = entity.attribute(named: key), !row.values[attribute.index].isNull else { return nil }
            values.append(row.values[attribute.index])
        }
        return StoredValuesKey(values: values)
    }
}
