import CSQLite
import Foundation
import Testing

@testable import ObjectGraph

/// Binding and reading every attribute type through a raw connection: the storage mapping both
/// stores rely on.
@Suite struct SQLiteValueTests {
    /// A connection to a fresh file with a STRICT table holding one column per storage class.
    private func withTable(_ body: (SQLiteConnection) throws -> Void) throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let connection = try SQLiteConnection(path: directory.appendingPathComponent("values.sqlite").path, readOnly: false, busyTimeout: 1)
        defer { connection.close() }
        try connection.execute(
            """
            CREATE TABLE "V" ("i" INTEGER, "r" REAL, "t" TEXT, "b" BLOB) STRICT;
            CREATE TABLE "Any" ("v" ANY) STRICT
            """)
        try body(connection)
    }

    /// Writes `value` into the column its type maps to and reads it back.
    private func roundTrip(_ value: AttributeValue, as type: AttributeType, on connection: SQLiteConnection) throws -> AttributeValue {
        let column = ["INTEGER": "i", "REAL": "r", "TEXT": "t", "BLOB": "b"][type.sqliteColumnType]!
        try connection.execute("DELETE FROM \"V\"")
        let insert = try connection.cachedStatement("INSERT INTO \"V\" (\"\(column)\") VALUES (?)")
        insert.reset()
        try insert.bind(value, at: 1)
        try insert.execute()
        let select = try connection.cachedStatement("SELECT \"\(column)\" FROM \"V\"")
        select.reset()
        defer { select.reset() }
        #expect(try select.step())
        return try select.value(at: 0, as: type)
    }

    static let cases: [(AttributeValue, AttributeType)] = [
        (.integer(Int64.min), .integer64), (.integer(Int64.max), .integer64), (.integer(0), .integer64),
        (.integer(Int64(Int16.min)), .integer16), (.integer(Int64(Int32.max)), .integer32),
        (.double(.infinity), .double), (.double(-.infinity), .double), (.double(-0.1), .double),
        (.double(.leastNonzeroMagnitude), .double), (.double(.greatestFiniteMagnitude), .double),
        (.float(.infinity), .float), (.float(1.1), .float), (.float(-.greatestFiniteMagnitude), .float),
        (.decimal(Decimal(string: "3.14159265358979323846264338327950288")!), .decimal),
        (.decimal(Decimal(string: "-0.000000001")!), .decimal), (.decimal(0), .decimal),
        (.string(""), .string), (.string("héllo 👋🏽 \u{0}inside"), .string), (.string(String(repeating: "long ", count: 10_000)), .string),
        (.boolean(true), .boolean), (.boolean(false), .boolean),
        (.date(Date(timeIntervalSinceReferenceDate: 123_456_789.000_123_4)), .date),
        (.date(Date(timeIntervalSinceReferenceDate: -63_000_000_000.5)), .date),
        (.binary(Data()), .binary), (.binary(Data([0, 1, 2, 255, 0])), .binary),
        (.uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!), .uuid),
        (.uri(URL(string: "https://example.com/a%20b?q=1#frag")!), .uri), (.uri(URL(string: "file:///tmp/x")!), .uri),
        (.json(try! JSONDocument(data: Data("{\"a\":[1,2,{\"b\":null}]}".utf8))), .json),
        (.json(try! JSONDocument(data: Data("\"\"".utf8))), .json)
    ]

    @Test func everyTypeRoundTrips() throws {
        try withTable { connection in
            for (value, type) in Self.cases {
                let read = try roundTrip(value, as: type, on: connection)
                #expect(read == value, "\(type) \(value.debugText)")
            }
        }
    }

    @Test func nullRoundTripsForEveryType() throws {
        try withTable { connection in
            for type in AttributeType.allCases {
                let read = try roundTrip(.null, as: type, on: connection)
                #expect(read == .null)
            }
        }
    }

    @Test func emptyStringAndEmptyDataAreNotNull() throws {
        try withTable { connection in
            let insert = try connection.prepare("INSERT INTO \"V\" (\"t\", \"b\") VALUES (?, ?)")
            try insert.bind([.string(""), .binary(Data())])
            try insert.execute()
            let select = try connection.prepare("SELECT \"t\" IS NULL, \"b\" IS NULL, typeof(\"t\"), typeof(\"b\") FROM \"V\"")
            #expect(try select.step())
            #expect(select.int64(at: 0) == 0)
            #expect(select.int64(at: 1) == 0)
            #expect(select.text(at: 2) == "text")
            #expect(select.text(at: 3) == "blob")
        }
    }

    @Test func storageClassesFollowTheMapping() throws {
        try withTable { connection in
            let insert = try connection.cachedStatement("INSERT INTO \"Any\" (\"v\") VALUES (?)")
            let expected: [(AttributeValue, String)] = [
                (.boolean(true), "integer"), (.float(2.5), "real"), (.date(Date(timeIntervalSinceReferenceDate: 0)), "real"),
                (.decimal(1), "text"), (.uri(URL(string: "https://a.b")!), "text"), (.json(try JSONDocument(encoding: [1])), "text"),
                (.uuid(UUID()), "blob")
            ]
            for (value, storage) in expected {
                try connection.execute("DELETE FROM \"Any\"")
                insert.reset()
                try insert.bind(value, at: 1)
                try insert.execute()
                let select = try connection.prepare("SELECT typeof(\"v\"), length(\"v\") FROM \"Any\"")
                #expect(try select.step())
                #expect(select.text(at: 0) == storage, "\(value.debugText)")
                if case .uuid = value { #expect(select.int64(at: 1) == 16) }
            }
        }
    }

    @Test func wrongStorageClassIsReportedAsDamage() throws {
        try withTable { connection in
            try connection.execute("INSERT INTO \"Any\" VALUES ('not a number')")
            let select = try connection.prepare("SELECT \"v\" AS \"age\" FROM \"Any\"")
            #expect(try select.step())
            let error = #expect(throws: ObjectGraphError.self) { try select.value(at: 0, as: .integer64) }
            #expect(error?.kind == .corruptStore)
            #expect(error?.message.contains("\"age\"") == true)
            #expect(error?.message.contains("TEXT") == true)
            #expect(error?.sql == select.sql)
        }
    }

    @Test func undecodableValuesAreReportedAsDamage() throws {
        try withTable { connection in
            let cases: [(String, AttributeType)] = [
                ("'12abc'", .decimal), ("'{not json'", .json), ("x'0102'", .uuid), ("70000", .integer16), ("2", .boolean)
            ]
            for (literal, type) in cases {
                try connection.execute("DELETE FROM \"Any\"; INSERT INTO \"Any\" VALUES (\(literal))")
                let select = try connection.prepare("SELECT \"v\" FROM \"Any\"")
                #expect(try select.step())
                let error = #expect(throws: ObjectGraphError.self, "\(type)") { try select.value(at: 0, as: type) }
                #expect(error?.kind == .corruptStore)
                #expect(error?.message.contains("\"v\"") == true)
            }
        }
    }
}
