import ObjectGraph
import PostgresNIO

/// Rows as snapshots: the columns of a table's `selectPrefix` (`_pk`, `_version`, `_entity` in
/// shared tables, then the entity's columns) decoded as the table's row decoders say, the same
/// decoders the SQLite store reads with. Needing only the table, a fetch decodes its rows on the
/// connection's event loop as they arrive.
enum PostgreSQLRows {
    static func snapshot(_ cells: PostgreSQLRow, in table: StoreTable) throws -> Snapshot {
        let primaryKey = try cells[0].decode(Int64.self)
        // Object IDs encode temporary numbers as non-positive keys; the store only ever writes
        // keys from 1, so anything else was written behind its back.
        guard primaryKey > 0 else {
            throw ObjectGraphError(
                .corruptStore, "The store is damaged: \(table.entity.name) has a row with primary key \(primaryKey); keys start at 1",
                entityName: table.entity.name)
        }
        let decoder = table.kindsFilter == nil ? table.ownDecoder : table.decoder(forEntityNamed: try rowEntity(cells, in: table).name)!
        var values =
            decoder.fillsEverySlot
            ? ValueRow(capacity: decoder.columns.count, layout: decoder.entity.rowLayout) : decoder.entity.defaultValues
        for column in decoder.columns {
            let value = try value(of: column, in: cells, table: table)
            if decoder.fillsEverySlot { values.append(value) } else { values[column.slot] = value }
        }
        return Snapshot(primaryKey: primaryKey, values: values, version: try cells[1].decode(Int64.self), entityIndex: decoder.entity.index)
    }

    /// The entity of a row of `table` (the `_entity` column of a shared table).
    static func rowEntity(_ cells: PostgreSQLRow, in table: StoreTable) throws -> EntityDescription {
        guard table.kindsFilter != nil else { return table.entity }
        let name = try cells[2].decode(String.self)
        guard let decoder = table.decoder(forEntityNamed: name) else {
            throw ObjectGraphError(
                .corruptStore,
                "The store is damaged: a row of \(table.quotedName) names entity '\(name)', which is not \(table.entity.name) or one of its sub-entities",
                entityName: table.entity.name)
        }
        return decoder.entity
    }

    private static func value(
        of column: StoreTable.Column, in cells: PostgreSQLRow, table: StoreTable
    ) throws -> AttributeValue {
        let cell = cells[Int(column.index)]
        switch column.kind {
        case .attribute(let type):
            return try PostgreSQLValues.value(of: cell, as: type)
        case .reference(let space):
            return try PostgreSQLValues.reference(of: cell, in: space)
        case .hierarchyReference(let entityColumn, let spaces):
            let entityCell = cells[Int(entityColumn)]
            guard entityCell.bytes != nil else {
                guard cell.bytes == nil else {
                    throw ObjectGraphError(
                        .corruptStore, "The store is damaged: \(cell.columnName) of a row of \(table.quotedName) has no destination entity",
                        entityName: table.entity.name)
                }
                return .null
            }
            let name = try entityCell.decode(String.self)
            guard let space = spaces[name] else {
                throw ObjectGraphError(
                    .corruptStore,
                    "The store is damaged: \(cell.columnName) of a row of \(table.quotedName) refers to entity '\(name)', which it cannot hold",
                    entityName: table.entity.name)
            }
            return try PostgreSQLValues.reference(of: cell, in: space)
        }
    }
}
