import ObjectGraph
import PostgresNIO

/// Inserts: a save's new rows, each run of one entity's rows one `INSERT … SELECT unnest(…)`
/// taking each column as one array (see `PostgreSQLStoreState+ArrayStatements.swift`: a
/// statement or a buffer per row would dominate a save of many rows). A save made again after
/// one failed writes each row alone (`writesRowByRow`), so the error names the object that broke
/// a constraint.
extension PostgreSQLStoreState {
    /// Writes every insert of a save, `rowKeys` being their rows' keys in order.
    func insertRows(_ inserts: SaveRequest.Inserts, rowKeys: [Int64], keys: SaveKeys) throws {
        var rows: [InsertedRow] = []
        rows.reserveCapacity(inserts.count)
        for (insert, key) in zip(inserts, rowKeys) {
            rows.append(try insertedRow(insert, key: key, table: try table(for: insert.objectID.entity), keys: keys))
        }
        var start = 0
        while start < rows.count {
            let table = rows[start].table
            let end = Self.arrayRunEnd(rows, from: start, bindings: \.bindings) { $0.table === table }
            let run = rows[start..<end]
            if run.count > 1 && !writesRowByRow {
                try together { try insertTogether(run) }
            } else {
                for row in run {
                    try write(insertSQL(table), row.bindings, for: row.objectID, values: row.values, table: table)
                }
            }
            start = end
        }
    }

    /// An inserted row: its object, its values (references resolved) and what its INSERT binds
    /// (the key, the entity's name in a table shared with sub-entities, then the columns; the
    /// version is written into the SQL, as it is the same for every row).
    private struct InsertedRow {
        let objectID: ManagedObjectID
        let table: StoreTable
        let values: ValueRow
        let bindings: [AttributeValue]
    }

    /// `insert` checked as every inserted row is, and made ready to write.
    private func insertedRow(_ insert: SaveRequest.Insert, key: Int64, table: StoreTable, keys: SaveKeys) throws -> InsertedRow {
        try SaveKeys.checkRow(insert.values, of: table.entity, insert.objectID)
        for attribute in table.requiredInNullableColumns where insert.values[attribute.index].isNull {
            throw ConstraintViolation.missingValue(entity: table.entity, objectID: insert.objectID, key: attribute.name)
        }
        let values = try keys.resolvingReferences(in: insert.values, of: insert.objectID)
        var bindings: [AttributeValue] = [.integer(key)]
        bindings.reserveCapacity(table.writeColumns.count + 2)
        if table.kindsFilter != nil { bindings.append(.string(table.entity.name)) }
        for column in table.writeColumns { bindings.append(column.written(values[column.slot])) }
        return InsertedRow(objectID: insert.objectID, table: table, values: values, bindings: bindings)
    }

    /// Writes a run of one table's rows in one statement: `INSERT … SELECT unnest($1), unnest($2),
    /// …`, an array per column (set-returning functions in the select list run in step, with no
    /// result set built first, as `FROM unnest(…)` of several arrays would); a column NULL in
    /// every row has no type to give its array, so it is NULL itself.
    private func insertTogether(_ rows: ArraySlice<InsertedRow>) throws {
        let first = rows[rows.startIndex]
        var data: [PostgresData] = []
        var selected: [String] = []
        for position in first.bindings.indices {
            let array = try PostgreSQLBinaryArray(rows.map { $0.bindings[position] })
            guard let type = array.elementType else {
                selected.append("NULL")
                continue
            }
            data.append(array.data)
            selected.append("unnest(\(dialect.placeholder(data.count))::\(type)[])")
        }
        selected.insert(Self.firstVersionSQL, at: 1)
        try connection.execute(
            "INSERT INTO \(first.table.quotedName) (\(columnNames(first.table))) SELECT \(selected.joined(separator: ", "))", data: data)
    }

    /// `INSERT INTO "T" (…) VALUES (…)` of one row of `table`'s columns.
    private func insertSQL(_ table: StoreTable) -> String {
        let bound = (1...table.writeColumns.count + (table.kindsFilter != nil ? 2 : 1)).map { dialect.placeholder($0) }
        let values = [bound[0], Self.firstVersionSQL] + bound.dropFirst()
        return "INSERT INTO \(table.quotedName) (\(columnNames(table))) VALUES (\(values.joined(separator: ", ")))"
    }

    /// The version of every inserted row, as written after its key. It is written, not left to
    /// the column's default: stores made before `Snapshot.firstVersion` was 2 have a default of 1.
    private static let firstVersionSQL = "\(Snapshot.firstVersion)"

    /// The columns an INSERT into `table` names: the key, the version, then those of
    /// `InsertedRow.bindings` after the key, in order.
    private func columnNames(_ table: StoreTable) -> String {
        ([StoreSchema.primaryKeyColumn, StoreSchema.versionColumn] + (table.kindsFilter != nil ? [TableLayout.entityColumn] : [])
            + table.writeColumns.map(\.name))
            .map(quoteIdentifier).joined(separator: ", ")
    }
}
