import BenchSQLite
import Dispatch
import Foundation

/// The reference for the concurrency workloads: the same work on ObjectGraph's `Person` table
/// through SQLite's C API, one connection per thread (WAL lets a reader run beside a writer;
/// writers take turns through SQLite's busy handler). The query backend's connection reads.
extension RawSQLiteQueryBackend: ConcurrencyBackend {
    /// A connection of its own, waiting up to 10 s for another one's write lock.
    private static func connect(_ url: URL) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(url: url)
        sqlite3_busy_timeout(connection.handle, 10_000)
        return connection
    }

    func fetchLatencies(_ parameters: WorkloadParameters, newRows: [PersonRow]) throws -> FetchLatencies {
        let statement = try connection.prepare(#"SELECT \#(personColumns) FROM "Person" WHERE "age" = ? ORDER BY "_pk" LIMIT ?"#)
        func fetch() throws -> Checksum {
            sqlite3_bind_int64(statement.handle, 1, parameters.equalAge)
            sqlite3_bind_int64(statement.handle, 2, Int64(parameters.smallFetchLimit))
            var rows = Checksum()
            while try statement.step() { rows.append(statement.person()) }
            statement.reset()
            return rows
        }
        var first: Checksum?
        let idle = try measureFetches(count: parameters.latencySamples, first: &first, fetch)

        // A writer connection on another thread inserts the rows in one transaction; the fetches
        // run from its BEGIN to its COMMIT.
        let url = url
        let inTransaction = DispatchSemaphore(value: 0)
        let committed = DispatchSemaphore(value: 0)
        let shared = SharedRunState()
        DispatchQueue.global().async {
            do {
                let writer = try Self.connect(url)
                let insert = try writer.prepare(personInsertSQL)
                try writer.execute("BEGIN IMMEDIATE")
                inTransaction.signal()
                for row in newRows { try insert.insertPerson(row) }
                try writer.execute("COMMIT")
                shared.finish()
                try writer.close()
            } catch {
                inTransaction.signal()
                shared.fail(error)
            }
            committed.signal()
        }
        inTransaction.wait()
        var rows = first
        let during = try measureFetches(while: { !shared.isFinished }, first: &rows, fetch)
        committed.wait()
        try shared.check()
        return FetchLatencies(idle: idle, during: during, rows: first ?? Checksum())
    }

    func concurrentSmallSaves(_ parameters: WorkloadParameters, newRows: [PersonRow]) throws -> Int {
        let perWriter = parameters.writerTransactions
        let url = url
        let shared = SharedRunState()
        DispatchQueue.concurrentPerform(iterations: parameters.concurrentWriters) { writer in
            do {
                let connection = try Self.connect(url)
                let insert = try connection.prepare(personInsertSQL)
                let update = try connection.prepare(#"UPDATE "Person" SET "score" = 200.25 - "score", "_version" = "_version" + 1 WHERE "_pk" = ?"#)
                for number in 0..<perWriter {
                    try connection.execute("BEGIN IMMEDIATE")
                    try insert.insertPerson(newRows[writer * perWriter + number])
                    // Raw's keys are the ids.
                    sqlite3_bind_int64(update.handle, 1, Int64(writer * perWriter + number + 1))
                    _ = try update.step()
                    update.reset()
                    try connection.execute("COMMIT")
                }
                try connection.close()
            } catch {
                shared.fail(error)
            }
        }
        try shared.check()
        return parameters.concurrentWriters * perWriter
    }
}
