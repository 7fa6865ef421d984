import ObjectGraph

/// The PostgreSQL tables, indexes and functions that hold a model: the SQLite store's layout
/// (see `StoreSchema`, `TableLayout`, `RelationshipLayout`) in PostgreSQL's types, so
/// both stores keep a model the same way and one predicate compiler reads both.
///
/// One table per hierarchy root: `"_pk" bigint PRIMARY KEY`, `"_entity"` in shared tables, a
/// column per stored attribute (NOT NULL where SQLite's is), a `bigint` per to-one foreign key,
/// positions, then `"_version"`. Like the SQLite store's, foreign keys carry no REFERENCES
/// constraint: delete rules are carried out by the contexts (a `noAction` rule leaves a key
/// dangling on purpose). Same indexes and names, join tables, metadata and key counters, and the
/// text functions (`PostgreSQLTextFunctions`).
enum PostgreSQLSchema {
    /// Every statement creating `model`'s schema, in order; each is idempotent.
    static func statements(for model: ManagedObjectModel) -> [String] {
        var statements = tableStatements(for: model)
        statements.append(createTable(StoreSchema.metadataTable, metadataColumns))
        statements.append(createTable(StoreSchema.primaryKeysTable, primaryKeysColumns))
        return statements + PostgreSQLTextFunctions.statements
    }

    /// The statements creating the tables of `model`'s entities, their indexes and the join
    /// tables (what a migration rebuilds), in `StoreSchema`'s order.
    static func tableStatements(for model: ManagedObjectModel) -> [String] {
        var names = StoreSchema.IndexNames()
        var statements: [String] = []
        let layout = RelationshipLayout(model: model)
        for entity in model.entities where model.root(of: entity) === entity {
            let table = TableLayout(root: entity, model: model, relationshipLayout: layout, separatingTypes: true)
            statements.append(createTable(table))
            for member in table.entities {
                statements += StoreSchema.indexes(for: member, in: table, model: model, names: &names)
            }
        }
        for table in layout.joinTables {
            statements.append(StoreSchema.createJoinTable(table, integerType: "bigint"))
            statements.append(StoreSchema.joinTableIndex(table, names: &names))
        }
        return statements
    }

    /// `CREATE TABLE IF NOT EXISTS "Root" (…)` for a table layout (made with `separatingTypes`:
    /// PostgreSQL has no column type holding any value, so entities of a hierarchy declaring one
    /// attribute name with different types get a column per type).
    static func createTable(_ table: TableLayout) -> String {
        createTable(table.root.name, columns(of: table))
    }

    /// A column as the store creates it: what `createTable` writes and the integrity check
    /// expects to find.
    struct Column: Equatable {
        let name: String
        /// The type as `CREATE TABLE` spells it, with its collation when it has one.
        let type: String
        let isRequired: Bool
        /// The value a new row gets when an INSERT leaves the column out.
        var defaultValue: String? = nil
    }

    /// The columns of a table layout's table, its primary key first.
    static func columns(of table: TableLayout) -> [Column] {
        var columns = [Column(name: StoreSchema.primaryKeyColumn, type: "bigint", isRequired: true)]
        if table.hasEntityColumn { columns.append(Column(name: TableLayout.entityColumn, type: text, isRequired: true)) }
        for column in table.columns {
            columns.append(Column(name: column.name, type: columnType(column), isRequired: column.isRequired))
        }
        columns.append(Column(name: StoreSchema.versionColumn, type: "bigint", isRequired: true, defaultValue: "1"))
        return columns
    }

    /// The columns of the metadata table, its primary key first.
    static let metadataColumns = [Column(name: "key", type: text, isRequired: true), Column(name: "value", type: "text", isRequired: true)]

    /// The columns of the primary key counters' table, its primary key first.
    static let primaryKeysColumns = [
        Column(name: "entity", type: text, isRequired: true), Column(name: "max_key", type: "bigint", isRequired: true)
    ]

    /// The columns of a join table (`StoreSchema.createJoinTable` writes them).
    static func columns(of table: JoinTable) -> [Column] {
        var columns = [JoinTable.sourceColumn, JoinTable.destinationColumn].map { Column(name: $0, type: "bigint", isRequired: true) }
        if table.hasPosition { columns.append(Column(name: JoinTable.positionColumn, type: "bigint", isRequired: false)) }
        if table.hasInversePosition { columns.append(Column(name: JoinTable.inversePositionColumn, type: "bigint", isRequired: false)) }
        return columns
    }

    /// `CREATE TABLE IF NOT EXISTS "name" (…)` of `columns`, the first the primary key.
    private static func createTable(_ name: String, _ columns: [Column]) -> String {
        let definitions = columns.enumerated().map { number, column in
            let constraint = number == 0 ? " PRIMARY KEY" : column.isRequired ? " NOT NULL" : ""
            return "\(quoteIdentifier(column.name)) \(column.type)\(constraint)\(column.defaultValue.map { " DEFAULT \($0)" } ?? "")"
        }
        return "CREATE TABLE IF NOT EXISTS \(quoteIdentifier(name)) (\n    \(definitions.joined(separator: ",\n    "))\n)"
    }

    /// Text compared by its bytes, as SQLite's BINARY collation compares it.
    private static let text = "text COLLATE \"C\""

    /// The PostgreSQL type of a column: integers of every width as `bigint` (the model checks
    /// ranges), dates as `double precision` seconds since 2001 (exactly as `Date` and SQLite hold
    /// them; `timestamptz` keeps only microseconds), decimals as `numeric`, text compared by bytes.
    static func columnType(_ column: TableLayout.ColumnDefinition) -> String {
        guard let type = column.attributeType else {
            return column.type == "TEXT" ? text : "bigint"
        }
        switch type {
        case .integer16, .integer32, .integer64: return "bigint"
        case .double, .float, .date: return "double precision"
        case .decimal: return "numeric"
        case .string, .uri, .json: return text
        case .boolean: return "boolean"
        case .binary: return "bytea"
        case .uuid: return "uuid"
        }
    }
}
