import ObjectGraph

/// Inserts: a save's new rows, each run of one entity's rows a few multi-row `INSERT`s of
/// `rowsPerStatement` rows. When one fails, its rows are written again one at a time (after a
/// savepoint put the transaction back), so the error names the object that broke a constraint.
extension PostgreSQLStoreState {
    /// Writes every insert of a save, `rowKeys` being their rows' keys in order.
    func insertRows(_ inserts: [SaveRequest.Insert], rowKeys: [Int64], keys: SaveKeys) throws {
        var start = 0
        while start < inserts.count {
            let entity = inserts[start].objectID.entity
            let table = try table(for: entity)
            let perStatement = Self.rowsPerInsert(into: table)
            var end = start + 1
            while end < inserts.count, end - start < perStatement, inserts[end].objectID.entity === entity { end += 1 }
            let rows = try (start..<end).map { try insertedRow(inserts[$0], key: rowKeys[$0], table: table, keys: keys) }
            let writtenTogether =
                try rows.count > 1
                && undoneIfRefused { try connection.execute(insertSQL(table, rows: rows.count), rows.flatMap(\.bindings)) } != nil
            if !writtenTogether {
                for (offset, row) in rows.enumerated() {
                    try write(
                        insertSQL(table, rows: 1), row.bindings, for: inserts[start + offset].objectID, values: row.values, table: table)
                }
            }
            start = end
        }
    }

    /// An inserted row's values (references resolved) and what its INSERT binds, checked as
    /// every inserted row is.
    private func insertedRow(
        _ insert: SaveRequest.Insert, key: Int64, table: StoreTable, keys: SaveKeys
    ) throws -> (values: [AttributeValue], bindings: [AttributeValue]) {
        try SaveKeys.checkRow(insert.values, of: table.entity, insert.objectID)
        for attribute in table.requiredInNullableColumns where insert.values[attribute.index].isNull {
            throw ConstraintViolation.missingValue(entity: table.entity, objectID: insert.objectID, key: attribute.name)
        }
        let values = try keys.resolvingReferences(in: insert.values, of: insert.objectID)
        var bindings: [AttributeValue] = [.integer(key)]
        if table.kindsFilter != nil { bindings.append(.string(table.entity.name)) }
        for column in table.writeColumns { bindings.append(column.written(values[column.slot])) }
        return (values, bindings)
    }

    /// Rows per multi-row INSERT into `table`: below PostgreSQL's 65,535 parameters.
    private static func rowsPerInsert(into table: StoreTable) -> Int {
        max(1, min(rowsPerStatement, 60_000 / (table.writeColumns.count + 2)))
    }

    /// `INSERT INTO "T" (…) VALUES (…), (…)` of `rows` rows of `table`'s columns; those of full
    /// chunks are kept (see `insertStatements`).
    private func insertSQL(_ table: StoreTable, rows: Int) -> String {
        let isFullChunk = rows > 1 && rows == Self.rowsPerInsert(into: table)
        if isFullChunk, let sql = insertStatements[ObjectIdentifier(table)] { return sql }
        let names =
            [StoreSchema.primaryKeyColumn] + (table.kindsFilter != nil ? [TableLayout.entityColumn] : [])
            + table.writeColumns.map(\.name)
        let tuples = (0..<rows).map { "(\(placeholders(names.count, from: $0 * names.count + 1)))" }
        let sql =
            "INSERT INTO \(table.quotedName) (\(names.map(quoteIdentifier).joined(separator: ", "))) VALUES \(tuples.joined(separator: ", "))"
        if isFullChunk { insertStatements[ObjectIdentifier(table)] = sql }
        return sql
    }
}
