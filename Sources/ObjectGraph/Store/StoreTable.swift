import CSQLite
import Foundation

/// One entity's view of its table (its own, or its hierarchy root's) in a SQL store — SQLite's,
/// and PostgreSQL's with its own SQL text: the SQL worked out once at open, how result columns map to value-row slots, and the writer's INSERT statement,
/// kept here so an insert costs no SQL building and no cache lookup. Everything but that
/// statement is immutable, so readers on other threads share the table (see `SQLiteStoreTables`);
/// the statement belongs to the writer's connection and is touched only on the store's queue.
package final class StoreTable {
    /// A stored attribute's or to-one relationship's place in a SELECT row and in the value row.
    package struct Column {
        package enum Kind {
            case attribute(AttributeType)
            /// A foreign key to objects of this ID space.
            case reference(ObjectIDSpace)
            /// A foreign key to an entity with sub-entities: the destination's entity name is in
            /// result column `entityColumn`.
            case hierarchyReference(entityColumn: Int32, spaces: [String: ObjectIDSpace])
        }
        /// The result column (0 is `_pk`, 1 is `_version`, 2 is `_entity` in shared tables).
        package let index: Int32
        /// The property's slot in the value row.
        package let slot: Int
        package let kind: Kind
        /// Whether SQLite itself keeps the column's values to its attribute type's storage class
        /// and never NULL (a `NOT NULL` column of a `STRICT` table, typed other than `ANY`), so
        /// a read need not ask for the storage class: a call into SQLite per column of every row.
        let isStrict: Bool
        /// Whether the column holds a string attribute; kept apart from `kind` so that asking
        /// does not copy the kind (and retain what it references) for every column of every row.
        let isString: Bool
        /// How a row's fill reads the column: like `isString`, a tag that is copied without
        /// retaining anything, and one that lets the usual columns go into the row without an
        /// `AttributeValue` of a case known only at run time in between.
        let read: Read
        /// The ID space of a `.reference` column, apart from `kind` for the same reason.
        let referenceSpace: ObjectIDSpace?

        /// The columns a fill reads directly: strict numbers and dates (never NULL, of their
        /// storage class), and references; `other` goes through `kind`.
        enum Read {
            /// An integer attribute of this type.
            case integer(AttributeType)
            case double, date, reference, other
        }

        init(index: Int32, slot: Int, kind: Kind, isStrict: Bool) {
            self.index = index
            self.slot = slot
            self.kind = kind
            self.isStrict = isStrict
            if case .attribute(.string) = kind { isString = true } else { isString = false }
            switch kind {
            case .attribute(let type) where isStrict && type.isInteger: read = .integer(type)
            case .attribute(.double) where isStrict: read = .double
            case .attribute(.date) where isStrict: read = .date
            case .reference: read = .reference
            default: read = .other
            }
            if case .reference(let space) = kind { referenceSpace = space } else { referenceSpace = nil }
        }
    }

    /// How the row of one entity becomes a value row. A class: a reader takes one per row, and
    /// a copy of a structure would retain each of its references.
    package final class RowDecoder {
        package let entity: EntityDescription
        package let columns: [Column]
        /// Whether the columns are exactly the slots 0, 1, 2, … in order (no transient
        /// attributes), so a row can be built front to back.
        package let fillsEverySlot: Bool
        /// The columns of string attributes, in order: their text the row may keep in itself.
        let stringColumns: [Column]
        /// The entity's row layout and position in the model, read once per row: kept here so a
        /// row's fill does not retain the entity to read them.
        let rowLayout: ValueRowLayout
        let entityIndex: Int

        init(entity: EntityDescription, columns: [Column], fillsEverySlot: Bool) {
            self.entity = entity
            self.columns = columns
            self.fillsEverySlot = fillsEverySlot
            stringColumns = columns.filter(\.isString)
            rowLayout = entity.rowLayout
            entityIndex = entity.index
        }
    }

    /// A column an INSERT or UPDATE writes: the value in `slot`, or for `bindsEntityName` the
    /// entity name of the object ID in `slot`.
    package struct WriteColumn {
        package let name: String
        package let slot: Int
        let bindsEntityName: Bool

        /// What the column stores of `value`: the value, or the entity name of a referenced object.
        @inline(__always)
        package func written(_ value: AttributeValue) -> AttributeValue {
            guard bindsEntityName else { return value }
            if case .object(let objectID) = value { return .string(objectID.entity.name) }
            return .null
        }
    }

    package let entity: EntityDescription
    /// The quoted table name (the hierarchy root's).
    package let quotedName: String
    /// `"_entity" IN (…)` matching the entity and its sub-entities, when the table is shared.
    package let kindsFilter: String?
    /// `"_entity" = '…'` matching this entity only, when the table is shared.
    package let ownFilter: String?
    /// `SELECT "_pk", "_version", ["_entity",] <columns of the entity and its sub-entities> FROM "Root"`.
    package let selectPrefix: String
    /// The decoder of each entity a SELECT of `selectPrefix` may return, by entity name; one
    /// entry when the table is not shared.
    private let decoders: [String: RowDecoder]
    /// The decoder of the entity's own rows.
    package let ownDecoder: RowDecoder
    /// What an INSERT binds after `_pk`, in parameter order from 2, and what updates assign.
    package let writeColumns: [WriteColumn]
    /// The entity's required attributes whose columns SQLite lets be NULL (a sub-entity's, in
    /// its hierarchy's table): an insert checks these itself.
    package let requiredInNullableColumns: [AttributeDescription]
    let insertSQL: String
    let selectByKeySQL: String
    /// Many rows by key in one statement whatever their number: the keys come as one JSON array.
    let selectByKeysSQL: String
    /// The rows whose keys lie between two bounds, in key order.
    let selectByKeyRangeSQL: String

    /// Touched only on the store's queue (see the type's note), so without exclusivity checks.
    @exclusivity(unchecked) private var insertStatement: SQLiteStatement?

    package init(entity: EntityDescription, layout: TableLayout, isStrict: Bool, model: ManagedObjectModel, idSpaces: [ObjectIDSpace]) {
        self.entity = entity
        let table = quoteIdentifier(layout.root.name)
        let primaryKey = quoteIdentifier(StoreSchema.primaryKeyColumn)
        let shared = layout.hasEntityColumn
        self.quotedName = table
        let kinds = model.kinds(of: entity)
        kindsFilter = shared ? TableLayout.entityFilter(kinds) : nil
        ownFilter = shared ? TableLayout.entityFilter([entity]) : nil

        // The columns any of the kinds uses, in table order.
        let used = Set(kinds.flatMap { Self.writeColumns(of: $0, layout: layout, model: model).map(\.name) })
        let selected = layout.columns.map(\.name).filter(used.contains)
        let firstColumn: Int32 = shared ? 3 : 2
        var resultColumn: [String: Int32] = [:]
        for (offset, name) in selected.enumerated() { resultColumn[name] = firstColumn + Int32(offset) }
        let spacesByName = Dictionary(uniqueKeysWithValues: idSpaces.map { ($0.entity.name, $0) })
        let strictColumns = isStrict ? Set(layout.columns.filter { $0.isRequired && $0.type != "ANY" }.map(\.name)) : []
        var decoders: [String: RowDecoder] = [:]
        for kind in kinds {
            var columns: [Column] = []
            for attribute in kind.storedAttributes {
                // A primary key is read from `_pk`, result column 0, never NULL.
                columns.append(
                    Column(
                        index: attribute.isPrimaryKey ? 0 : resultColumn[layout.column(of: attribute)]!, slot: attribute.index,
                        kind: .attribute(attribute.type),
                        isStrict: attribute.isPrimaryKey || strictColumns.contains(layout.column(of: attribute))))
            }
            for relationship in kind.toOneRelationships {
                let index = resultColumn[relationship.name]!
                if let entityColumn = TableLayout.referenceEntityColumn(relationship, model: model) {
                    let spaces = spacesByName.filter { name, _ in
                        model.kinds(of: model.entities[relationship.destinationIndex]).contains { $0.name == name }
                    }
                    columns.append(
                        Column(
                            index: index, slot: relationship.slot,
                            kind: .hierarchyReference(entityColumn: resultColumn[entityColumn]!, spaces: spaces), isStrict: false))
                } else {
                    columns.append(
                        Column(
                            index: index, slot: relationship.slot, kind: .reference(idSpaces[relationship.destinationIndex]),
                            isStrict: false))
                }
            }
            let slots = columns.map(\.slot)
            let fillsEverySlot = slots == Array(0..<kind.rowWidth)
            decoders[kind.name] = RowDecoder(entity: kind, columns: columns, fillsEverySlot: fillsEverySlot)
        }
        self.decoders = decoders
        self.ownDecoder = decoders[entity.name]!
        let system =
            [primaryKey, quoteIdentifier(StoreSchema.versionColumn)] + (shared ? [quoteIdentifier(TableLayout.entityColumn)] : [])
        self.selectPrefix = "SELECT \((system + selected.map(quoteIdentifier)).joined(separator: ", ")) FROM \(table)"

        let writes = Self.writeColumns(of: entity, layout: layout, model: model)
        self.writeColumns = writes
        let notNull = Set(layout.columns.filter(\.isRequired).map(\.name))
        self.requiredInNullableColumns = entity.storedAttributes.filter { !$0.isOptional && !notNull.contains(layout.column(of: $0)) }
        // The version is written, not left to the column's default: stores made before
        // `Snapshot.firstVersion` was 2 have a default of 1.
        let inserted =
            [primaryKey, quoteIdentifier(StoreSchema.versionColumn)] + (shared ? [quoteIdentifier(TableLayout.entityColumn)] : [])
            + writes.map { quoteIdentifier($0.name) }
        let placeholders = ["?", "\(Snapshot.firstVersion)"] + (shared ? ["'\(entity.name)'"] : []) + writes.map { _ in "?" }
        self.insertSQL = "INSERT INTO \(table) (\(inserted.joined(separator: ", "))) VALUES (\(placeholders.joined(separator: ", ")))"
        let own = ownFilter.map { " AND \($0)" } ?? ""
        self.selectByKeySQL = "\(selectPrefix) WHERE \(primaryKey) = ?\(own)"
        self.selectByKeysSQL = "\(selectPrefix) WHERE \(primaryKey) IN (SELECT value FROM json_each(?))\(own) ORDER BY \(primaryKey)"
        self.selectByKeyRangeSQL = "\(selectPrefix) WHERE \(primaryKey) BETWEEN ? AND ?\(own) ORDER BY \(primaryKey)"
    }

    /// The columns `entity`'s rows use: stored attributes, then to-one foreign keys (each followed
    /// by its destination-entity column when the destination has sub-entities).
    private static func writeColumns(of entity: EntityDescription, layout: TableLayout, model: ManagedObjectModel) -> [WriteColumn] {
        // A primary key is written as the row's `_pk`, never as a column of its own.
        entity.storedAttributes.filter { !$0.isPrimaryKey }.map {
            WriteColumn(name: layout.column(of: $0), slot: $0.index, bindsEntityName: false)
        }
            + entity.toOneRelationships.flatMap { relationship in
                [WriteColumn(name: relationship.name, slot: relationship.slot, bindsEntityName: false)]
                    + (TableLayout.referenceEntityColumn(relationship, model: model).map {
                        [WriteColumn(name: $0, slot: relationship.slot, bindsEntityName: true)]
                    } ?? [])
            }
    }

    /// The decoder of the rows of the entity named `name` (the entity or a sub-entity), or `nil`
    /// for a name the table's rows cannot have.
    package func decoder(forEntityNamed name: String) -> RowDecoder? {
        decoders[name]
    }

    func insert(on connection: SQLiteConnection) throws -> SQLiteStatement {
        try Self.prepared(&insertStatement, insertSQL, on: connection)
    }

    /// Releases the values the write statements still hold from the last save.
    func releaseBindings() {
        insertStatement?.releaseBindings()
    }

    /// Drops the statements, so closing the connection finalizes everything at once.
    func releaseStatements() {
        insertStatement = nil
    }

    static func prepared(_ slot: inout SQLiteStatement?, _ sql: String, on connection: SQLiteConnection) throws -> SQLiteStatement {
        if let statement = slot { return statement }
        let statement = try connection.prepare(sql, flags: UInt32(SQLITE_PREPARE_PERSISTENT))
        slot = statement
        return statement
    }

    /// The current row of `statement` (a SELECT starting with `selectPrefix`'s columns) as a
    /// snapshot of its entity; transient attributes hold their defaults.
    @inline(__always)
    func snapshot(from statement: SQLiteStatement) throws -> Snapshot {
        let primaryKey = statement.int64(at: 0)
        // Object IDs encode temporary numbers as non-positive keys; the store only ever writes
        // keys from 1, so anything else was written behind its back.
        guard primaryKey > 0 else {
            throw ObjectGraphError(
                .corruptStore, "The store is damaged: \(entity.name) has a row with primary key \(primaryKey); keys start at 1",
                entityName: entity.name)
        }
        guard kindsFilter == nil else {
            return try snapshot(from: statement, primaryKey: primaryKey, decoder: decoders[try rowEntity(in: statement).name]!)
        }
        // Borrowed, as the table holds it: a retain and a release per row otherwise.
        return try Unmanaged.passUnretained(ownDecoder)._withUnsafeGuaranteedRef {
            try snapshot(from: statement, primaryKey: primaryKey, decoder: $0)
        }
    }

    /// The current row of `statement`, whose key is `primaryKey`, as `decoder` reads it.
    @inline(__always)
    private func snapshot(from statement: SQLiteStatement, primaryKey: Int64, decoder: RowDecoder) throws -> Snapshot {
        let values: ValueRow
        if decoder.fillsEverySlot {
            // Built in place: no copy of the default row to overwrite slot by slot. The columns
            // are read in place: a copy of an array retains it.
            // Each string's bytes are found first, in SQLite's buffer, so the row is made with
            // room for their text; the buffers stay valid until the next step.
            values = try decoder.stringColumns.withUnsafeBufferPointer { strings in
                try fill(from: statement, decoder: decoder, strings: strings)
            }
        } else {
            var row = decoder.entity.defaultValues
            for column in decoder.columns {
                row[column.slot] = try value(of: column, in: statement)
            }
            values = row
        }
        return Snapshot(primaryKey: primaryKey, values: values, version: statement.int64(at: 1), entityIndex: decoder.entityIndex)
    }

    /// A row of every column of `decoder`, whose string columns are `strings`, built front to back.
    @inline(__always)
    private func fill(
        from statement: SQLiteStatement, decoder: RowDecoder, strings: UnsafeBufferPointer<Column>
    ) throws -> ValueRow {
        try withUnsafeTemporaryAllocation(of: UnsafeBufferPointer<UInt8>?.self, capacity: strings.count) { texts in
            var textCapacity = 0
            for index in strings.indices {
                let text = try statement.stringBytes(at: strings[index].index, checkingStorage: !strings[index].isStrict)
                texts.initializeElement(at: index, to: text)
                textCapacity += ValueRow.textCapacity(forStringOf: text?.count ?? 0)
            }
            var nextString = 0
            return try decoder.columns.withUnsafeBufferPointer { columns in
                try ValueRow(count: columns.count, textCapacity: textCapacity, layout: decoder.rowLayout) { slot, row in
                    if columns[slot].isString {
                        if let text = texts[nextString] { row.appendString(utf8: text) } else { row.append(.null) }
                        nextString += 1
                        return
                    }
                    // Each case hands the row a value of a case known here, so the row's
                    // switch over cases folds away.
                    let index = columns[slot].index
                    switch columns[slot].read {
                    case .integer(let type):
                        let integer = statement.int64(at: index)
                        // One out of the type's range is damage, which `value(of:in:)` reports.
                        if type.holdsInteger(integer) {
                            row.append(.integer(integer))
                        } else {
                            row.append(try value(of: columns[slot], in: statement))
                        }
                    case .double: row.append(.double(statement.double(at: index)))
                    case .date: row.append(.date(Date(timeIntervalSinceReferenceDate: statement.double(at: index))))
                    case .reference: row.append(try statement.reference(at: index, in: columns[slot].referenceSpace!))
                    case .other: row.append(try value(of: columns[slot], in: statement))
                    }
                }
            }
        }
    }

    /// The entity of the current row of `statement` (a SELECT starting with `selectPrefix`).
    @inline(__always)
    func rowEntity(in statement: SQLiteStatement) throws -> EntityDescription {
        guard kindsFilter != nil else { return entity }
        let name = statement.textValue(at: 2)
        guard let decoder = decoders[name] else {
            throw ObjectGraphError(
                .corruptStore,
                "The store is damaged: a row of \(quotedName) with primary key \(statement.int64(at: 0)) names entity '\(name)', which is not \(entity.name) or one of its sub-entities",
                entityName: entity.name)
        }
        return decoder.entity
    }

    @inline(__always)
    private func value(of column: Column, in statement: SQLiteStatement) throws -> AttributeValue {
        switch column.kind {
        case .attribute(let type):
            return column.isStrict ? try statement.storedValue(at: column.index, as: type) : try statement.value(at: column.index, as: type)
        case .reference(let space): return try statement.reference(at: column.index, in: space)
        case .hierarchyReference(let entityColumn, let spaces):
            guard statement.text(at: entityColumn) != nil || statement.isNull(at: column.index) else {
                throw ObjectGraphError(
                    .corruptStore,
                    "The store is damaged: \(statement.columnName(column.index)) of a row with key \(statement.int64(at: 0)) has no destination entity",
                    entityName: entity.name)
            }
            guard let name = statement.text(at: entityColumn) else { return .null }
            guard let space = spaces[name] else {
                throw ObjectGraphError(
                    .corruptStore,
                    "The store is damaged: \(statement.columnName(column.index)) of a row with key \(statement.int64(at: 0)) refers to entity '\(name)', which it cannot hold",
                    entityName: entity.name)
            }
            return try statement.reference(at: column.index, in: space)
        }
    }
}

@available(*, unavailable)
extension StoreTable: Sendable {}
