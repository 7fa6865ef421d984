extension InMemoryStore {
    /// Applies a save in the same order, with the same checks, as the SQLite store: keys for new
    /// rows first, then deletes, updates and inserts, each row checked against the constraints as
    /// it is written, then relationship pairs and positions.
    func apply(_ request: SaveRequest, to state: inout State) throws -> [Int64] {
        var assigned: [Int64] = []
        var rowKeys: [Int64] = []
        for insert in request.inserts {
            // A hierarchy shares its root's keys, as it shares a table in SQLite.
            let index = model.rootIndexes[insert.objectID.entity.index]
            if let permanent = insert.objectID.primaryKey {
                rowKeys.append(permanent)
                state.tables[index].maxKey = max(state.tables[index].maxKey, permanent)
            } else if let declared = try PrimaryKeyRule.declaredKey(in: insert.values, of: insert.objectID) {
                assigned.append(declared)
                rowKeys.append(declared)
            } else {
                state.tables[index].maxKey += 1
                let key = state.tables[index].maxKey
                assigned.append(key)
                rowKeys.append(key)
            }
        }
        let keys = SaveKeys(idSpaces: idSpaces, inserts: request.inserts, rowKeys: rowKeys)
        if var history = state.pendingHistory {
            history.contextName = history.contextName ?? request.contextName
            history.author = history.author ?? request.author
            let rows = state.tables
            history.records += try request.deletionRecords { entity, key, attributes in
                attributes.map { ($0.name, rows[entity.index].rows[key]?.values[$0.index] ?? .null) }
            }
            state.pendingHistory = history
        }
        var conflicts = VersionConflicts()
        for (position, objectID) in request.deletes.enumerated() {
            guard let primaryKey = objectID.primaryKey, let current = state.tables[objectID.entity.index].rows[primaryKey] else { continue }
            let expected = request.deleteVersions.isEmpty ? 0 : request.deleteVersions[position]
            if expected > 0, current.version != expected {
                conflicts.rows.append((objectID, current))
                continue
            }
            state.tables[objectID.entity.index].rows[primaryKey] = nil
            removeFromUniqueIndexes(current, of: objectID.entity, in: &state)
            forgetRelationships(of: objectID, key: primaryKey, in: &state)
        }
        for update in request.updates {
            let entity = update.objectID.entity
            let current = update.objectID.primaryKey.flatMap { state.tables[entity.index].rows[$0] }
            if let expected = update.expectedVersion, current?.version != expected {
                conflicts.rows.append((update.objectID, current))
                continue
            }
            guard let old = current else {
                throw ConstraintViolation.rowGone(update.objectID)
            }
            let values = try keys.resolvingReferences(in: update.values, of: update.objectID)
            var row = old
            for slot in update.changedAttributes { row.values[slot] = values[slot] }
            row.version += 1
            removeFromUniqueIndexes(old, of: entity, in: &state)
            try write(row, objectID: update.objectID, into: &state)
        }
        if !conflicts.rows.isEmpty { throw conflicts }
        for (insert, primaryKey) in zip(request.inserts, rowKeys) {
            let entity = insert.objectID.entity
            if let slot = entity.primaryKeyIndex, isKeyTaken(primaryKey, inHierarchyOf: entity, state) {
                // SQLite's rowid refuses a second row with the key; so does this store.
                throw ConstraintViolation.uniqueness(
                    entity: entity, objectID: insert.objectID, keys: [entity.attributes[slot].name], values: [.integer(primaryKey)])
            }
            var values = try keys.resolvingReferences(in: insert.values, of: insert.objectID)
            for attribute in entity.attributes where attribute.isTransient { values[attribute.index] = attribute.defaultValue }
            try write(
                Snapshot(primaryKey: primaryKey, values: values, version: Snapshot.firstVersion, entityIndex: entity.index),
                objectID: insert.objectID,
                into: &state)
        }
        try applyRelationshipChanges(request.relationshipChanges, keys: keys, to: &state)
        state.pendingHistory?.records += request.writeRecords(rowKeys: rowKeys)
        return assigned
    }

    /// Whether a row of `entity`'s hierarchy (which shares one key space) has `key`.
    private func isKeyTaken(_ key: Int64, inHierarchyOf entity: EntityDescription, _ state: State) -> Bool {
        model.kindIndexes[model.rootIndexes[entity.index]].contains { state.tables[$0].rows[key] != nil }
    }

    /// Stores `row` after checking required values and uniqueness, as SQLite's NOT NULL columns
    /// (the root's required attributes) and unique indexes would. A uniqueness constraint covers
    /// the entity that declares it and its sub-entities: its index lives in the declaring
    /// entity's table.
    private func write(_ row: Snapshot, objectID: ManagedObjectID, into state: inout State) throws {
        let entity = objectID.entity
        var row = row
        // A REAL column gives back 0.0 for −0.0 (SQLite stores whole reals as integers).
        for slot in entity.realValueSlots where row.values[slot].isNegativeZero { row.values[slot] = row.values[slot].withPositiveZero }
        for attribute in entity.storedAttributes where !attribute.isOptional && row.values[attribute.index].isNull {
            throw ConstraintViolation.missingValue(entity: entity, objectID: objectID, key: attribute.name)
        }
        for (number, keys) in entity.uniquenessConstraints.enumerated() {
            // Like SQLite, rows with a NULL in any constrained column never conflict.
            guard let indexKey = Self.uniqueKey(of: row, for: keys, in: entity) else { continue }
            if let holder = state.tables[constraintOwner(of: entity, number)].uniqueIndexes[number][indexKey], holder != row.primaryKey {
                throw ConstraintViolation.uniqueness(entity: entity, objectID: objectID, keys: keys, values: indexKey.values)
            }
        }
        for (number, keys) in entity.uniquenessConstraints.enumerated() {
            if let indexKey = Self.uniqueKey(of: row, for: keys, in: entity) {
                state.tables[constraintOwner(of: entity, number)].uniqueIndexes[number][indexKey] = row.primaryKey
            }
        }
        state.tables[entity.index].rows[row.primaryKey] = row
    }

    private func removeFromUniqueIndexes(_ row: Snapshot, of entity: EntityDescription, in state: inout State) {
        for (number, keys) in entity.uniquenessConstraints.enumerated() {
            if let indexKey = Self.uniqueKey(of: row, for: keys, in: entity) {
                state.tables[constraintOwner(of: entity, number)].uniqueIndexes[number][indexKey] = nil
            }
        }
    }

    /// The index of the entity that declares uniqueness constraint `number` of `entity` (the
    /// entity itself or an ancestor: inherited constraints come first, in the same positions).
    private func constraintOwner(of entity: EntityDescription, _ number: Int) -> Int {
        var owner = entity
        while number < owner.inheritedCounts.uniquenessConstraints, let parent = owner.parentName.flatMap(model.entity(named:)) {
            owner = parent
        }
        return owner.index
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
