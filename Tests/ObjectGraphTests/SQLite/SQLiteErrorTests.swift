import CSQLite
import Foundation
import Testing

@testable import ObjectGraph

/// Result codes become `ObjectGraphError` kinds with SQLite's code, message and SQL attached.
@Suite struct SQLiteErrorTests {
    @Test func codesMapToKinds() {
        let expected: [(Int32, ObjectGraphError.Kind)] = [
            (SQLITE_FULL, .diskFull), (SQLITE_READONLY, .readOnly), (SQLITE_READONLY | (6 << 8), .readOnly),
            (SQLITE_CORRUPT, .corruptStore), (SQLITE_NOTADB, .corruptStore), (SQLITE_CORRUPT | (3 << 8), .corruptStore),
            (SQLITE_CONSTRAINT, .constraintViolation), (SQLiteResultCode.constraintUnique, .constraintViolation),
            (SQLiteResultCode.constraintNotNull, .constraintViolation), (SQLITE_CANTOPEN, .storeUnavailable),
            (SQLITE_BUSY, .busy), (SQLITE_BUSY | (3 << 8), .busy), (SQLITE_LOCKED, .busy), (SQLITE_IOERR | (3 << 8), .sqlite),
            (SQLITE_ERROR, .sqlite)
        ]
        for (code, kind) in expected {
            #expect(SQLiteResultCode.errorKind(of: code) == kind, "\(code)")
        }
    }

    @Test func codesHaveNames() {
        #expect(SQLiteResultCode.describe(2067) == "SQLITE_CONSTRAINT_UNIQUE (2067)")
        #expect(SQLiteResultCode.name(of: SQLITE_BUSY | (3 << 8)) == "SQLITE_BUSY_TIMEOUT")
        #expect(SQLiteResultCode.name(of: SQLITE_FULL) == "SQLITE_FULL")
        #expect(SQLiteResultCode.name(of: SQLITE_IOERR | (99 << 8)) == "SQLITE_IOERR (extended code 99)")
        #expect(SQLiteResultCode.name(of: 250) == "SQLITE code 250")
    }

    @Test func failedStatementCarriesCodeMessageAndSQL() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let connection = try SQLiteConnection(path: directory.appendingPathComponent("e.sqlite").path, readOnly: false, busyTimeout: 1)
        try connection.execute("CREATE TABLE \"T\" (\"a\" TEXT UNIQUE NOT NULL) STRICT; INSERT INTO \"T\" VALUES ('x')")
        let insert = try connection.prepare("INSERT INTO \"T\" VALUES ('x')")
        let error = #expect(throws: ObjectGraphError.self) { try insert.execute() }
        #expect(error?.kind == .constraintViolation)
        #expect(error?.sqliteCode == 2067)
        #expect(error?.sql == "INSERT INTO \"T\" VALUES ('x')")
        #expect(error?.message.contains("UNIQUE constraint failed: T.a") == true)
        #expect(error?.message.hasSuffix("[SQLITE_CONSTRAINT_UNIQUE (2067)]") == true)
        // The SQL stays out of the description: statements can reveal private schema details.
        #expect(error?.description.contains("INSERT") == false)
    }

    @Test func prepareErrorsNameTheProblem() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let connection = try SQLiteConnection(path: directory.appendingPathComponent("e.sqlite").path, readOnly: false, busyTimeout: 1)
        let error = #expect(throws: ObjectGraphError.self) { try connection.execute("SELECT 1; SELEKT 2") }
        #expect(error?.kind == .sqlite)
        #expect(error?.sql == "SELEKT 2")
        #expect(error?.message.hasPrefix("Cannot prepare a statement: near \"SELEKT\": syntax error") == true)
        #expect(error?.sqliteCode == SQLITE_ERROR)
        #expect(error?.message.contains("syntax error") == true)
    }

    @Test func transactionRollsBackAndRethrowsTheFirstError() throws {
        struct Boom: Error {}
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let connection = try SQLiteConnection(path: directory.appendingPathComponent("t.sqlite").path, readOnly: false, busyTimeout: 1)
        try connection.execute("CREATE TABLE \"T\" (\"a\" INTEGER) STRICT")
        #expect(throws: Boom.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO \"T\" VALUES (1)")
                throw Boom()
            }
        }
        #expect(!connection.isInTransaction)
        let count = try connection.prepare("SELECT count(*) FROM \"T\"")
        #expect(try count.step())
        #expect(count.int64(at: 0) == 0)
        let value = try connection.transaction {
            try connection.execute("INSERT INTO \"T\" VALUES (1)")
            return connection.changes
        }
        #expect(value == 1)
    }

    @Test func observerSeesEveryStatement() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let connection = try SQLiteConnection(path: directory.appendingPathComponent("o.sqlite").path, readOnly: false, busyTimeout: 1)
        var seen: [String] = []
        connection.statementObserver = { seen.append($0) }
        try connection.execute("CREATE TABLE \"T\" (\"a\" INTEGER) STRICT; INSERT INTO \"T\" VALUES (1)")
        connection.statementObserver = nil
        try connection.execute("INSERT INTO \"T\" VALUES (2)")
        #expect(seen == ["CREATE TABLE \"T\" (\"a\" INTEGER) STRICT", "INSERT INTO \"T\" VALUES (1)"])
    }
}
