import CSQLite
import Foundation

/// A table of a damaged store as salvage reads it: its columns in the order its records hold
/// them, and the test a record must pass to be taken as one of its rows. The test is what the
/// schema and the model promise: the storage class of every column (tables are STRICT), NOT NULL,
/// the entity names of a hierarchy's rows, Booleans of 0 or 1, integers within their attribute's
/// width, 16-byte UUIDs, valid UTF-8, decimals that parse, positive keys.
struct SalvageTable {
    enum Role {
        case entity(root: EntityDescription)
        case join(JoinTable)
        case metadata
        case primaryKeys
    }

    struct Column {
        let name: String
        /// The declared type: INTEGER, REAL, TEXT, BLOB or ANY.
        let type: String
        let isRequired: Bool
    }

    let name: String
    let role: Role
    let columns: [Column]
    /// The root page named by the damaged file's schema, when it could be read.
    let rootPage: Int?
    private let model: ManagedObjectModel

    /// The fewest values a record can hold: all of them, except in a table a migration added
    /// nullable columns to (`ALTER TABLE … ADD COLUMN`, after `_version`), whose older records
    /// end at `_version` and read NULL for the rest.
    var minimumWidth: Int {
        columns.firstIndex { $0.name == StoreSchema.versionColumn }.map { $0 + 1 } ?? columns.count
    }

    var hasRowid: Bool {
        if case .join = role { return false }
        return true
    }

    /// The tables a store of `model` has (entity tables, join tables, then ObjectGraph's own),
    /// with columns as the damaged file's schema declares them when it can be read, else as a
    /// new store of the model would have them.
    static func tables(of model: ManagedObjectModel, schema: [String: (rootPage: Int, sql: String)]) -> [SalvageTable] {
        let layout = RelationshipLayout(model: model)
        var tables: [SalvageTable] = []
        for root in model.entities where model.root(of: root) === root {
            let table = TableLayout(root: root, model: model, relationshipLayout: layout)
            tables.append(
                SalvageTable(name: root.name, role: .entity(root: root), sql: StoreSchema.createTable(table), schema: schema, model: model)
            )
        }
        var indexNames = StoreSchema.IndexNames()
        for join in layout.joinTables {
            tables.append(
                SalvageTable(
                    name: join.name, role: .join(join), sql: StoreSchema.joinTable(join, names: &indexNames)[0], schema: schema,
                    model: model))
        }
        let own = StoreSchema.statements(for: model).suffix(2)
        tables.append(SalvageTable(name: StoreSchema.metadataTable, role: .metadata, sql: own.first!, schema: schema, model: model))
        tables.append(SalvageTable(name: StoreSchema.primaryKeysTable, role: .primaryKeys, sql: own.last!, schema: schema, model: model))
        return tables
    }

    private init(name: String, role: Role, sql modelSQL: String, schema: [String: (rootPage: Int, sql: String)], model: ManagedObjectModel)
    {
        self.name = name
        self.role = role
        self.model = model
        rootPage = schema[name]?.rootPage
        let expected = Self.columns(declaredBy: modelSQL, table: name) ?? []
        // The damaged file's own declaration gives the order of its records (a table altered by
        // a migration has its added columns last), but only if it declares the model's columns:
        // a damaged schema row can still be valid text.
        let declared = schema[name].flatMap { Self.columns(declaredBy: $0.sql, table: name) }
        if let declared, Set(declared.map(\.name)) == Set(expected.map(\.name)) {
            columns = declared
        } else {
            columns = expected
        }
    }

    /// The columns a CREATE TABLE statement declares, in record order, read by SQLite itself
    /// (an in-memory database runs the statement): a table altered by a migration has its added
    /// columns last, which a new store's layout would not say.
    private static func columns(declaredBy sql: String, table: String) -> [Column]? {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(":memory:", &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let handle else { return nil }
        defer { sqlite3_close_v2(handle) }
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { return nil }
        var statement: OpaquePointer?
        guard
            sqlite3_prepare_v2(handle, "SELECT name, upper(type), \"notnull\", pk FROM pragma_table_info(?)", -1, &statement, nil)
                == SQLITE_OK
        else { return nil }
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_text(statement, 1, table, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        var declared: [(column: Column, primaryKeyPosition: Int)] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            declared.append(
                (
                    Column(
                        name: String(cString: sqlite3_column_text(statement, 0)), type: String(cString: sqlite3_column_text(statement, 1)),
                        isRequired: sqlite3_column_int(statement, 2) != 0), Int(sqlite3_column_int(statement, 3))
                ))
        }
        // A WITHOUT ROWID table's records hold its primary key columns first.
        if sql.uppercased().contains("WITHOUT ROWID") {
            let key = declared.filter { $0.primaryKeyPosition > 0 }.sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }
            return (key + declared.filter { $0.primaryKeyPosition == 0 }).map(\.column)
        }
        return declared.map(\.column)
    }

