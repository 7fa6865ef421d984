import Dispatch
import Foundation
import PostgresNIO

/// The PostgreSQL baseline (`pgraw`): postgres-nio by hand on ObjectGraph's own `Person` table
/// (`_pk` = `id`, the attributes, `_version`), with named prepared statements (parsed once per
/// connection, then only bound and run), one transaction per write workload, rows decoded
/// straight into `PersonRow`s. Writes go in as few round trips as a careful user would send:
/// W1 multi-row `INSERT`s of 500 rows (ObjectGraph's chunk too), W4 one `UPDATE … FROM unnest`
/// of every key and score, W5 one `DELETE … WHERE _pk = ANY` of every key.
///
/// postgres-nio's prepared statements are async; each timed method runs as one task that this
/// thread waits for, so the hop costs once per workload, not per statement.
final class RawPostgreSQLBackend: Backend, @unchecked Sendable {
    private let connection: PostgresConnection
    private let logger: Logger
    private var idsToDelete: [Int64] = []
    private var lookupIDs: [Int64] = []

    init(location: StoreLocation) throws {
        guard let url = location.postgresURL else { throw VerificationFailure(description: "pgraw needs a PostgreSQL database") }
        let logger = Logger(label: "objectgraph-bench.pgraw")
        self.logger = logger
        connection = try waitFor { try await PostgresConnection.connect(configuration: PostgresConnection.Configuration(url), id: 1, logger: logger) }
        let indexed = location.indexed
        try waitFor { [connection] () async throws -> Void in
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS "Person" (
                    "_pk" bigint PRIMARY KEY, "name" text COLLATE "C" NOT NULL, "email" text COLLATE "C" NOT NULL,
                    "age" bigint NOT NULL, "score" double precision NOT NULL, "createdAt" double precision NOT NULL,
                    "bio" text COLLATE "C", "_version" bigint NOT NULL DEFAULT 1)
                """, logger: logger)
            if indexed { try await connection.query(#"CREATE INDEX IF NOT EXISTS "Person_age_idx" ON "Person" ("age")"#, logger: logger) }
        }
    }

    func close() throws {
        try waitFor { [connection] in try await connection.close() }
    }

    func insert(_ rows: [PersonRow]) throws {
        try transaction {
            var start = 0
            while start < rows.count {
                let end = min(start + InsertRows.rowCount, rows.count)
                if end - start == InsertRows.rowCount {
                    try await self.run(InsertRows(rows: rows[start..<end]))
                } else {
                    for row in rows[start..<end] { try await self.run(InsertRow(row: row)) }
                }
                start = end
            }
        }
    }

    func fetchAll() throws -> Checksum {
        try waitFor {
            var checksum = Checksum()
            for row in try await self.readAll() { checksum.add(row) }
            return checksum
        }
    }

    func queryAgeRange(_ parameters: WorkloadParameters) throws -> Checksum {
        try waitFor {
            var total = Checksum()
            let query = AgeRangeQuery(range: parameters.ageRange, limit: Int64(parameters.queryLimit))
            for _ in 0..<parameters.queries {
                var rows: [PersonRow] = []
                for try await row in try await self.connection.execute(query, logger: self.logger) { rows.append(row) }
                var checksum = Checksum()
                for row in rows { checksum.append(row) }
                total.combine(checksum)
            }
            return total
        }
    }

    func updateAllScores() throws -> Checksum {
        try transaction {
            let rows = try await self.readAll()
            var checksum = Checksum()
            var keys: [Int64] = []
            var scores: [Double] = []
            keys.reserveCapacity(rows.count)
            scores.reserveCapacity(rows.count)
            for row in rows {
                checksum.add(row)
                keys.append(row.id)
                scores.append(WorkloadParameters.newScore(row.score))
            }
            try await self.run(UpdateScores(keys: keys, scores: scores))
            return checksum
        }
    }

    func prepareDelete(ids: [Int64]) throws { idsToDelete = ids }

    func deletePrepared() throws -> Int {
        try transaction {
            var count = 0
            for try await deleted in try await self.connection.execute(DeleteRows(keys: self.idsToDelete), logger: self.logger) {
                count = Int(deleted)
            }
            return count
        }
    }

    func prepareLookups(ids: [Int64]) throws { lookupIDs = ids }

    func lookUpPrepared() throws -> Checksum {
        try waitFor {
            var checksum = Checksum()
            for id in self.lookupIDs {
                var found: PersonRow?
                for try await row in try await self.connection.execute(LookUpRow(key: id), logger: self.logger) { found = row }
                guard let found else { throw VerificationFailure(description: "no Person with id \(id)") }
                checksum.append(found)
            }
            return checksum
        }
    }

    func iterateNames(batchSize: Int) throws -> Checksum {
        try waitFor {
            var checksum = Checksum()
            for try await name in try await self.connection.execute(ReadNames(), logger: self.logger) { checksum.addName(name) }
            return checksum
        }
    }

    private func readAll() async throws -> [PersonRow] {
        var rows: [PersonRow] = []
        for try await row in try await connection.execute(ReadAll(), logger: logger) { rows.append(row) }
        return rows
    }

    /// Runs a statement that returns no rows. (postgres-nio 1.33.2's overload returning the
    /// command tag traps on a statement without rows, so the empty row sequence is drained.)
    private func run<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws where Statement.Row == () {
        for try await _ in try await connection.execute(statement, logger: logger) {}
    }

    /// Runs `body` between `BEGIN` and `COMMIT` (a failure ends the run: no rollback needed).
    private func transaction<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        try waitFor {
            try await self.connection.query("BEGIN", logger: self.logger)
            let result = try await body()
            try await self.connection.query("COMMIT", logger: self.logger)
            return result
        }
    }
}

// MARK: - The prepared statements

private let personTypes: [PostgresDataType] = [.int8, .text, .text, .int8, .float8, .float8, .text]

private func decodePerson(_ row: PostgresRow) throws -> PersonRow { try PersonRow(row) }

extension PostgresBindings {
    fileprivate mutating func append(_ row: PersonRow) {
        append(row.id)
        append(row.name)
        append(row.email)
        append(row.age)
        append(row.score)
        append(row.createdAt)
        append(row.bio)
    }
}

/// W1: 500 rows per statement.
private struct InsertRows: PostgresPreparedStatement {
    static let rowCount = 500
    static let sql: String =
        #"INSERT INTO "Person" ("_pk", "name", "email", "age", "score", "createdAt", "bio") VALUES "#
        + (0..<rowCount).map { (row: Int) -> String in "(" + (1...7).map { "$\(row * 7 + $0)" }.joined(separator: ", ") + ")" }.joined(separator: ", ")
    static let bindingDataTypes: [PostgresDataType] = Array([[PostgresDataType]](repeating: personTypes, count: rowCount).joined())
    typealias Row = ()
    let rows: ArraySlice<PersonRow>

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: rows.count * 7)
        for row in rows { bindings.append(row) }
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws {}
}

/// W1: the rows after the last whole chunk of 500.
private struct InsertRow: PostgresPreparedStatement {
    static let sql = #"INSERT INTO "Person" ("_pk", "name", "email", "age", "score", "createdAt", "bio") VALUES ($1, $2, $3, $4, $5, $6, $7)"#
    static let bindingDataTypes = personTypes
    typealias Row = ()
    let row: PersonRow

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 7)
        bindings.append(row)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws {}
}

/// W2 and W4: every row.
private struct ReadAll: PostgresPreparedStatement {
    static let sql = #"SELECT \#(postgresPersonColumns) FROM "Person""#
    typealias Row = PersonRow

    func makeBindings() -> PostgresBindings { PostgresBindings() }
    func decodeRow(_ row: PostgresRow) throws -> PersonRow { try decodePerson(row) }
}

/// W3.
private struct AgeRangeQuery: PostgresPreparedStatement {
    static let sql = #"SELECT \#(postgresPersonColumns) FROM "Person" WHERE "age" BETWEEN $1 AND $2 ORDER BY "name" LIMIT $3"#
    static let bindingDataTypes: [PostgresDataType] = [.int8, .int8, .int8]
    typealias Row = PersonRow
    let range: ClosedRange<Int64>
    let limit: Int64

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(range.lowerBound)
        bindings.append(range.upperBound)
        bindings.append(limit)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> PersonRow { try decodePerson(row) }
}

/// W4: every key with its new score, as two arrays.
private struct UpdateScores: PostgresPreparedStatement {
    static let sql = #"UPDATE "Person" SET "score" = new."score" FROM unnest($1::bigint[], $2::float8[]) AS new("_pk", "score") WHERE "Person"."_pk" = new."_pk""#
    static let bindingDataTypes: [PostgresDataType] = [.int8Array, .float8Array]
    typealias Row = ()
    let keys: [Int64]
    let scores: [Double]

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(keys)
        bindings.append(scores)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws {}
}

/// W5: every key, as one array.
private struct DeleteRows: PostgresPreparedStatement {
    static let sql = #"WITH deleted AS (DELETE FROM "Person" WHERE "_pk" = ANY($1::bigint[]) RETURNING 1) SELECT count(*) FROM deleted"#
    static let bindingDataTypes: [PostgresDataType] = [.int8Array]
    typealias Row = Int64
    let keys: [Int64]

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(keys)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
}

/// W6.
private struct LookUpRow: PostgresPreparedStatement {
    static let sql = #"SELECT \#(postgresPersonColumns) FROM "Person" WHERE "_pk" = $1"#
    static let bindingDataTypes: [PostgresDataType] = [.int8]
    typealias Row = PersonRow
    let key: Int64

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(key)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> PersonRow { try decodePerson(row) }
}

/// M1.
private struct ReadNames: PostgresPreparedStatement {
    static let sql = #"SELECT "name" FROM "Person""#
    typealias Row = String

    func makeBindings() -> PostgresBindings { PostgresBindings() }
    func decodeRow(_ row: PostgresRow) throws -> String { try row.decode(String.self) }
}

// MARK: - Waiting for async work

/// Runs `body` as a task and waits for its result on this thread.
func waitFor<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let outcome = TaskOutcome<T>()
    Task {
        do { outcome.result = .success(try await body()) } catch { outcome.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try outcome.result!.get()
}

/// A task's result, written by the task before it signals and read after the wait.
private final class TaskOutcome<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
