import BenchSQLite
import Foundation
import ObjectGraph

/// M2 (issue 16): migrating a store of N `Person` rows through a step SQLite cannot do with
/// `ALTER TABLE` (a STRICT column's type widens, an attribute is renamed, one is added with a
/// default, an index appears), so the table is rebuilt. ObjectGraph migrates by opening the store
/// with version 2; raw SQLite runs the same rebuild written by hand in one transaction. Each
/// repetition works on a fresh copy of one version-1 store, in a process of its own.
///
///     objectgraph-bench --migration [N] [REPETITIONS]
enum MigrationBenchmark {
    static let version1 = """
        { "name": "People", "version": 1, "entities": [ { "name": "Person", "attributes": [
            { "name": "name", "type": "string" }, { "name": "email", "type": "string" },
            { "name": "age", "type": "integer16" }, { "name": "score", "type": "double" },
            { "name": "bio", "type": "string", "optional": true } ] } ] }
        """
    static let version2 = """
        { "name": "People", "version": 2, "entities": [ { "name": "Person", "attributes": [
            { "name": "name", "type": "string" }, { "name": "email", "type": "string", "indexed": true },
            { "name": "age", "type": "integer64" }, { "name": "score", "type": "double" },
            { "name": "about", "type": "string", "optional": true, "renamingIdentifier": "bio" },
            { "name": "country", "type": "string", "default": "unknown" } ] } ] }
        """

    /// The hand-written rebuild, as a developer would write it for this step.
    static let rawRebuild = """
        BEGIN IMMEDIATE;
        ALTER TABLE "Person" RENAME TO "Person_old";
        CREATE TABLE "Person" ("_pk" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "email" TEXT NOT NULL,
            "age" INTEGER NOT NULL, "score" REAL NOT NULL, "about" TEXT, "country" TEXT NOT NULL,
            "_version" INTEGER NOT NULL DEFAULT 1) STRICT;
        INSERT INTO "Person" ("_pk", "_version", "name", "email", "age", "score", "about", "country")
            SELECT "_pk", "_version", "name", "email", "age", "score", "bio", 'unknown' FROM "Person_old";
        DROP TABLE "Person_old";
        CREATE INDEX "Person_email_idx" ON "Person" ("email");
        COMMIT;
        """

    static func main(_ arguments: [String]) throws -> Bool {
        if arguments.first == "--migration-child", arguments.count == 3 {
            let (seconds, peakKB) = try measure(arguments[1], store: URL(fileURLWithPath: arguments[2]))
            print("\(Worker.resultMarker)\(seconds) \(peakKB)")
            return true
        }
        let count = arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000
        let repetitions = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
        return try drive(count: count, repetitions: repetitions)
    }

