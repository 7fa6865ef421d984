import Foundation
import ObjectGraph
import PostgresNIO

/// Saving: one transaction per save, as the SQLite store saves (keys for new rows first, then
/// deletes, updates with their versions checked, inserts, relationship changes), each run of
/// one entity's rows a statement; a failed save rolls back and leaves nothing.
extension PostgreSQLStoreState {
    /// Applies `request`; returns the keys given to inserts that had temporary IDs, in order.
    func save(_ request: SaveRequest) throws -> [Int64] {
        guard !request.isEmpty else { return [] }
        return try save { apply in try apply(request) }
    }

    /// Runs `work` in one transaction; `work` applies save requests with the function it is
    /// given (batch operations read rows in between).
    /// With history recorded, the transaction's history is its last write. When the server
    /// refuses a statement writing many rows, the transaction is rolled back and `work` runs
    /// again in a new one that writes each row alone, so the error says which object broke
    /// which rule (see `ArrayStatementRefused`).
    func save(_ work: (_ apply: (SaveRequest) throws -> [Int64]) throws -> [Int64]) throws -> [Int64] {
        do {
            return try saveOnce(work)
        } catch is ArrayStatementRefused {
            writesRowByRow = true
            defer { writesRowByRow = false }
            return try saveOnce(work)
        }
    }

    private func saveOnce(_ work: (_ apply: (SaveRequest) throws -> [Int64]) throws -> [Int64]) throws -> [Int64] {
        var historyNumber: Int64?
        do {
            let assigned = try connection.transaction {
                pendingHistory = recordsHistory ? PendingHistory() : nil
                defer { pendingHistory = nil }
                let assigned = try work { try applyInTransaction($0) }
                if let pendingHistory, !pendingHistory.records.isEmpty { historyNumber = try writeHistory(pendingHistory) }
                return assigned
            }
            // Only once committed: a number rolled back is given to the next transaction, maybe another store's.
            if let historyNumber { ownCommits.insert(historyNumber) }
            return assigned
        } catch let failure as PostgreSQLFailure {
            throw failure.error("Cannot save to the PostgreSQL store at \(connection.location)")
        }
    }

    private func applyInTransaction(_ request: SaveRequest) throws -> [Int64] {
        try PostgreSQLTextWithNUL.check(request)
        let (rowKeys, assigned) = try primaryKeys(for: request.inserts)
        let keys = SaveKeys(idSpaces: idSpaces, inserts: request.inserts, rowKeys: rowKeys)
        if var history = pendingHistory {
            try history.recordDeletions(of: request, tombstone: tombstone(of:key:_:))
            pendingHistory = history
        }
        var conflicts = try deleteRows(request)
        conflicts.rows += try updateRows(request.updates, keys: keys)
        // Every row was checked, so the error lists every conflict; the transaction rolls back.
        if !conflicts.rows.isEmpty { throw conflicts }
        try insertRows(request.inserts, rowKeys: rowKeys, keys: keys)
        try applyRelationshipChanges(request.relationshipChanges, keys: keys)
        if pendingHistory != nil { pendingHistory?.records += request.writeRecords(rowKeys: rowKeys) }
        return assigned
    }

