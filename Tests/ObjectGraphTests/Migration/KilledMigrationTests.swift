import CSQLite
import Foundation
import Testing

@testable import ObjectGraph

/// A process killed (SIGKILL) in the middle of migrating a store leaves it either as it was,
/// opening with the old model, or fully migrated — never half-way.
@Suite struct KilledMigrationTests {
    static let version1 =
        #"{ "name": "Log", "version": 1, "entities": [ { "name": "Item", "attributes": [ { "name": "code", "type": "string" }, { "name": "count", "type": "integer32", "default": 0 } ], "relationships": [ { "name": "entries", "destination": "Entry", "toMany": true, "inverse": "item" } ] }, { "name": "Entry", "attributes": [ { "name": "text", "type": "string" } ], "relationships": [ { "name": "item", "destination": "Item", "inverse": "entries" } ] } ] }"#
    static let version2 =
        #"{ "name": "Log", "version": 2, "entities": [ { "name": "Item", "attributes": [ { "name": "code", "type": "string" }, { "name": "title", "type": "string", "optional": true }, { "name": "count", "type": "integer64", "default": 0 } ], "relationships": [ { "name": "entries", "destination": "Entry", "toMany": true, "inverse": "item" } ], "uniquenessConstraints": [["code"]] }, { "name": "Entry", "attributes": [ { "name": "body", "type": "string", "renamingIdentifier": "text" } ], "relationships": [ { "name": "item", "destination": "Item", "inverse": "entries" } ] } ] }"#
    static let rows = 150_000

    @Test func aKilledMigrationLeavesTheStoreWholeAtOneVersion() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let modelURL = directory.appendingPathComponent("Log2.json")
        try Data(Self.version2.utf8).write(to: modelURL)
        var killedMidway = 0
        // Killed once the migration's transaction has written this much to the WAL (its pages
        // spill there before the commit), or not at all if it finished first.
        for (attempt, walBytes) in [256 << 10, 1 << 20, 4 << 20].enumerated() {
            let store = directory.appendingPathComponent("Log-\(attempt).sqlite")
            try Self.fill(store)
            let pid = try TestWriterProcess.spawn(
                [TestWriterProcess.executable.path, store.path, modelURL.path, "count", "Item", "-"],
                environment: ProcessInfo.processInfo.environment.map { "\($0)=\($1)" },
                output: directory.appendingPathComponent("out-\(attempt)").path,
                errors: directory.appendingPathComponent("err-\(attempt)").path)
            let deadline = Date().addingTimeInterval(5)
            var walSize = 0
            var status: Int32 = 0
            var exited = false
            while Date() < deadline, walSize < walBytes, !exited {
                walSize = (try? FileManager.default.attributesOfItem(atPath: store.path + "-wal")[.size] as? Int) ?? 0
                exited = waitpid(pid, &status, WNOHANG) == pid
                Thread.sleep(forTimeInterval: 0.001)
            }
            if !exited {
                kill(pid, SIGKILL)
                _ = try TestWriterProcess.wait(for: pid)
            }

            let version = try PersistentStoreCoordinator.metadataForPersistentStore(at: store).modelVersion
            if walSize >= walBytes, version == 1 { killedMidway += 1 }
            #expect(version == 1 || version == 2)
            let container = try InferredMigrationTests.open(store, version == 1 ? Self.version1 : Self.version2) {
                $0.shouldMigrateStoreAutomatically = false
            }
            defer { container.persistentStoreCoordinator.removePersistentStore() }
            #expect(try InferredMigrationTests.count("Item", in: container) == Self.rows, "attempt \(attempt), version \(version)")
            #expect(try InferredMigrationTests.count("Entry", in: container) == Self.rows, "attempt \(attempt), version \(version)")
            let context = container.newBackgroundContext()
            let linked = try context.performAndWait {
                try context.count(for: FetchRequest<ManagedObject>(entityName: "Entry", predicate: FetchPredicate(format: "item != nil")))
            }
            #expect(linked == Self.rows)
        }
        #expect(killedMidway > 0, "no kill came while the migration was writing")
    }

    /// A version-1 store of `rows` items, each with one entry (linked in SQL: batch inserts set
    /// no relationships).
    private static func fill(_ url: URL) throws {
        let container = try InferredMigrationTests.open(url, version1)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            _ = try context.execute(BatchInsertRequest(entityName: "Item", objects: (0..<rows).map { ["code": "C\($0)", "count": $0] }))
        }
        container.persistentStoreCoordinator.removePersistentStore()
        var handle: OpaquePointer?
        try #require(sqlite3_open(url.path, &handle) == SQLITE_OK)
        defer { sqlite3_close(handle) }
        try #require(
            sqlite3_exec(handle, #"INSERT INTO "Entry" ("_pk", "text", "item") SELECT "_pk", 'entry', "_pk" FROM "Item""#, nil, nil, nil)
                == SQLITE_OK)
    }
}