    /// Builds the version-1 store once, then runs each backend's repetitions in child processes
    /// and prints the table and the ratio.
    private static func drive(count: Int, repetitions: Int) throws -> Bool {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("objectgraph-migration-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let template = directory.appendingPathComponent("template.sqlite")
        try fill(template, count: count)
        var medians: [String: Double] = [:]
        var checksums: [String: String] = [:]
        print("M2: migrate \(count) Person rows through a table rebuild (widen, rename, add with default, index); \(repetitions) repetitions + warm-up")
        print("| backend | median s | min s | max s | rows/s | peak RSS MB |")
        print("|---|---:|---:|---:|---:|---:|")
        for kind in ["raw", "objectgraph"] {
            var seconds: [Double] = []
            var peakMB = 0.0
            for repetition in 0...repetitions {
                let work = directory.appendingPathComponent("work.sqlite")
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: work.path + suffix) }
                try FileManager.default.copyItem(at: template, to: work)
                let (elapsed, peakKB) = try runChild(kind, store: work)
                checksums[kind] = try checksum(work)
                if repetition == 0 { peakMB = Double(peakKB) / 1024 } else { seconds.append(elapsed) }
            }
            let sorted = seconds.sorted()
            medians[kind] = sorted[sorted.count / 2]
            print(String(format: "| %@ | %.3f | %.3f | %.3f | %.0f | %.0f |", kind, sorted[sorted.count / 2], sorted.first!, sorted.last!, Double(count) / sorted[sorted.count / 2], peakMB))
        }
        let ratio = medians["objectgraph"]! / medians["raw"]!
        print(String(format: "ratio objectgraph / raw: %.2f× (target ≤ 1.3×)", ratio))
        guard checksums["raw"] == checksums["objectgraph"] else {
            print("FAILED: the migrated stores differ: raw \(checksums["raw"]!), objectgraph \(checksums["objectgraph"]!)")
            return false
        }
        print("checksum of both migrated tables: \(checksums["raw"]!)")
        return true
    }

    /// A version-1 ObjectGraph store of `count` people, made with a batch insert.
    private static func fill(_ url: URL, count: Int) throws {
        let container = PersistentContainer(name: "People", managedObjectModel: try ManagedObjectModel(data: Data(version1.utf8)))
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        try container.loadPersistentStores()
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let dataset = Dataset(count: count, seed: Dataset.defaultSeed)
            _ = try context.execute(BatchInsertRequest(entityName: "Person", objects: dataset.rows.map { row in
                ["name": row.name, "email": row.email, "age": row.age, "score": row.score, "bio": row.bio]
            }))
        }
    }

    /// Runs one measured migration in a child process; its seconds and peak RSS.
    private static func runChild(_ kind: String, store: URL) throws -> (Double, Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        process.arguments = ["--migration-child", kind, store.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(Worker.resultMarker) }
        let fields = line?.dropFirst(Worker.resultMarker.count).split(separator: " ").compactMap { Double($0) } ?? []
        guard process.terminationStatus == 0, fields.count == 2 else {
            throw VerificationFailure(description: "the \(kind) migration child failed (status \(process.terminationStatus))")
        }
        return (fields[0], Int(fields[1]))
    }

    /// In the child: migrates the store and returns the seconds and the peak RSS of the work.
    private static func measure(_ kind: String, store: URL) throws -> (Double, Int) {
        let model = try ManagedObjectModel(data: Data(version2.utf8))
        _ = ProcessMemory.resetPeak()
        let clock = ContinuousClock()
        let start = clock.now
        if kind == "raw" {
            var handle: OpaquePointer?
            guard sqlite3_open(store.path, &handle) == SQLITE_OK else { throw VerificationFailure(description: "cannot open \(store.path)") }
            defer { sqlite3_close(handle) }
            guard sqlite3_exec(handle, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;" + rawRebuild, nil, nil, nil) == SQLITE_OK else {
                throw VerificationFailure(description: "raw rebuild failed: \(String(cString: sqlite3_errmsg(handle)))")
            }
        } else {
            let container = PersistentContainer(name: "People", managedObjectModel: model)
            container.persistentStoreDescriptions = [PersistentStoreDescription(url: store)]
            try container.loadPersistentStores()
            container.persistentStoreCoordinator.removePersistentStore()
        }
        return ((clock.now - start).seconds, ProcessMemory.peakKB)
    }

    /// A checksum of the migrated table: every column of every row, in key order.
    private static func checksum(_ url: URL) throws -> String {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { throw VerificationFailure(description: "cannot open \(url.path)") }
        defer { sqlite3_close(handle) }
        var statement: OpaquePointer?
        let sql = #"SELECT count(*), total(length("name") + length("email") + "age" * 3 + "score" + coalesce(length("about"), 0) + length("country") + "_pk"), sum("age"), typeof("age") FROM "Person""#
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { throw VerificationFailure(description: "cannot checksum \(url.path)") }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw VerificationFailure(description: "cannot checksum \(url.path)") }
        return "\(sqlite3_column_int64(statement, 0)) rows, \(sqlite3_column_double(statement, 1)), \(sqlite3_column_int64(statement, 2)), \(String(cString: sqlite3_column_text(statement, 3)))"
    }
}
