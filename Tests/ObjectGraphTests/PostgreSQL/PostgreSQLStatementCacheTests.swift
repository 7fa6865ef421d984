import Foundation
import Testing

@testable import ObjectGraph
@testable import ObjectGraphPostgres

/// Statements prepared once per connection: when the types of their parameters are known,
/// whatever NULLs were bound before, never used for values of another type, made again on a new
/// connection; a prepared SELECT's rows read exactly as an unprepared one's.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "no PostgreSQL server for the tests"))
struct PostgreSQLStatementCacheTests {
    private static func connection() throws -> PostgreSQLConnection {
        let server = try PostgreSQLTestServer.shared.get()
        return try PostgreSQLConnection(PostgreSQLLocation(server.url(database: try server.createDatabase())))
    }

    /// The statements the server holds prepared for the connection, as it says (this count
    /// itself left out, prepared as it runs again).
    private static func preparedCount(_ connection: PostgreSQLConnection) throws -> Int {
        try connection.execute("SELECT 1 FROM pg_prepared_statements WHERE statement NOT LIKE '%pg_prepared%'").rows.count
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

    /// A column of each type attributes are kept in, with values of every kind each can hold
    /// (NULL in every one), as the store binds them.
    private static let columns: [(name: String, sqlType: String, type: AttributeType, values: [AttributeValue])] = [
        ("i", "bigint", .integer64, [.integer(0), .integer(-1), .integer(.max), .integer(.min)]),
        ("d", "double precision", .double, [.double(-0.0), .double(.infinity), .double(-.infinity), .double(.leastNonzeroMagnitude)]),
        ("f", "double precision", .float, [.float(1.5), .float(-.greatestFiniteMagnitude), .float(.infinity), .float(0)]),
        (
            "m", "numeric", .decimal,
            [.decimal(Decimal(string: "-1234567890.123456789")!), .decimal(0), .decimal(1), .decimal(Decimal(string: "0.001")!)]
        ),
        ("s", "text", .string, [.string(""), .string("ünïcødé 🎉"), .string("'quoted' \\ \"x\""), .string("a")]),
        ("b", "boolean", .boolean, [.boolean(true), .boolean(false), .boolean(true), .boolean(false)]),
        (
            "t", "double precision", .date,
            [
                .date(Date(timeIntervalSinceReferenceDate: -1.25)), .date(.distantFuture), .date(Date(timeIntervalSinceReferenceDate: 0)),
                .date(.distantPast)
            ]
        ),
        (
            "x", "bytea", .binary,
            [.binary(Data()), .binary(Data([0, 0xFF, 0x5C])), .binary(Data(repeating: 7, count: 300)), .binary(Data([1]))]
        ),
        (
            "u", "uuid", .uuid,
            [.uuid(UUID()), .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))), .uuid(UUID()), .uuid(UUID())]
        ),
        (
            "r", "text", .uri,
            [
                .uri(URL(string: "https://example.com/a%20b?q=1#f")!), .uri(URL(string: "file:///tmp/x")!),
                .uri(URL(string: "urn:isbn:0451450523")!), .uri(URL(string: "a/b")!)
            ]
        ),
        (
            "j", "text", .json,
            [
                .json(try! JSONDocument(data: Data(#"{"k":[true,null,1.5]}"#.utf8))), .json(try! JSONDocument(data: Data("[]".utf8))),
                .json(try! JSONDocument(data: Data(#"{"s":"\u00e9"}"#.utf8))), .json(try! JSONDocument(data: Data("{}".utf8)))
            ]
        )
    ]

    /// The rows of `SELECT` with `bindings`, each cell read as the store reads its column's type.
    private static func values(
        _ connection: PostgreSQLConnection, _ select: String, _ bindings: [AttributeValue]
    ) throws -> [[AttributeValue]] {
        try connection.execute(select, bindings).rows.map { row in
            try Self.columns.enumerated().map { index, column in try PostgreSQLValues.value(of: row[index], as: column.type) }
        }
    }

    /// The first column of the rows of `sql` with `bindings`, read as values of `type`.
    private static func column(
        _ connection: PostgreSQLConnection, _ sql: String, _ bindings: [AttributeValue] = [], as type: AttributeType
    ) throws -> [AttributeValue] {
        try connection.execute(sql, bindings).rows.map { try PostgreSQLValues.value(of: $0[0], as: type) }
    }

    @Test func aRepeatedSelectIsPreparedOnceAndReadsEveryTypeAsTheUnpreparedOne() throws {
        let connection = try Self.connection()
        defer { connection.close() }
        let names = Self.columns.map(\.name)
        try connection.execute("CREATE TABLE t (k bigint, \(Self.columns.map { "\($0.name) \($0.sqlType)" }.joined(separator: ", ")))")
        let insert =
            "INSERT INTO t (k, \(names.joined(separator: ", "))) VALUES (\((1...names.count + 1).map { "$\($0)" }.joined(separator: ", ")))"
        var expected: [[AttributeValue]] = []
        for row in 0...4 {
            // The last row is all NULLs.
            let values = Self.columns.map { row < $0.values.count ? $0.values[row] : .null }
            try connection.execute(insert, [.integer(Int64(row))] + values)
            expected.append(values.map { if case .double(let double) = $0 { .double(double + 0) } else { $0 } })
        }
        let select = "SELECT \(names.joined(separator: ", ")) FROM t WHERE k >= $1 ORDER BY k"
        let before = try Self.preparedCount(connection)
        let unprepared = try Self.values(connection, select, [.integer(0)])
        #expect(try Self.preparedCount(connection) == before)
        let prepared = try Self.values(connection, select, [.integer(0)])
        #expect(try Self.preparedCount(connection) == before + 1)
        #expect(try Self.values(connection, select, [.integer(0)]) == prepared)
        #expect(try Self.preparedCount(connection) == before + 1)
        #expect(unprepared == expected)
        #expect(prepared == unprepared)
        // −0.0 is written as 0.0 either way.
        guard case .double(let zero) = prepared[0][1] else {
            Issue.record("\(prepared[0][1]) is not a double")
            return
        }
        #expect(zero.sign == .plus)
        #expect(try Self.values(connection, select, [.integer(3)]) == Array(expected[3...]))
        #expect(try connection.execute(select, [.integer(0)]).changedRows == 5)
    }

    @Test func aSelectWhoseParameterTypeChangesRunsUnpreparedWithTheNewType() throws {
        let connection = try Self.connection()
        defer { connection.close() }
        try connection.execute("CREATE TABLE t (a text)")
        try connection.execute("INSERT INTO t (a) VALUES ('1'), ('2'), ('x')")
        let select = "SELECT a FROM t WHERE a = $1::text ORDER BY a"
        for _ in 1...2 { #expect(try Self.column(connection, select, [.integer(2)], as: .string) == [.string("2")]) }
        let count = try Self.preparedCount(connection)
        #expect(try Self.column(connection, select, [.string("x")], as: .string) == [.string("x")])
        #expect(try connection.execute(select, [.null]).rows.isEmpty)
        #expect(try Self.column(connection, select, [.integer(1)], as: .string) == [.string("1")])
        #expect(try Self.preparedCount(connection) == count)
    }

    @Test func afterTheConnectionIsLostStatementsArePreparedAgain() throws {
        let connection = try Self.connection()
        defer { connection.close() }
        let select = "SELECT $1::int8 + 1"
        for number in 1...2 {
            #expect(try Self.column(connection, select, [.integer(Int64(number))], as: .integer64) == [.integer(Int64(number) + 1)])
        }
        #expect(connection.preparedCount == 1)
        let backend = try Self.column(connection, "SELECT pg_backend_pid()", as: .integer32)
        let killer = try Self.connection()
        defer { killer.close() }
        try killer.execute("SELECT pg_terminate_backend($1::int4)", backend)
        let lost = connection.losses
        // The loss is found as the statement is sent, failing it, or before, making the connection again.
        var answer: [AttributeValue]?
        for _ in 1...2 where answer == nil { answer = try? Self.column(connection, select, [.integer(3)], as: .integer64) }
        #expect(answer == [.integer(4)])
        #expect(connection.losses == lost + 1)
        #expect(connection.preparedCount == 0)
        for number in 4...5 {
            #expect(try Self.column(connection, select, [.integer(Int64(number))], as: .integer64) == [.integer(Int64(number) + 1)])
        }
        #expect(connection.preparedCount == 1)
        #expect(try Self.column(connection, "SELECT pg_backend_pid()", as: .integer32) != backend)
    }

    @Test func aSchemaChangeClosesThePreparedStatementsWhoseRowsItMayChange() throws {
        let connection = try Self.connection()
        defer { connection.close() }
        try connection.execute("CREATE TABLE t (a bigint)")
        try connection.execute("INSERT INTO t (a) VALUES (7)")
        let select = "SELECT a FROM t WHERE $1::int8 >= 0"
        for _ in 1...2 { #expect(try Self.column(connection, select, [.integer(0)], as: .integer64) == [.integer(7)]) }
        #expect(connection.preparedCount == 1)
        try connection.execute("ALTER TABLE t ALTER COLUMN a TYPE text")
        #expect(connection.preparedCount == 0)
        for _ in 1...2 { #expect(try connection.execute(select, [.integer(0)]).rows.count == 1) }
        #expect(try Self.column(connection, select, [.integer(0)], as: .string) == [.string("7")])
        #expect(connection.preparedCount == 1)
        // Changed by another connection: refused once, then prepared again.
        let other = try PostgreSQLConnection(connection.location)
        defer { other.close() }
        try other.execute("ALTER TABLE t ALTER COLUMN a TYPE bigint USING a::bigint")
        #expect(throws: PostgreSQLFailure.self) { try connection.execute(select, [.integer(0)]) }
        #expect(connection.preparedCount == 0)
        for _ in 1...2 { #expect(try Self.column(connection, select, [.integer(0)], as: .integer64) == [.integer(7)]) }
        #expect(connection.preparedCount == 1)
    }
}
