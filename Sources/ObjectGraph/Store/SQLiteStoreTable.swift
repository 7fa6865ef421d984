import CSQLite

/// One entity's table as the SQLite store uses it: the SQL worked out once at open, the result
/// column of each stored attribute, and the statements of the hot paths, kept here so a lookup by
/// primary key or an insert costs no SQL building and no cache lookup. Confined to the store's
/// queue, like the connection that prepared the statements.
final class SQLiteStoreTable {
    /// A stored attribute's or to-one relationship's place in a SELECT row and in the value row.
    struct Column {
        enum Kind {
            case attribute(AttributeType)
            /// A foreign key to objects of this ID space.
            case reference(ObjectIDSpace)
        }
        /// The result column (0 is `_pk`, 1 is `_version`).
        let index: Int32
        /// The property's slot in the value row.
        let slot: Int
        let kind: Kind
    }

    let entity: EntityDescription
    /// The quoted table name.
    let quotedName: String
    /// The stored attributes, then the to-one foreign keys, in table order, with their result columns.
    let columns: [Column]
    /// Whether the columns are exactly the slots 0, 1, 2, … in order (no transient attributes),
    /// so a row can be built front to back.
    let columnsFillEverySlot: Bool
    /// `SELECT "_pk", "_version", <columns> FROM "Entity"`.
    let selectPrefix: String
    let insertSQL: String
    let deleteSQL: String
    let selectByKeySQL: String
    /// Many rows by key in one statement whatever their number: the keys come as one JSON array.
    let selectByKeysSQL: String

    private var insertStatement: SQLiteStatement?
    private var deleteStatement: SQLiteStatement?
    private var selectByKeyStatement: SQLiteStatement?

    init(entity: EntityDescription, idSpaces: [ObjectIDSpace]) {
        self.entity = entity
        let table = quoteIdentifier(entity.name)
        let primaryKey = quoteIdentifier(SQLiteSchema.primaryKeyColumn)
        let stored = entity.storedAttributes.map { (name: $0.name, slot: $0.index, kind: Column.Kind.attribute($0.type)) }
            + entity.toOneRelationships.map { (name: $0.name, slot: $0.slot, kind: Column.Kind.reference(idSpaces[$0.destinationIndex])) }
        self.quotedName = table
        self.columns = stored.enumerated().map { offset, property in
            Column(index: Int32(offset + 2), slot: property.slot, kind: property.kind)
        }
        self.columnsFillEverySlot = stored.map(\.slot) == Array(0..<entity.rowWidth)
        let names = stored.map { quoteIdentifier($0.name) }
        let selected = ([primaryKey, quoteIdentifier(SQLiteSchema.versionColumn)] + names).joined(separator: ", ")
        self.selectPrefix = "SELECT \(selected) FROM \(table)"
        let inserted = ([primaryKey] + names).joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: names.count + 1).joined(separator: ", ")
        self.insertSQL = "INSERT INTO \(table) (\(inserted)) VALUES (\(placeholders))"
        self.deleteSQL = "DELETE FROM \(table) WHERE \(primaryKey) = ?"
        self.selectByKeySQL = "\(selectPrefix) WHERE \(primaryKey) = ?"
        self.selectByKeysSQL = "\(selectPrefix) WHERE \(primaryKey) IN (SELECT value FROM json_each(?)) ORDER BY \(primaryKey)"
    }

    func insert(on connection: SQLiteConnection) throws -> SQLiteStatement {
        try Self.prepared(&insertStatement, insertSQL, on: connection)
    }

    func delete(on connection: SQLiteConnection) throws -> SQLiteStatement {
        try Self.prepared(&deleteStatement, deleteSQL, on: connection)
    }

    func selectByKey(on connection: SQLiteConnection) throws -> SQLiteStatement {
        try Self.prepared(&selectByKeyStatement, selectByKeySQL, on: connection)
    }

    /// Releases the values the write statements still hold from the last save.
    func releaseBindings() {
        insertStatement?.releaseBindings()
        deleteStatement?.releaseBindings()
    }

    /// Drops the statements, so closing the connection finalizes everything at once.
    func releaseStatements() {
        insertStatement = nil
        deleteStatement = nil
        selectByKeyStatement = nil
    }

    private static func prepared(_ slot: inout SQLiteStatement?, _ sql: String, on connection: SQLiteConnection) throws -> SQLiteStatement {
        if let statement = slot { return statement }
        let statement = try connection.prepare(sql, flags: UInt32(SQLITE_PREPARE_PERSISTENT))
        slot = statement
        return statement
    }

    /// The current row of `statement` (a SELECT starting with `selectPrefix`'s columns) as a
    /// snapshot; transient attributes hold their defaults.
    @inline(__always)
    func snapshot(from statement: SQLiteStatement) throws -> Snapshot {
        let primaryKey = statement.int64(at: 0)
        // Object IDs encode temporary numbers as non-positive keys; the store only ever writes
        // keys from 1, so anything else was written behind its back.
        guard primaryKey > 0 else {
            throw ObjectGraphError(.corruptStore, "The store is damaged: \(entity.name) has a row with primary key \(primaryKey); keys start at 1", entityName: entity.name)
        }
        let values: [AttributeValue]
        if columnsFillEverySlot {
            // Built in place: no copy of the default row to overwrite slot by slot.
            var row: [AttributeValue] = []
            row.reserveCapacity(columns.count)
            for column in columns { row.append(try value(of: column, in: statement)) }
            values = row
        } else {
            var row = entity.defaultValues
            for column in columns {
                row[column.slot] = try value(of: column, in: statement)
            }
            values = row
        }
        return Snapshot(primaryKey: primaryKey, values: values, version: statement.int64(at: 1))
    }

    @inline(__always)
    private func value(of column: Column, in statement: SQLiteStatement) throws -> AttributeValue {
        switch column.kind {
        case .attribute(let type): try statement.value(at: column.index, as: type)
        case .reference(let space): try statement.reference(at: column.index, in: space)
        }
    }
}

@available(*, unavailable)
extension SQLiteStoreTable: Sendable {}
