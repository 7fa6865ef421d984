import Foundation
import Testing

@testable import ObjectGraph
@testable import ObjectGraphPostgres

/// Write statements prepared once per connection: when the types of their parameters are known,
/// whatever NULLs were bound before, and never used for values of another type.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "no PostgreSQL server for the tests"))
struct PostgreSQLStatementCacheTests {
    private static func connection() throws -> PostgreSQLConnection {
        let server = try PostgreSQLTestServer.shared.get()
        return try PostgreSQLConnection(PostgreSQLLocation(server.url(database: try server.createDatabase())))
    }

    private static func preparedCount(_ connection: PostgreSQLConnection) throws -> Int {
        try connection.execute("SELECT 1 FROM pg_prepared_statements").rows.count
    }

    /// Whether the table's rows, each as `rowText` (an SQL expression), sorted and joined by
    /// commas, are `expected`.
    private static func rows(of connection: PostgreSQLConnection, _ rowText: String, are expected: String) throws -> Bool {
        let sql = "SELECT 1 FROM (SELECT string_agg(\(rowText), ',' ORDER BY \(rowText)) AS s FROM t) AS x WHERE s = $1"
        return try connection.execute(sql, [.string(expected)]).rows.count == 1
    }

    @Test func aStatementIsPreparedOnceNullsLeaveNoParameterTypeOpen() throws {
        let connection = try Self.connection()
        defer { connection.close() }
        try connection.execute("CREATE TABLE t (a bigint, b text)")
        let insert = "INSERT INTO t (a, b) VALUES ($1, $2)"
        #expect(try connection.execute(insert, [.integer(1), .null]).changedRows == 1)
        #expect(try connection.execute(insert, [.null, .null]).changedRows == 1)
        #expect(try Self.preparedCount(connection) == 0)
        #expect(try connection.execute(insert, [.null, .string("x")]).changedRows == 1)
        #expect(try Self.preparedCount(connection) == 1)
        #expect(try connection.execute(insert, [.integer(2), .string("y")]).changedRows == 1)
        #expect(try connection.execute(insert, [.null, .null]).changedRows == 1)
        #expect(try Self.preparedCount(connection) == 1)
        #expect(try Self.rows(of: connection, "coalesce(a::text, '-') || coalesce(b, '-')", are: "--,--,-x,1-,2y"))
    }

    @Test func aValueOfAnotherTypeRunsThePreparedStatementsTextUnprepared() throws {
        let connection = try Self.connection()
        defer { connection.close() }
        try connection.execute("CREATE TABLE t (b text)")
        let insert = "INSERT INTO t (b) VALUES ($1::text)"
        for number in 1...3 { try connection.execute(insert, [.integer(Int64(number))]) }
        #expect(try Self.preparedCount(connection) == 1)
        try connection.execute(insert, [.string("four")])
        #expect(try Self.rows(of: connection, "b", are: "1,2,3,four"))
    }
}
