import Foundation
import Testing

@testable import ObjectGraph

/// What migration does on PostgreSQL only: stores opening the same database at once while it
/// migrates, and the SQLite-only backup option refused. (The migration tests in `Migration/`
/// run on PostgreSQL too.)
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable)) struct PostgreSQLMigrationTests {
    @Test func storesOpeningAtOnceMigrateOnceAndEachOpensTheNewVersion() throws {
        let filled = try InferredMigrationTests.filledVersion1Store(.postgreSQL)
        defer { withExtendedLifetime(filled) {} }
        let migrations = Locked(0)
        let outcomes = Locked<[Result<Int, any Error>]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            let result = Result {
                let container = try InferredMigrationTests.open(filled.url, InferredMigrationTests.version2) { description in
                    description.migrationProgressHandler = { progress in
                        if progress.step == "done" { migrations.withLock { $0 += 1 } }
                    }
                }
                defer { container.persistentStoreCoordinator.removePersistentStore() }
                return try InferredMigrationTests.count("Label", in: container)
            }
            outcomes.withLock { $0.append(result) }
        }
        let results = outcomes.withLock { $0 }
        #expect(results.count == 3)
        for result in results { #expect(try result.get() == 2) }
        #expect(migrations.withLock { $0 } == 1, "the others waited for the first and found version 2")
        #expect(try MigrationStore.metadata(filled.url).modelVersion == 2)
    }

    @Test func aBackupBeforeMigratingIsRefusedAndChangesNothing() throws {
        let filled = try InferredMigrationTests.filledVersion1Store(.postgreSQL)
        defer { withExtendedLifetime(filled) {} }
        let error = try #require(throws: ObjectGraphError.self) {
            try InferredMigrationTests.open(filled.url, InferredMigrationTests.version2) { $0.backsUpStoreBeforeMigrating = true }
        }
        #expect(error.kind == .invalidOperation)
        #expect(error.message.contains("backsUpStoreBeforeMigrating copies SQLite files only; back the database up with pg_dump"))
        #expect(!error.message.contains(PostgreSQLTestServer.password), "no password in messages")
        #expect(try MigrationStore.metadata(filled.url).modelVersion == 1)
    }
}
