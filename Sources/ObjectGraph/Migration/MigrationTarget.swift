/// The database a migration runs in, as `StoreMigration` and `MigrationStageContext` need it:
/// the SQL that differs between the stores (types, tables, conversions) and a connection inside
/// the migration's transaction. The SQLite store's is `SQLiteMigrationTarget`; the PostgreSQL
/// store brings its own. Statements are written with `?` for each bound value, in order.
package protocol MigrationTarget: AnyObject {
    /// The store's location, for messages.
    var location: String { get }
    /// Whether a table gives an attribute declared with different types in one hierarchy a
    /// column per type (see `TableLayout(separatingTypes:)`), as the store's tables were made.
    var separatesTypes: Bool { get }

    /// Every statement creating `model`'s entity tables, join tables and indexes (not the store's
    /// own tables), in the order `StoreSchema.statements(for:)` gives them.
    func schemaStatements(for model: ManagedObjectModel) -> [String]
    /// `CREATE TABLE` for the table of a layout.
    func createTable(_ table: TableLayout) -> String
    /// `CREATE TABLE` for a join table.
    func createJoinTable(_ table: JoinTable) -> String
    /// The declared type of a column, as `ALTER TABLE … ADD COLUMN` writes it.
    func columnType(_ column: TableLayout.ColumnDefinition) -> String
    /// The SQL expression turning `column` (quoted) into the new type as `conversion` says.
    func convert(_ column: String, _ conversion: MigrationValueConversion) -> String
    /// A value of `type`'s column that NOT NULL accepts, written until a stage sets the real one.
    func standIn(for type: AttributeType) -> String

    /// The names of the indexes the store created (those `DROP INDEX` can drop).
    func existingIndexes() throws -> [String]
    /// Runs one statement with `bindings`; returns how many rows it changed.
    @discardableResult
    func run(_ sql: String, _ bindings: [AttributeValue]) throws -> Int
    /// The integers of the first column of the rows `sql` returns.
    func integers(_ sql: String) throws -> [Int64]
    /// The value, of `type`, in the first column of the first row `sql` returns; `.null` when none.
    func value(_ sql: String, _ bindings: [AttributeValue], as type: AttributeType) throws -> AttributeValue
}

extension MigrationTarget {
    /// The layout of `root`'s table in `model`, as this store makes its tables.
    func layout(root: EntityDescription, model: ManagedObjectModel, relationships: RelationshipLayout) -> TableLayout {
        TableLayout(root: root, model: model, relationshipLayout: relationships, separatingTypes: separatesTypes)
    }

    /// The `CREATE … INDEX` statements of `model`'s schema, by index name.
    func indexStatements(for model: ManagedObjectModel) -> [String: String] {
        Dictionary(
            StoreSchema.indexStatements(in: schemaStatements(for: model)).map { ($0.name, $0.statement) },
            uniquingKeysWith: { first, _ in first })
    }

    /// The column of `attribute` (of an entity of `model`), as this store keeps it.
    func column(of attribute: AttributeDescription, of entity: EntityDescription, in model: ManagedObjectModel) -> String {
        guard separatesTypes else { return attribute.columnName }
        return layout(root: model.root(of: entity), model: model, relationships: RelationshipLayout(model: model)).column(of: attribute)
    }
}

/// A migration in a SQLite store file (see `MigrationTarget`).
final class SQLiteMigrationTarget: MigrationTarget {
    let connection: SQLiteConnection

    init(_ connection: SQLiteConnection) {
        self.connection = connection
    }

    var location: String { connection.path }
    var separatesTypes: Bool { false }

    func schemaStatements(for model: ManagedObjectModel) -> [String] {
        StoreSchema.statements(for: model, includingOwnTables: false)
    }

    func createTable(_ table: TableLayout) -> String { StoreSchema.createTable(table) }

    func createJoinTable(_ table: JoinTable) -> String {
        var names = StoreSchema.IndexNames()
        return StoreSchema.joinTable(table, names: &names)[0]
    }

    func columnType(_ column: TableLayout.ColumnDefinition) -> String { column.type }

    func convert(_ column: String, _ conversion: MigrationValueConversion) -> String {
        switch conversion {
        case .asStored: return column
        case .toReal: return "CAST(\(column) AS REAL)"
        case .integerToText: return "CAST(\(column) AS TEXT)"
        case .uuidToText:
            // hex() is upper case, as uuidString is: 8-4-4-4-12 digits.
            let digits = "hex(\(column))"
            let groups = [(1, 8), (9, 4), (13, 4), (17, 4), (21, 12)].map { "substr(\(digits), \($0.0), \($0.1))" }
            return "CASE WHEN \(column) IS NULL THEN NULL ELSE \(groups.joined(separator: " || '-' || ")) END"
        }
    }

    func standIn(for type: AttributeType) -> String {
        switch type.sqliteColumnType {
        case "INTEGER": "0"
        case "REAL": "0.0"
        case "BLOB": "X''"
        default: "''"
        }
    }

    /// SQLite's own automatic indexes have no SQL and cannot be dropped.
    func existingIndexes() throws -> [String] {
        let statement = try connection.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
        var names: [String] = []
        while try statement.step() {
            if let name = statement.text(at: 0) { names.append(name) }
        }
        return names
    }

    func run(_ sql: String, _ bindings: [AttributeValue]) throws -> Int {
        let statement = try connection.prepare(sql, activity: "Cannot prepare a migration step")
        try statement.bind(bindings)
        try statement.execute()
        return connection.changes
    }

    func integers(_ sql: String) throws -> [Int64] {
        let statement = try connection.prepare(sql)
        var values: [Int64] = []
        while try statement.step() { values.append(statement.int64(at: 0)) }
        return values
    }

    func value(_ sql: String, _ bindings: [AttributeValue], as type: AttributeType) throws -> AttributeValue {
        let statement = try connection.prepare(sql)
        try statement.bind(bindings)
        guard try statement.step() else { return .null }
        return try statement.value(at: 0, as: type)
    }
}
