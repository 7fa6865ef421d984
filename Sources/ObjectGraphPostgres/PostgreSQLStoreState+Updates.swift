import ObjectGraph
import PostgresNIO

/// Updates: a save's changed rows, each run of one entity's rows that changed the same columns
/// one statement (see `PostgreSQLStoreState+ArrayStatements.swift`; a round trip per row would
/// dominate a save of many rows); rows the statement left alone (at another version, or gone)
/// are written again one row at a time, so each conflict is found and explained per object, and
/// so is every row of a save made again after a statement failed (`writesRowByRow`).
extension PostgreSQLStoreState {
    /// Writes every update of a save; returns the rows that were at another version.
    func updateRows(_ updates: [SaveRequest.Update], keys: SaveKeys) throws -> [(objectID: ManagedObjectID, current: Snapshot?)] {
        var conflicts: [(objectID: ManagedObjectID, current: Snapshot?)] = []
        var previous: UpdatedRow?
        let rows = try updates.map { update in
            let row = try updatedRow(update, keys: keys, after: previous)
            previous = row
            return row
        }
        var start = 0
        while start < rows.count {
            let first = rows[start]
            let end = Self.arrayRunEnd(rows, from: start, bindings: \.bindings) { $0.isBatched(with: first) }
            let run = rows[start..<end]
            let left = run.count == 1 || writesRowByRow ? Set(run.map(\.key)) : try together { try updateTogether(run) }
            for row in run where left.contains(row.key) {
                if let conflict = try update(row) { conflicts.append(conflict) }
            }
            start = end
        }
        return conflicts
    }

    /// An update checked and ready to write: its row's key, its values with references resolved,
    /// the columns it changes, and what a statement binds for it: the columns' values, then the
    /// expected version when there is one (made once: measuring a run and writing it both read it).
    /// A class: a save of many rows hands each around several times, and copying a struct of
    /// this many references cost more than writing its values.
    private final class UpdatedRow {
        let update: SaveRequest.Update
        let table: StoreTable
        let key: Int64
        let values: ValueRow
        let columns: [StoreTable.WriteColumn]
        let bindings: [AttributeValue]

        /// Whether one statement can write both rows: same table and columns, both checking
        /// their versions or neither.
        init(
            update: SaveRequest.Update, table: StoreTable, key: Int64, values: ValueRow, columns: [StoreTable.WriteColumn],
            bindings: [AttributeValue]
        ) {
            self.update = update
            self.table = table
            self.key = key
            self.values = values
            self.columns = columns
            self.bindings = bindings
        }

        func isBatched(with other: UpdatedRow) -> Bool {
            table.entity === other.table.entity && (update.expectedVersion == nil) == (other.update.expectedVersion == nil)
                && columns.elementsEqual(other.columns) { $0.name == $1.name }
        }
    }

    /// `update` checked and ready to write; the columns it changes are `previous`'s when both
    /// change the same attributes of the same table (a save of many rows usually changes the
    /// same few everywhere, and shares one array of them).
    private func updatedRow(_ update: SaveRequest.Update, keys: SaveKeys, after previous: UpdatedRow?) throws -> UpdatedRow {
        let table = try table(for: update.objectID.entity)
        let key = try SaveKeys.savedKey(of: update.objectID, "update")
        try SaveKeys.checkRow(update.values, of: update.objectID.entity, update.objectID)
        let values = try keys.resolvingReferences(in: update.values, of: update.objectID)
        let columns: [StoreTable.WriteColumn]
        if let previous, previous.table === table, previous.update.changedAttributes == update.changedAttributes {
            columns = previous.columns
        } else {
            columns = try changedColumns(of: update, in: table)
        }
        let bindings = columns.map { $0.written(values[$0.slot]) } + (update.expectedVersion.map { [.integer($0)] } ?? [])
        return UpdatedRow(update: update, table: table, key: key, values: values, columns: columns, bindings: bindings)
    }

    /// The columns `update` writes: those of its changed attributes, each once.
    private func changedColumns(of update: SaveRequest.Update, in table: StoreTable) throws -> [StoreTable.WriteColumn] {
        var columns: [StoreTable.WriteColumn] = []
        for slot in update.changedAttributes where !columns.contains(where: { $0.slot == slot }) {
            guard slot >= 0 && slot < table.entity.rowWidth else {
                throw ObjectGraphError(
                    .invalidOperation, "Cannot save \(update.objectID.shortDescription): property slot \(slot) does not exist",
                    entityName: table.entity.name, objectID: update.objectID)
            }
            columns += table.writeColumns.filter { $0.slot == slot }
        }
        return columns
    }

