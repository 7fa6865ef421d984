import Foundation
import ObjectGraph
import Testing

/// The examples of StoreSafety.md, each on a store holding two books.
@Suite struct StoreSafetyArticleTests {
    /// A seeded Library store in a fresh folder; the folder is removed when the test ends.
    private static func withStore(_ body: (PersistentContainer, URL) throws -> Void) throws {
        let (container, directory) = try ArticleFixtures.seededLibrary()
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(container, directory)
    }

    @Test func theIntegrityCheckFindsASoundStore() throws {
        try Self.withStore { container, _ in
            let report = try container.persistentStoreCoordinator.checkIntegrity()  // or (quick: true)
            if !report.isSound { print(report) }  // each problem: kind, entity, message

            #expect(report.isSound)
        }
    }

    @Test func anOnlineBackupOpensAsAStore() throws {
        try Self.withStore { container, directory in
            let backupURL = directory.appendingPathComponent("Backup.sqlite")

            try container.persistentStoreCoordinator.backup(to: backupURL)

            #expect(try ArticleFixtures.storedTitles(inStoreAt: backupURL) == ["Dawn", "Kindred"])
        }
    }

    @Test func aDumpLoadsIntoANewStore() throws {
        try Self.withStore { container, directory in
            let sqlURL = directory.appendingPathComponent("Library.sql")
            let newStoreURL = directory.appendingPathComponent("Loaded.sqlite")

            try container.persistentStoreCoordinator.dump(to: sqlURL)  // one snapshot, in use or not
            try PersistentStoreCoordinator.loadStore(fromDump: sqlURL, into: newStoreURL)

            #expect(try ArticleFixtures.storedTitles(inStoreAt: newStoreURL) == ["Dawn", "Kindred"])
        }
    }

    @Test func salvageCopiesEveryReadableRow() throws {
        try Self.withStore { container, directory in
            container.close()
            let damagedURL = directory.appendingPathComponent("Library.sqlite")
            let newURL = directory.appendingPathComponent("Rescued.sqlite")

            let report = try PersistentStoreCoordinator.recover(damaged: damagedURL, into: newURL)  // model: optional
            print(report)  // per entity: rows recovered, skipped, references to lost objects cleared

            #expect(try ArticleFixtures.storedTitles(inStoreAt: newURL) == ["Dawn", "Kindred"])
        }
    }
}