    /// Whether `entry` is a row this table can hold.
    func accepts(_ entry: BTreeReader.Entry) -> Bool {
        guard (entry.rowid != nil) == hasRowid, entry.values.count <= columns.count, entry.values.count >= minimumWidth else {
            return false
        }
        var entity: EntityDescription?
        if case .entity(let root) = role {
            entity = root
            if let rowid = entry.rowid, rowid < 1 { return false }
        }
        for (index, column) in columns.enumerated() {
            let value = index < entry.values.count ? entry.values[index] : .null
            if column.name == StoreSchema.primaryKeyColumn, hasRowid {
                // The rowid alias: the record holds NULL, the key is the rowid.
                guard value.isNull else { return false }
                continue
            }
            if value.isNull {
                if column.isRequired { return false }
                continue
            }
            guard Self.fits(value, columnType: column.type) else { return false }
            if column.name == TableLayout.entityColumn, case .entity(let root) = role {
                guard case .text(let bytes) = value, let named = model.entity(named: String(decoding: bytes, as: UTF8.self)),
                    model.root(of: named) === root
                else { return false }
                entity = named
            }
        }
        return entity.map { fitsModel(entry, entity: $0) } ?? fitsOwnRole(entry)
    }

    /// The storage classes a STRICT column of `columnType` holds; REAL columns keep whole
    /// numbers as integers on disk.
    private static func fits(_ value: SalvagedValue, columnType: String) -> Bool {
        switch (value, columnType) {
        case (_, "ANY"), (.integer, "INTEGER"), (.integer, "REAL"), (.real, "REAL"), (.blob, "BLOB"): return true
        case (.text(let bytes), "TEXT"): return String(validating: bytes, as: UTF8.self) != nil
        default: return false
        }
    }

    /// What the model adds to the column types: the attribute's own range and shape, and keys
    /// that can be keys.
    private func fitsModel(_ entry: BTreeReader.Entry, entity: EntityDescription) -> Bool {
        for (index, value) in entry.values.enumerated() where !value.isNull {
            let name = columns[index].name
            if name == StoreSchema.versionColumn {
                guard case .integer(let version) = value, version >= 1 else { return false }
            } else if let attribute = entity.attribute(named: name) {
                guard Self.fits(value, attribute.type) else { return false }
            } else if let relationship = entity.relationship(named: name), relationship.isToOne {
                guard case .integer(let key) = value, key >= 1 else { return false }
            }
        }
        return true
    }

    private static func fits(_ value: SalvagedValue, _ type: AttributeType) -> Bool {
        switch (type, value) {
        case (.boolean, .integer(let number)): return number == 0 || number == 1
        case (.integer16, .integer(let number)): return Int16(exactly: number) != nil
        case (.integer32, .integer(let number)): return Int32(exactly: number) != nil
        case (.integer64, .integer): return true
        case (.double, .real), (.double, .integer), (.float, .real), (.float, .integer): return true
        case (.date, .real(let number)): return number.isFinite
        case (.date, .integer): return true
        case (.uuid, .blob(let bytes)): return bytes.count == 16
        case (.binary, .blob): return true
        case (.decimal, .text(let bytes)):
            return Decimal(string: String(decoding: bytes, as: UTF8.self), locale: Locale(identifier: "en_US_POSIX")) != nil
        case (.string, .text(let bytes)), (.uri, .text(let bytes)), (.json, .text(let bytes)):
            return String(validating: bytes, as: UTF8.self) != nil
        default: return false
        }
    }

    /// Join pairs of positive keys; metadata and key counters under names they can have.
    private func fitsOwnRole(_ entry: BTreeReader.Entry) -> Bool {
        switch role {
        case .entity:
            return true
        case .join:
            guard entry.values.count == columns.count, case .integer(let source) = entry.values[0],
                case .integer(let destination) = entry.values[1]
            else { return false }
            return source >= 1 && destination >= 1
        case .metadata:
            guard case .text(let key) = entry.values[0] else { return false }
            return StoreMetadataRecord.Key.all.contains(String(decoding: key, as: UTF8.self))
        case .primaryKeys:
            guard entry.values.count == 2, case .text(let name) = entry.values[0], case .integer = entry.values[1] else { return false }
            return model.entity(named: String(decoding: name, as: UTF8.self)) != nil
        }
    }
}
