import BenchSQLite
import Foundation

/// The physical limit for the query workloads on `Person`: ObjectGraph's own `Person` table (and
/// its index on `age` for Q1), without its metadata tables, queried through SQLite's C API with
/// prepared statements. Each fetch reads every attribute of each matching row into a struct, as
/// a fetch of objects does, then reads the names.
final class RawSQLiteQueryBackend: QueryBackend {
    let connection: SQLiteConnection
    /// The database file, for the concurrency workloads' connections of their own.
    let url: URL

    /// What `objectgraph schema Models/Benchmark.json` creates, less `_objectgraph_*`
    /// (`Models/BenchmarkIndexed.json` adds the index).
    static let schema = """
        CREATE TABLE IF NOT EXISTS "Person" (
            "_pk" INTEGER PRIMARY KEY /* Person.id */,
            "name" TEXT NOT NULL,
            "email" TEXT NOT NULL,
            "age" INTEGER NOT NULL,
            "score" REAL NOT NULL,
            "createdAt" REAL NOT NULL,
            "bio" TEXT,
            "_version" INTEGER NOT NULL DEFAULT 1
        ) STRICT
        """
    static let index = #"CREATE INDEX IF NOT EXISTS "Person_age_idx" ON "Person" ("age")"#

    init(location: StoreLocation) throws {
        url = location.url
        connection = try SQLiteConnection(url: location.url)
        try connection.execute(Self.schema)
        if location.indexed { try connection.execute(Self.index) }
    }

    func close() throws { try connection.close() }

    /// Builds the populated store (not timed).
    func insert(_ rows: [PersonRow]) throws {
        try insert(count: rows.count) { rows[$0] }
    }

    /// Q7: one prepared `INSERT` in one transaction.
    func batchInsert(_ people: PersonPool) throws -> Int {
        try insert(count: people.count, row: people.row)
        return people.count
    }

    /// Rows `row(0)`, …, `row(count - 1)` by one prepared `INSERT` in one transaction.
    private func insert(count: Int, row makeRow: (Int) -> PersonRow) throws {
        try connection.execute("BEGIN")
        let statement = try connection.prepare(personInsertSQL)
        for index in 0..<count { try statement.insertPerson(makeRow(index)) }
        try connection.execute("COMMIT")
    }

    /// One prepared statement, re-run: the index on `age` finds the rows, SQLite sorts them.
    func fetchEqualAgeSortedByName(_ parameters: WorkloadParameters) throws -> Checksum {
        let statement = try connection.prepare(#"SELECT \#(personColumns) FROM "Person" WHERE "age" = ? ORDER BY "name""#)
        var total = Checksum()
        for _ in 0..<parameters.queries {
            sqlite3_bind_int64(statement.handle, 1, parameters.equalAge)
            let rows = try readRows(statement)
            var checksum = Checksum()
            for row in rows { checksum.appendName(row.name) }
            total.combine(checksum)
        }
        return total
    }

    /// SQLite's built-in `LIKE '%needle%'`: case-insensitive for ASCII letters only, and blind to
    /// diacritics. With ASCII names and an ASCII needle it matches exactly the rows
    /// `CONTAINS[cd]` matches; it is the fastest way SQLite has, not a Unicode-aware equivalent.
    func searchNames(_ parameters: WorkloadParameters) throws -> Checksum {
        let statement = try connection.prepare(#"SELECT \#(personColumns) FROM "Person" WHERE "name" LIKE ?"#)
        // Bound once (SQLITE_TRANSIENT: SQLite keeps its own copy); bindings outlive resets.
        sqlite3_bind_text(statement.handle, 1, "%" + parameters.nameNeedle + "%", -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        var total = Checksum()
        for _ in 0..<parameters.searches {
            let rows = try readRows(statement)
            var checksum = Checksum()
            for row in rows { checksum.addName(row.name) }
            total.combine(checksum)
        }
        return total
    }

    func averageScoreByAge(_ parameters: WorkloadParameters) throws -> [[AgeGroup]] {
        let statement = try connection.prepare(#"SELECT "age", count(*), avg("score") FROM "Person" GROUP BY "age" ORDER BY "age""#)
        var results: [[AgeGroup]] = []
        for _ in 0..<parameters.aggregates {
            var groups: [AgeGroup] = []
            while try statement.step() {
                groups.append(AgeGroup(
                    age: sqlite3_column_int64(statement.handle, 0),
                    count: Int(sqlite3_column_int64(statement.handle, 1)),
                    meanScore: sqlite3_column_double(statement.handle, 2)))
            }
            statement.reset()
            results.append(groups)
        }
        return results
    }

    /// One `UPDATE` in one transaction, bumping the versions as ObjectGraph's writes do.
    func batchUpdateScores(_ parameters: WorkloadParameters) throws -> Int {
        try connection.execute("BEGIN")
        let statement = try connection.prepare(#"UPDATE "Person" SET "score" = ?, "_version" = "_version" + 1 WHERE "age" < ?"#)
        sqlite3_bind_double(statement.handle, 1, parameters.batchScore)
        sqlite3_bind_int64(statement.handle, 2, parameters.batchAgeLimit)
        _ = try statement.step()
        let changed = Int(sqlite3_changes(connection.handle))
        try connection.execute("COMMIT")
        return changed
    }

    /// One `DELETE` in one transaction.
    func batchDelete(_ parameters: WorkloadParameters) throws -> Int {
        try connection.execute("BEGIN")
        let statement = try connection.prepare(#"DELETE FROM "Person" WHERE "age" < ?"#)
        sqlite3_bind_int64(statement.handle, 1, parameters.batchAgeLimit)
        _ = try statement.step()
        let changed = Int(sqlite3_changes(connection.handle))
        try connection.execute("COMMIT")
        return changed
    }

    /// Steps `statement` to the end, every row into a struct, and resets it.
    private func readRows(_ statement: SQLiteStatement) throws -> [PersonRow] {
        var rows: [PersonRow] = []
        while try statement.step() { rows.append(statement.person()) }
        statement.reset()
        return rows
    }
}
