import ObjectGraph
import PostgresNIO

/// The integrity check of a PostgreSQL store. The server keeps its own pages sound (there is no
/// file to check, as SQLite's `integrity_check` does); what it cannot know is whether the tables
/// still are what the model needs — anyone with access may alter them — and whether the rows
/// mean what the store wrote: the schema, then the metadata, the entities of rows and the
/// references between objects (`StoredRowChecks`, the SQLite store's checks).
extension PostgreSQLReading {
    /// Every problem found. A schema problem stops the check there: the row checks would read
    /// tables and columns that are not there.
    func integrityProblems() throws -> [IntegrityReport.Problem] {
        let problems = try schemaProblems()
        guard problems.isEmpty else { return problems }
        let checks = StoredRowChecks(model: model, layout: relationshipLayout)
        return try checks.metadataProblems { try PostgreSQLStoreState.readMetadata(on: connection) }
            + checks.rowProblems { sql in
                guard let row = try connection.execute(sql).rows.first else { return 0 }
                return try row[0].decode(Int64.self)
            }
    }

    /// Tables and columns the model needs that are missing or of another type or nullability
    /// than the store creates them with (`PostgreSQLSchema`), and missing text functions.
    private func schemaProblems() throws -> [IntegrityReport.Problem] {
        let found = try existingColumns()
        var expected: [(table: String, entityName: String?, columns: [PostgreSQLSchema.Column])] = []
        for table in tables where table.entity === model.root(of: table.entity) {
            let layout = TableLayout(root: table.entity, model: model, relationshipLayout: relationshipLayout, separatingTypes: true)
            expected.append((table.entity.name, table.entity.name, PostgreSQLSchema.columns(of: layout)))
        }
        expected += relationshipLayout.joinTables.map { ($0.name, nil, PostgreSQLSchema.columns(of: $0)) }
        expected.append((StoreSchema.metadataTable, nil, PostgreSQLSchema.metadataColumns))
        expected.append((StoreSchema.primaryKeysTable, nil, PostgreSQLSchema.primaryKeysColumns))
        var problems: [IntegrityReport.Problem] = []
        for (table, entityName, columns) in expected {
            guard let existing = found[table] else {
                problems.append(.init(kind: .schema, entityName: entityName, message: "the table \(table) is missing"))
                continue
            }
            for column in columns {
                guard let actual = existing[column.name] else {
                    problems.append(.init(kind: .schema, entityName: entityName, message: "the column \(table).\(column.name) is missing"))
                    continue
                }
                if actual.type != column.type {
                    problems.append(
                        .init(
                            kind: .schema, entityName: entityName,
                            message: "the column \(table).\(column.name) is \(actual.type), but the store needs \(column.type)"))
                } else if actual.isRequired != column.isRequired {
                    problems.append(
                        .init(
                            kind: .schema, entityName: entityName,
                            message:
                                "the column \(table).\(column.name) \(actual.isRequired ? "is NOT NULL" : "allows NULL"), but the store needs it \(column.isRequired ? "NOT NULL" : "to allow NULL")"
                        ))
                }
            }
        }
        let functions = try Set(
            connection.execute(
                "SELECT p.proname::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = current_schema()"
            ).rows.map { try $0[0].decode(String.self) })
        for function in [PostgreSQLTextFunctions.foldFunction, PostgreSQLTextFunctions.matchFunction] where !functions.contains(function) {
            problems.append(.init(kind: .schema, entityName: nil, message: "the function \(function) is missing"))
        }
        return problems
    }

    /// The columns of the tables in the store's schema, by table and column name: their types
    /// spelled as `PostgreSQLSchema` spells them (`text COLLATE "C"`), and whether NOT NULL.
    private func existingColumns() throws -> [String: [String: (type: String, isRequired: Bool)]] {
        let result = try connection.execute(
            """
            SELECT table_name::text, column_name::text, data_type::text, collation_name::text, is_nullable::text
            FROM information_schema.columns WHERE table_schema = current_schema()
            """)
        var columns: [String: [String: (type: String, isRequired: Bool)]] = [:]
        for cells in result.rows {
            let collation = try cells[3].decode(String?.self)
            let type = try cells[2].decode(String.self) + (collation.map { " COLLATE \(quoteIdentifier($0))" } ?? "")
            columns[try cells[0].decode(String.self), default: [:]][try cells[1].decode(String.self)] = (
                type, try cells[4].decode(String.self) == "NO"
            )
        }
        return columns
    }
}
