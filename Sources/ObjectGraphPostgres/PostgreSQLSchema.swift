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
        statements.append(
            """
            CREATE TABLE IF NOT EXISTS \(quoteIdentifier(StoreSchema.metadataTable)) (
                "key" text COLLATE "C" PRIMARY KEY,
                "value" text NOT NULL
            )
            """)
        statements.append(
            """
            CREATE TABLE IF NOT EXISTS \(quoteIdentifier(StoreSchema.primaryKeysTable)) (
                "entity" text COLLATE "C" PRIMARY KEY,
                "max_key" bigint NOT NULL
            )
            """)
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
        var columns = ["\(quoteIdentifier(StoreSchema.primaryKeyColumn)) bigint PRIMARY KEY"]
        if table.hasEntityColumn { columns.append("\(quoteIdentifier(TableLayout.entityColumn)) text COLLATE \"C\" NOT NULL") }
        for column in table.columns {
            columns.append("\(quoteIdentifier(column.name)) \(columnType(column))\(column.isRequired ? " NOT NULL" : "")")
        }
        columns.append("\(quoteIdentifier(StoreSchema.versionColumn)) bigint NOT NULL DEFAULT 1")
        return "CREATE TABLE IF NOT EXISTS \(quoteIdentifier(table.root.name)) (\n    \(columns.joined(separator: ",\n    "))\n)"
    }

    /// The PostgreSQL type of a column: integers of every width as `bigint` (the model checks
    /// ranges), dates as `double precision` seconds since 2001 (exactly as `Date` and SQLite hold
    /// them; `timestamptz` keeps only microseconds), decimals as `numeric`, text compared by bytes.
    static func columnType(_ column: TableLayout.ColumnDefinition) -> String {
        guard let type = column.attributeType else {
            return column.type == "TEXT" ? "text COLLATE \"C\"" : "bigint"
        }
        switch type {
        case .integer16, .integer32, .integer64: return "bigint"
        case .double, .float, .date: return "double precision"
        case .decimal: return "numeric"
        case .string, .uri, .json: return "text COLLATE \"C\""
        case .boolean: return "boolean"
        case .binary: return "bytea"
        case .uuid: return "uuid"
        }
    }
}
