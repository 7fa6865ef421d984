import CSQLite

/// Saving: one `BEGIN IMMEDIATE` transaction per save: keys for new rows first, then deletes,
/// updates, inserts and relationship changes, each with a prepared statement reused row after
/// row; the primary-key counters are persisted in the same transaction and restored if it fails,
/// so a failed save leaves no trace at all.
extension SQLiteStoreState {
    /// Applies `request`; returns the keys given to inserts that had temporary IDs, in insert order.
    func save(_ request: SaveRequest) throws -> [Int64] {
        guard !request.isEmpty else { return [] }
        return try save { apply in try apply(request) }
    }

    /// Runs `work` inside one write transaction; `work` applies one or more save requests with
    /// the function it is given, so what it reads in between is what the writes change (batch
    /// operations read their rows, or write a large insert in chunks, this way). Returns the keys
    /// given to inserts with temporary IDs, in order.
    func save(_ work: (_ apply: (SaveRequest) throws -> [Int64]) throws -> [Int64]) throws -> [Int64] {
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
                pendingHistory = recordsHistory ? PendingHistory() : nil
                defer { pendingHistory = nil }
                let assigned = try work { request in try applyInTransaction(request) }
                if primaryKeyCounters != before { try persistPrimaryKeyCounters(changedFrom: before) }
                if let pendingHistory, !pendingHistory.records.isEmpty { try writeHistory(pendingHistory) }
                return assigned
            }
        } catch {
            primaryKeyCounters = before
            throw error
        }
    }

    /// Writes one save request inside the open transaction: keys for new rows first, then
    /// deletes, updates, inserts and relationship changes.
    private func applyInTransaction(_ request: SaveRequest) throws -> [Int64] {
        var rowKeys: [Int64] = []
        rowKeys.reserveCapacity(request.inserts.count)
        var hasPermanentIDs = false
        for insert in request.inserts {
            // A hierarchy shares its root's table, and so its keys.
            let index = model.rootIndexes[insert.objectID.entity.index]
            if let permanent = insert.objectID.primaryKey {
                // Keys obtained in advance were reserved; this only guards against any that were not.
                primaryKeyCounters[index] = max(primaryKeyCounters[index], permanent)
                rowKeys.append(permanent)
                hasPermanentIDs = true
            } else if let declared = try PrimaryKeyRule.declaredKey(in: insert.values, of: insert.objectID) {
                rowKeys.append(declared)
            } else {
                rowKeys.append(try nextPrimaryKey(for: index))
            }
        }
        let keys = SaveKeys(idSpaces: idSpaces, inserts: request.inserts, rowKeys: rowKeys)
        if var history = pendingHistory {
            try history.recordDeletions(of: request, tombstone: tombstone(of:key:_:))
            pendingHistory = history
        }
        var conflicts = try deleteRows(request)
        // By index, not `for … in`: the loop variable would be a copy of each row's references.
        for index in request.updates.indices {
            if let conflict = try apply(request.updates[index], keys: keys) { conflicts.rows.append(conflict) }
        }
        // Every row was checked, so the error lists every conflict; the transaction rolls back.
        if !conflicts.rows.isEmpty { throw conflicts }
        for index in request.inserts.indices {
            try insert(request.inserts[index], key: rowKeys[index], keys: keys)
        }
        try applyRelationshipChanges(request.relationshipChanges, keys: keys)
        if pendingHistory != nil { pendingHistory?.records += request.writeRecords(rowKeys: rowKeys) }
        // The keys of the inserts that had temporary IDs: usually every insert, and then the same
        // array (a second one would take 8 bytes a row).
        guard hasPermanentIDs else { return rowKeys }
        return zip(request.inserts, rowKeys).compactMap { insert, key in insert.objectID.primaryKey == nil ? key : nil }
    }

    /// Deletes rows and the join-table pairs they are part of, each entity's keys in chunks of one
    /// statement (`_pk IN` a JSON array of keys): a large delete is a few statements, not one per
    /// row. A row that is already gone is not an error: the save's intent holds. Rows whose
    /// deletion expects a version are deleted only at that version (`AND "_version" = ?`, one
    /// statement per distinct version in a chunk, usually one); a row left behind was changed
    /// since, and is returned as a conflict (the caller then rolls the transaction back).
    private func deleteRows(_ request: SaveRequest) throws -> VersionConflicts {
        var conflicts = VersionConflicts()
        // Each entity's deletes, as (position in the request, primary key).
        var groups: [(entity: EntityDescription, rows: [(position: Int, key: Int64)])] = []
        for (position, objectID) in request.deletes.enumerated() {
            let row = (position, try SaveKeys.savedKey(of: objectID, "delete"))
            if groups.last?.entity === objectID.entity {
                groups[groups.count - 1].rows.append(row)
            } else {
                groups.append((objectID.entity, [row]))
            }
        }
        for (entity, rows) in groups {
            let table = try table(for: entity)
            let primaryKey = quoteIdentifier(StoreSchema.primaryKeyColumn)
            for start in stride(from: 0, to: rows.count, by: Self.deleteChunk) {
                // Versions are few (usually one): a short list of groups, not a hash per row.
                var byVersion: [(version: Int64, members: [(position: Int, key: Int64)])] = []
                for row in rows[start..<min(start + Self.deleteChunk, rows.count)] {
                    let version = request.deleteVersions.isEmpty ? 0 : request.deleteVersions[row.position]
                    if let group = byVersion.lastIndex(where: { $0.version == version }) {
                        byVersion[group].members.append(row)
                    } else {
                        byVersion.append((version, [row]))
                    }
                }
                for (version, members) in byVersion {
                    // Runs of consecutive keys (a cascade's children, a range of rows) go as one
                    // key range each, which SQLite deletes walking the table in order; the rest
                    // as a key list.
                    var deleted = 0
                    var scattered: [Int64] = []
                    for run in Self.consecutiveRuns(members.map(\.key)) {
                        guard run.count >= Self.rangeDeleteMinimum else {
                            scattered += run
                            continue
                        }
                        deleted += try deleteRows(
                            of: entity, in: table, where: "\(primaryKey) BETWEEN ? AND ?",
                            [.integer(run.lowerBound), .integer(run.upperBound - 1)], version: version)
                    }
                    if !scattered.isEmpty {
                        deleted += try deleteRows(
                            of: entity, in: table, where: "\(primaryKey) IN (SELECT value FROM json_each(?))",
                            [.string(Self.keyList(scattered))], version: version)
                    }
                    if version > 0, deleted < members.count {
                        // Rows still there were at another version; rows missing were gone before.
                        let left = try reader.snapshots(of: entity, primaryKeys: members.map(\.key))
                        for member in members {
                            if let row = left[member.key] { conflicts.rows.append((request.deletes[member.position], row)) }
                        }
                    }
                }
            }
            for (name, column) in relationshipLayout.joinColumns(holding: entity, in: model).map({
                (quoteIdentifier($0.table.name), quoteIdentifier($0.column))
            }) {
                let statement = try connection.cachedStatement("DELETE FROM \(name) WHERE \(column) IN (SELECT value FROM json_each(?))")
                for start in stride(from: 0, to: rows.count, by: Self.deleteChunk) {
                    statement.reset()
                    try statement.bind(.string(Self.keyList(rows[start..<min(start + Self.deleteChunk, rows.count)].map(\.key))), at: 1)
                    _ = try statement.step(explainingFailure: { $0.error("Cannot delete \(entity.name) objects", entityName: entity.name) })
                }
                statement.reset()
            }
        }
        return conflicts
    }

    /// Deletes the rows of `entity` in `table` matching `condition` with `values` bound in order,
    /// only at `version` when it is positive; returns how many rows went.
    private func deleteRows(
        of entity: EntityDescription, in table: StoreTable, where condition: String, _ values: [AttributeValue], version: Int64
    ) throws -> Int {
        let versionTest = version > 0 ? " AND \(quoteIdentifier(StoreSchema.versionColumn)) = ?" : ""
        let statement = try connection.cachedStatement("DELETE FROM \(table.quotedName) WHERE \(condition)\(versionTest)")
        statement.reset()
        try statement.bind(version > 0 ? values + [.integer(version)] : values)
        _ = try statement.step(explainingFailure: { $0.error("Cannot delete \(entity.name) objects", entityName: entity.name) })
        statement.reset()
        return connection.changes
    }

    /// `keys` cut into runs of consecutive integers, in order: `[3, 4, 5, 9]` is `3..<6, 9..<10`.
    static func consecutiveRuns(_ keys: [Int64]) -> [Range<Int64>] {
        var runs: [Range<Int64>] = []
        for key in keys {
            if let last = runs.last, last.upperBound == key {
                runs[runs.count - 1] = last.lowerBound..<key + 1
            } else {
                runs.append(key..<key + 1)
            }
        }
        return runs
    }

    /// The shortest run of consecutive keys deleted as a range rather than listed.
    private static let rangeDeleteMinimum = 8

    /// Keys as the JSON array `json_each` reads, written digit by digit: a string per key and
    /// a join cost ten times as much, for every key of a large delete.
    static func keyList(_ keys: [Int64]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(keys.count * 8 + 2)
        text.append(UInt8(ascii: "["))
        var digits: [UInt8] = Array(repeating: 0, count: 20)
        for (position, key) in keys.enumerated() {
            if position > 0 { text.append(UInt8(ascii: ",")) }
            if key < 0 { text.append(UInt8(ascii: "-")) }
            var rest = key.magnitude
            var first = digits.count
            repeat {
                first -= 1
                digits[first] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            text.append(contentsOf: digits[first...])
        }
        text.append(UInt8(ascii: "]"))
        return String(decoding: text, as: UTF8.self)
    }

    /// Keys per DELETE statement: large enough that statements are few, small enough that the
    /// JSON text stays small.
    private static let deleteChunk = 1_000

    /// Writes the changed stored attributes and to-one relationships of a row and bumps its
    /// version; returns the conflict instead when the row is not at the version the update
    /// expects.
    private func apply(_ update: SaveRequest.Update, keys: SaveKeys) throws -> (objectID: ManagedObjectID, current: Snapshot?)? {
        let table = try table(for: update.objectID.entity)
        let key = try SaveKeys.savedKey(of: update.objectID, "update")
        try SaveKeys.checkRow(update.values, of: update.objectID.entity, update.objectID)
        let plan = try updatePlan(
            for: table, changing: update.changedAttributes, checkingVersion: update.expectedVersion != nil, of: update.objectID)
        let statement = plan.statement
        statement.reset()
        // In place, as in `insertRow`: a copied column retains its name.
        try plan.columns.withUnsafeBufferPointer { columns in
            for index in columns.indices {
                try bind(
                    update.values[columns[index].slot], of: columns, index, at: Int32(index + 1), in: statement, keys: keys,
                    objectID: update.objectID)
            }
        }
        let parameter = Int32(plan.columns.count + 1)
        try statement.bind(.integer(key), at: parameter)
        if let expected = update.expectedVersion { try statement.bind(.integer(expected), at: parameter + 1) }
        _ = try statement.step(explainingFailure: { explain($0, objectID: update.objectID, values: update.values, table: table) })
        guard connection.changes == 0 else { return nil }
        guard update.expectedVersion != nil else { throw ConstraintViolation.rowGone(update.objectID) }
        return (update.objectID, try reader.snapshots(of: update.objectID.entity, primaryKeys: [key])[key])
    }

    /// Inserts a row under `key`.
    private func insert(_ insert: SaveRequest.Insert, key: Int64, keys: SaveKeys) throws {
        try insertRow(insert.values, key: key, into: try table(for: insert.objectID.entity), keys: keys, objectID: insert.objectID)
    }

    /// Inserts `values`, a value row of `table`'s entity, under `key`, checked as every inserted
    /// row is (its width, its references, required values SQLite does not check, then the
    /// table's constraints); `objectID` names the row in errors, and is made only for one.
    func insertRow(
        _ values: ValueRow, key: Int64, into table: StoreTable, keys: SaveKeys, objectID: @autoclosure () -> ManagedObjectID
    ) throws {
        try SaveKeys.checkRow(values, of: table.entity, objectID())
        // Worded as the in-memory store words it; NOT NULL columns fail in the step, explained
        // alike. Read in place: an attribute copied out of the array is retained.
        try table.requiredInNullableColumns.withUnsafeBufferPointer { required in
            for attribute in required where values.isNull(at: attribute.index) {
                throw ConstraintViolation.missingValue(entity: table.entity, objectID: objectID(), key: attribute.name)
            }
        }
        let statement = try table.insert(on: connection)
        statement.reset()
        try statement.bind(.integer(key), at: 1)
        // Parameter 1 is `_pk`, the written columns follow from 2; strings go through the
        // statement's buffer. The columns are read in place, as the update reads its own: a
        // column copied out of an array retains its name.
        statement.startBufferedRow()
        try table.writeColumns.withUnsafeBufferPointer { columns in
            for index in columns.indices {
                let parameter = Int32(index + 2)
                // A string is bound from the row in place: reading the slot would copy it (a
                // retain and a release, several times over on the way to the statement).
                let boundInPlace =
                    try !columns[index].bindsEntityName
                    && values.withStringUTF8(at: columns[index].slot) { try statement.bindBuffered($0, at: parameter) } != nil
                if !boundInPlace {
                    try bind(
                        values[columns[index].slot], of: columns, index, at: parameter, in: statement, keys: keys,
                        objectID: objectID(), buffersText: true)
                }
            }
        }
        // The explanation is made only for a failure: a closure made before the step would
        // retain what it captures for every row.
        let code = statement.stepCode()
        guard code == SQLITE_DONE else {
            throw statement.failure(code, explain: { explain($0, objectID: objectID(), values: values, table: table) })
        }
    }

    /// Binds what `columns[index]` stores of `value` (a slot of `objectID`'s row). A destination inserted
    /// by this save is bound by the key the save gave it, so the row is not copied to hold its
    /// permanent ID; a to-one's column is named after its relationship. With `buffersText`,
    /// strings go through the statement's text buffer (`startBufferedRow()` started its row).
    @inline(__always)
    private func bind(
        _ value: AttributeValue, of columns: UnsafeBufferPointer<StoreTable.WriteColumn>, _ index: Int, at parameter: Int32,
        in statement: SQLiteStatement, keys: SaveKeys, objectID: @autoclosure () -> ManagedObjectID, buffersText: Bool = false
    ) throws {
        // The column is read where it is, not passed: a copy of it retains its name. The value is
        // matched as it is: `written(_:)` would copy it, references and all.
        if columns[index].bindsEntityName { return try statement.bind(columns[index].written(value), at: parameter) }
        switch value {
        case .string(let string) where buffersText: try statement.bindBuffered(string, at: parameter)
        case .object(let destination) where destination.isTemporaryID:
            let key = try keys.key(of: destination, referencedBy: objectID(), through: columns[index].name)
            try statement.bind(.integer(key), at: parameter)
        default: try statement.bind(value, at: parameter)
        }
    }

    /// The UPDATE for this combination of changed attributes, prepared once. Transient
    /// attributes are never written; with no stored change the row's version is still bumped,
    /// which also proves the row exists.
    private func updatePlan(
        for table: StoreTable, changing changed: [Int], checkingVersion: Bool, of objectID: ManagedObjectID
    ) throws -> UpdatePlan {
        let shape = UpdateShape(entity: table.entity.index, changedAttributes: changed, checksVersion: checkingVersion)
        if let last = lastUpdatePlan, last.shape == shape { return last.plan }
        if let plan = updatePlans[shape] {
            lastUpdatePlan = (shape, plan)
            return plan
        }
        let entity = table.entity
        var columns: [StoreTable.WriteColumn] = []
        for slot in changed where !columns.contains(where: { $0.slot == slot }) {
            guard slot >= 0 && slot < entity.rowWidth else {
                throw ObjectGraphError(
                    .invalidOperation, "Cannot save \(objectID.shortDescription): property slot \(slot) does not exist",
                    entityName: entity.name, objectID: objectID)
            }
            // Transient attributes have no column.
            columns += table.writeColumns.filter { $0.slot == slot }
        }
        let version = quoteIdentifier(StoreSchema.versionColumn)
        let assignments = columns.map { "\(quoteIdentifier($0.name)) = ?" } + ["\(version) = \(version) + 1"]
        let versionTest = checkingVersion ? " AND \(version) = ?" : ""
        let sql =
            "UPDATE \(table.quotedName) SET \(assignments.joined(separator: ", ")) WHERE \(quoteIdentifier(StoreSchema.primaryKeyColumn)) = ?\(versionTest)"
        let plan = UpdatePlan(statement: try connection.cachedStatement(sql), columns: columns)
        // Shapes are few in practice; the bound only stops a pathological caller growing the map.
        if updatePlans.count >= SQLiteConnection.statementCacheLimit { updatePlans.removeAll() }
        updatePlans[shape] = plan
        lastUpdatePlan = (shape, plan)
        return plan
    }

}