    /// Writes several rows in one statement; returns the keys of the rows it left alone, which
    /// the server finds, so only those come back. The keys and the expected versions come as
    /// `bigint[]` (`PostgreSQLBinaryArray.integers`), each changed column's new values as one
    /// array (`PostgreSQLBinaryArray`), all joined by `unnest`; a column that is NULL in every
    /// row has no type to give its array, so it is assigned NULL itself instead.
    private func updateTogether(_ rows: ArraySlice<UpdatedRow>) throws -> Set<Int64> {
        let first = rows[rows.startIndex]
        let pk = quoteIdentifier(StoreSchema.primaryKeyColumn)
        let version = quoteIdentifier(StoreSchema.versionColumn)
        let target = first.table.quotedName
        var data = [PostgreSQLBinaryArray.integers(rows.map(\.key))]
        var sources = ["$1::bigint[]"]
        var sourceNames = [pk]
        for (position, column) in first.columns.enumerated() {
            let array = try PostgreSQLBinaryArray(rows.map { $0.bindings[position] })
            guard let type = array.elementType else { continue }
            data.append(array.data)
            sources.append("\(dialect.placeholder(data.count))::\(type)[]")
            sourceNames.append(quoteIdentifier(column.name))
        }
        let checksVersion = first.update.expectedVersion != nil
        if checksVersion {
            // Every row of the run has one (`isBatched`).
            data.append(PostgreSQLBinaryArray.integers(rows.compactMap(\.update.expectedVersion)))
            sources.append("\(dialect.placeholder(data.count))::bigint[]")
            sourceNames.append(version)
        }
        var assignments = first.columns.map { column in
            let name = quoteIdentifier(column.name)
            return "\(name) = " + (sourceNames.contains(name) ? "\"_new\".\(name)" : "NULL")
        }
        assignments.append("\(version) = \(target).\(version) + 1")
        let sql = """
            WITH "_changed" AS (UPDATE \(target) SET \(assignments.joined(separator: ", ")) \
            FROM unnest(\(sources.joined(separator: ", "))) AS "_new"(\(sourceNames.joined(separator: ", "))) \
            WHERE \(target).\(pk) = "_new".\(pk)\(checksVersion ? " AND \(target).\(version) = \"_new\".\(version)" : "") \
            RETURNING \(target).\(pk)) \
            SELECT \(pk) FROM unnest($1::bigint[]) AS "_all"(\(pk)) \
            WHERE NOT EXISTS (SELECT 1 FROM "_changed" WHERE "_changed".\(pk) = "_all".\(pk))
            """
        return Set(try connection.execute(sql, data: data).rows.map { try $0[0].decode(Int64.self) })
    }

    /// Writes one row's changed columns and bumps its version; returns the conflict instead when
    /// the row is not at the version it expects.
    private func update(_ row: UpdatedRow) throws -> (objectID: ManagedObjectID, current: Snapshot?)? {
        let version = quoteIdentifier(StoreSchema.versionColumn)
        var bindings = Array(row.bindings.prefix(row.columns.count))
        var assignments = row.columns.enumerated().map { "\(quoteIdentifier($1.name)) = $\($0 + 1)" }
        assignments.append("\(version) = \(version) + 1")
        bindings.append(.integer(row.key))
        var sql =
            "UPDATE \(row.table.quotedName) SET \(assignments.joined(separator: ", ")) WHERE \(quoteIdentifier(StoreSchema.primaryKeyColumn)) = $\(bindings.count)"
        if let expected = row.update.expectedVersion {
            bindings.append(.integer(expected))
            sql += " AND \(version) = $\(bindings.count)"
        }
        let objectID = row.update.objectID
        guard try write(sql, bindings, for: objectID, values: row.values, table: row.table) == 0 else { return nil }
        guard row.update.expectedVersion != nil else { throw ConstraintViolation.rowGone(objectID) }
        return (objectID, try snapshots(of: objectID.entity, primaryKeys: [row.key])[row.key])
    }
}
