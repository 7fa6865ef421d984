import BenchSQLite
import Foundation

/// The physical limit: SQLite's C API with prepared statements, one transaction per write
/// workload, strings bound without copying and decoded straight from SQLite's buffers.
final class RawSQLiteBackend: Backend {
    private let connection: SQLiteConnection
    private var idsToDelete: [Int64] = []
    private var lookupIDs: [Int64] = []

    init(location: StoreLocation) throws {
        connection = try SQLiteConnection(url: location.url)
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS Person (
                id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, age INTEGER NOT NULL,
                score REAL NOT NULL, createdAt REAL NOT NULL, bio TEXT)
            """
        )
        if location.indexed {
            try connection.execute("CREATE INDEX IF NOT EXISTS Person_age ON Person(age)")
        }
    }

    func close() throws { try connection.close() }

    func insert(_ rows: [PersonRow]) throws {
        try connection.execute("BEGIN")
        let statement = try connection.prepare(personInsertSQL)
        for row in rows { try statement.insertPerson(row) }
        try connection.execute("COMMIT")
    }

    func fetchAll() throws -> Checksum {
        let rows = try readAll()
        var checksum = Checksum()
        for row in rows { checksum.add(row) }
        return checksum
    }

    func queryAgeRange(_ parameters: WorkloadParameters) throws -> Checksum {
        let statement = try connection.prepare("SELECT \(personColumns) FROM Person WHERE age BETWEEN ? AND ? ORDER BY name LIMIT ?")
        var total = Checksum()
        for _ in 0..<parameters.queries {
            sqlite3_bind_int64(statement.handle, 1, parameters.ageRange.lowerBound)
            sqlite3_bind_int64(statement.handle, 2, parameters.ageRange.upperBound)
            sqlite3_bind_int64(statement.handle, 3, Int64(parameters.queryLimit))
            var rows: [PersonRow] = []
            while try statement.step() { rows.append(statement.person()) }
            statement.reset()
            var checksum = Checksum()
            for row in rows { checksum.append(row) }
            total.combine(checksum)
        }
        return total
    }

    func updateAllScores() throws -> Checksum {
        try connection.execute("BEGIN")
        var rows = try readAll()
        var checksum = Checksum()
        let update = try connection.prepare("UPDATE Person SET score = ? WHERE id = ?")
        for index in rows.indices {
            checksum.add(rows[index])
            rows[index].score = WorkloadParameters.newScore(rows[index].score)
            sqlite3_bind_double(update.handle, 1, rows[index].score)
            sqlite3_bind_int64(update.handle, 2, rows[index].id)
            _ = try update.step()
            update.reset()
        }
        try connection.execute("COMMIT")
        return checksum
    }

    func prepareDelete(ids: [Int64]) throws { idsToDelete = ids }

    func deletePrepared() throws -> Int {
        try connection.execute("BEGIN")
        let delete = try connection.prepare("DELETE FROM Person WHERE id = ?")
        var deleted = 0
        for id in idsToDelete {
            sqlite3_bind_int64(delete.handle, 1, id)
            _ = try delete.step()
            deleted += Int(sqlite3_changes(connection.handle))
            delete.reset()
        }
        try connection.execute("COMMIT")
        return deleted
    }

    func prepareLookups(ids: [Int64]) throws { lookupIDs = ids }

    func lookUpPrepared() throws -> Checksum {
        let statement = try connection.prepare("SELECT \(personColumns) FROM Person WHERE id = ?")
        var checksum = Checksum()
        for id in lookupIDs {
            sqlite3_bind_int64(statement.handle, 1, id)
            guard try statement.step() else { throw SQLiteFailure(code: SQLITE_NOTFOUND, message: "no Person with id \(id)") }
            checksum.append(statement.person())
            statement.reset()
        }
        return checksum
    }

    /// One statement stepped through every row; each name is decoded into a `String`, as the
    /// other backends return it, and dropped.
    func iterateNames(batchSize: Int) throws -> Checksum {
        let statement = try connection.prepare("SELECT name FROM Person")
        var checksum = Checksum()
        while try statement.step() { checksum.addName(statement.text(0)) }
        return checksum
    }

    private func readAll() throws -> [PersonRow] {
        let statement = try connection.prepare("SELECT \(personColumns) FROM Person")
        var rows: [PersonRow] = []
        while try statement.step() { rows.append(statement.person()) }
        return rows
    }
}
