import Foundation
import ObjectGraph
import PostgresNIO

/// A migration in a PostgreSQL database (see `MigrationTarget`): the steps the SQLite store
/// runs, in PostgreSQL's types and functions, on the connection opening the store, inside the
/// transaction that holds the opening lock (DDL is transactional in PostgreSQL, so the whole
/// migration commits or nothing does).
final class PostgreSQLMigrationTarget: MigrationTarget {
    let connection: PostgreSQLConnection

    init(_ connection: PostgreSQLConnection) {
        self.connection = connection
    }

    var location: String { connection.location.description }
    var separatesTypes: Bool { true }

    func schemaStatements(for model: ManagedObjectModel) -> [String] {
        PostgreSQLSchema.tableStatements(for: model)
    }

    func createTable(_ table: TableLayout) -> String { PostgreSQLSchema.createTable(table) }

    func createJoinTable(_ table: JoinTable) -> String { StoreSchema.createJoinTable(table, integerType: "bigint") }

    func columnType(_ column: TableLayout.ColumnDefinition) -> String { PostgreSQLSchema.columnType(column) }

    func convert(_ column: String, _ conversion: MigrationValueConversion) -> String {
        switch conversion {
        case .asStored: column
        case .toReal: "CAST(\(column) AS double precision)"
        case .integerToText: "CAST(\(column) AS text)"
        // PostgreSQL writes a uuid in lower case; uuidString is upper case.
        case .uuidToText: "upper(CAST(\(column) AS text))"
        }
    }

    func standIn(for type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64, .double, .float, .date, .decimal: "0"
        case .string, .uri, .json: "''"
        case .boolean: "FALSE"
        case .binary: "''::bytea"
        case .uuid: "'00000000-0000-0000-0000-000000000000'::uuid"
        }
    }

    /// Every index of the store's schema but the primary keys' (which belong to their tables).
    func existingIndexes() throws -> [String] {
        let result = try connection.execute(
            """
            SELECT c.relname::text FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND NOT x.indisprimary ORDER BY 1
            """)
        return try result.rows.map { try $0[0].decode(String.self) }
    }

    func run(_ sql: String, _ bindings: [AttributeValue]) throws -> Int {
        try execute(sql, bindings).changedRows
    }

    func integers(_ sql: String) throws -> [Int64] {
        try execute(sql, []).rows.map { try $0[0].decode(Int64.self) }
    }

    func value(_ sql: String, _ bindings: [AttributeValue], as type: AttributeType) throws -> AttributeValue {
        guard let row = try execute(sql, bindings).rows.first else { return .null }
        return try PostgreSQLValues.value(of: row[0], as: type)
    }

    /// Runs a statement of the migration; what the server refuses is an `ObjectGraphError`
    /// carrying its words and the statement.
    private func execute(_ sql: String, _ bindings: [AttributeValue]) throws -> PostgreSQLConnection.Result {
        do {
            return try connection.execute(Self.numberingParameters(sql), bindings)
        } catch let failure as PostgreSQLFailure {
            var error: ObjectGraphError
            switch failure.sqlState {
            case "23505":
                // Stored objects that break a new uniqueness constraint: the kind SQLite's migration gives.
                error = ObjectGraphError(
                    .constraintViolation, "the stored objects break a uniqueness constraint: PostgreSQL said: \(failure)")
            case "23502":
                // A required column left without a value (by a mapping, say), named as SQLite names it.
                let table = failure.message.components(separatedBy: "relation \"").dropFirst().first?.components(separatedBy: "\"").first
                error = ObjectGraphError(
                    .validation,
                    "\(table ?? "?").\(failure.column ?? "?") is required and an object was left without a value: PostgreSQL said: \(failure)"
                )
            default:
                error = failure.error("A migration step failed")
            }
            error.sql = failure.sql
            throw error
        }
    }

    /// `sql` with each `?` numbered `$1`, `$2`, …: a migration's statements hold no other `?`
    /// (identifiers are letters, digits and underscores; values are bound, never spliced).
    private static func numberingParameters(_ sql: String) -> String {
        var number = 0
        var result = ""
        for character in sql {
            if character == "?" {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        return result
    }
}

@available(*, unavailable)
extension PostgreSQLMigrationTarget: Sendable {}