    /// Deletes rows and the join-table pairs they are part of, each entity's rows a statement per
    /// 100,000 (their keys as arrays); rows whose deletion expects a version are deleted only at it. Rows
    /// left behind were changed since, and are returned as conflicts. A row already gone is not
    /// an error: the save's intent holds.
    private func deleteRows(_ request: SaveRequest) throws -> VersionConflicts {
        var conflicts = VersionConflicts()
        let pk = quoteIdentifier(StoreSchema.primaryKeyColumn)
        let version = quoteIdentifier(StoreSchema.versionColumn)
        var groups: [(entity: EntityDescription, rows: [(objectID: ManagedObjectID, key: Int64, version: Int64)])] = []
        for (position, objectID) in request.deletes.enumerated() {
            let row = (
                objectID, try SaveKeys.savedKey(of: objectID, "delete"),
                request.deleteVersions.isEmpty ? 0 : request.deleteVersions[position]
            )
            if groups.last?.entity === objectID.entity {
                groups[groups.count - 1].rows.append(row)
            } else {
                groups.append((objectID.entity, [row]))
            }
        }
        for (entity, rows) in groups {
            let table = try table(for: entity)
            for start in stride(from: 0, to: rows.count, by: Self.rowsPerArray) {
                let chunk = rows[start..<min(start + Self.rowsPerArray, rows.count)]
                let (versioned, unversioned) = (chunk.filter { $0.version > 0 }, chunk.filter { $0.version == 0 })
                if !unversioned.isEmpty {
                    try write(
                        "DELETE FROM \(table.quotedName) WHERE \(pk) = ANY($1::bigint[])",
                        data: [PostgreSQLBinaryArray.integers(unversioned.map(\.key))],
                        for: unversioned[0].objectID, "Cannot delete")
                }
                if !versioned.isEmpty {
                    let deleted = try write(
                        """
                        DELETE FROM \(table.quotedName) USING unnest($1::bigint[], $2::bigint[]) AS "_gone"("_pk", "_version") \
                        WHERE \(table.quotedName).\(pk) = "_gone"."_pk" AND \(table.quotedName).\(version) = "_gone"."_version"
                        """,
                        data: [
                            PostgreSQLBinaryArray.integers(versioned.map(\.key)), PostgreSQLBinaryArray.integers(versioned.map(\.version))
                        ],
                        for: versioned[0].objectID,
                        "Cannot delete")
                    if deleted < versioned.count {
                        // Rows still there were at another version; rows missing were gone before.
                        let left = try snapshots(of: entity, primaryKeys: versioned.map(\.key))
                        for row in versioned { if let current = left[row.key] { conflicts.rows.append((row.objectID, current)) } }
                    }
                }
                for (joinTable, column) in relationshipLayout.joinColumns(holding: entity, in: model) {
                    try write(
                        "DELETE FROM \(quoteIdentifier(joinTable.name)) WHERE \(quoteIdentifier(column)) = ANY($1::bigint[])",
                        data: [PostgreSQLBinaryArray.integers(chunk.map(\.key))], for: chunk.first!.objectID, "Cannot delete")
                }
            }
        }
        return conflicts
    }

    /// Rows per multi-row statement: well below PostgreSQL's 65,535 parameters for any table.
    static let rowsPerStatement = 500

    /// Runs a write statement; returns how many rows it changed. A failure is explained in
    /// terms of `objectID` (with the row's `values` and `table`, a uniqueness clash or a missing
    /// required value says which property).
    @discardableResult
    func write(
        _ sql: String, _ bindings: [AttributeValue], for objectID: ManagedObjectID, _ doing: String = "Cannot save",
        values: ValueRow? = nil, table: StoreTable? = nil
    ) throws -> Int {
        try write(sql, data: try PostgreSQLValues.data(bindings), for: objectID, doing, values: values, table: table)
    }

    /// `write` of values already encoded.
    @discardableResult
    func write(
        _ sql: String, data: [PostgresData], for objectID: ManagedObjectID, _ doing: String = "Cannot save",
        values: ValueRow? = nil, table: StoreTable? = nil
    ) throws -> Int {
        do {
            return try connection.execute(sql, data: data).changedRows
        } catch let failure as PostgreSQLFailure {
            throw explain(failure, objectID: objectID, doing, values: values, table: table)
        }
    }

    /// A failed row write as the error the SQLite and in-memory stores raise for it.
    private func explain(
        _ failure: PostgreSQLFailure, objectID: ManagedObjectID, _ doing: String, values: ValueRow?, table: StoreTable?
    ) -> ObjectGraphError {
        let entity = table?.entity ?? objectID.entity
        switch failure.sqlState {
        case "23505":
            let columns = failure.constrainedColumns
            if columns == [StoreSchema.primaryKeyColumn] {
                guard let primaryKey = entity.primaryKey, let values else {
                    return ObjectGraphError(
                        .constraintViolation,
                        "Cannot save \(objectID.shortDescription): another \(entity.name) already has its primary key; nothing was written.",
                        entityName: entity.name, objectID: objectID)
                }
                return ConstraintViolation.uniqueness(
                    entity: entity, objectID: objectID, keys: [primaryKey],
                    values: [entity.attribute(named: primaryKey).map { values[$0.index] } ?? .null])
            }
            let attributes = columns.compactMap(entity.attribute(named:))
            if let values, !attributes.isEmpty, attributes.count == columns.count {
                return ConstraintViolation.uniqueness(
                    entity: entity, objectID: objectID, keys: columns, values: attributes.map { values[$0.index] })
            }
        case "23502":
            if let column = failure.column, entity.attribute(named: column) != nil {
                return ConstraintViolation.missingValue(entity: entity, objectID: objectID, key: column)
            }
        default:
            break
        }
        return failure.error("\(doing) \(objectID.shortDescription)", entityName: entity.name, objectID: objectID)
    }
}
