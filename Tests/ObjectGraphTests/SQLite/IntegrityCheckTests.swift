import CSQLite
import Foundation
import Testing

@testable import ObjectGraph

/// The integrity check: a sound store passes on every store; on the SQL stores, references to
/// objects that do not exist and rows naming a foreign entity are each reported; on a SQLite
/// file, damage SQLite sees, and a store that fails can be refused when it loads; on PostgreSQL,
/// tables and columns altered under the store, and metadata of another model.
@Suite struct IntegrityCheckTests {
    /// A store of the inheritance model: a shelf of a book and a magazine, a reader of the book
    /// with the magazine as favourite.
    private static func filled(_ kind: StoreKind) throws -> TestStore {
        let store = try TestStore(kind, model: InheritanceModel.load)
        try store.withNewContext { context in
            let shelf = try context.insertObject("Shelf", ["label": "A"])
            let book = try context.insertObject("Book", ["title": "Kindred", "sku": "B1", "pages": 264, "shelf": shelf])
            let magazine = try context.insertObject("Magazine", ["title": "Locus", "sku": "M1", "issue": 7, "shelf": shelf])
            let reader = try context.insertObject("Reader", ["name": "Ada", "favorite": magazine])
            try reader.setValue(Set([book]), forKey: "books")
            for number in 0..<300 {
                _ = try context.insertObject("Reader", ["name": "Reader \(number) " + String(repeating: "x", count: 200)])
            }
            try context.save()
        }
        return store
    }

    @Test(arguments: StoreKind.allCases)
    func aSoundStorePasses(kind: StoreKind) throws {
        let store = try Self.filled(kind)
        for quick in [true, false] {
            let report = try store.container.persistentStoreCoordinator.checkIntegrity(quick: quick)
            #expect(report.isSound, "\(report)")
            #expect(report.description == "ok")
        }
    }

    /// Runs `sql` on the store's database: on a SQLite store, on its file while the store is
    /// closed, then opens it again; on PostgreSQL, on the database while the store stays open.
    private static func tamper(_ store: TestStore, _ sql: String) throws {
        if let database = store.database {
            try PostgreSQLTestServer.shared.get().runSQL(sql, in: database)
            return
        }
        store.container.persistentStoreCoordinator.removePersistentStore()
        var handle: OpaquePointer?
        let path = try #require(store.directory).appendingPathComponent("Conformance.sqlite").path
        try #require(sqlite3_open(path, &handle) == SQLITE_OK)
        defer { sqlite3_close(handle) }
        try #require(sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK, "\(String(cString: sqlite3_errmsg(handle)))")
        try store.reopen()
    }

    @Test(arguments: StoreKind.allCases.filter(\.keepsDataWhenReopened))
    func danglingReferencesAndForeignEntitiesAreReported(kind: StoreKind) throws {
        let store = try Self.filled(kind)
        try Self.tamper(
            store,
            """
            UPDATE "Reader" SET "favorite" = 9999 WHERE "name" = 'Ada';
            INSERT INTO "_join_Book_readers" ("source", "destination") VALUES (8888, 1);
            UPDATE "Item" SET "_entity" = 'Shelf' WHERE "sku" = 'M1';
            """)
        let report = try store.container.persistentStoreCoordinator.checkIntegrity()
        #expect(report.problems.map(\.kind) == [.wrongEntity, .danglingReference, .danglingReference])
        #expect(report.problems.map(\.entityName) == ["Item", "Reader", "Book"])
        #expect(report.problems[0].message == "1 row of the Item table names an entity the table does not hold")
        #expect(report.problems[1].message == "1 Reader object refers through favorite to Item objects that do not exist")
        #expect(report.problems[2].message.contains("1 pair of _join_Book_readers refers to Book objects that do not exist"), "\(report)")
    }

    /// Anyone with access may alter a PostgreSQL store's tables: each table, column and function
    /// the store needs that is gone or changed is named, and the row checks, which would read
    /// them, wait until it is put right.
    @Test(.enabled(if: PostgreSQLTestServer.isAvailable, "no PostgreSQL server for the tests"))
    func alteredTablesAreReportedOnPostgreSQL() throws {
        let store = try Self.filled(.postgreSQL)
        try Self.tamper(
            store,
            """
            ALTER TABLE "Item" ALTER COLUMN "title" TYPE varchar(300);
            ALTER TABLE "Shelf" DROP COLUMN "label";
            ALTER TABLE "Reader" ALTER COLUMN "name" DROP NOT NULL;
            DROP TABLE "_join_Book_readers";
            DROP FUNCTION objectgraph_fold(text, bigint) CASCADE;
            UPDATE "Reader" SET "favorite" = 9999 WHERE "name" = 'Ada';
            """)
        for quick in [true, false] {
            let report = try store.container.persistentStoreCoordinator.checkIntegrity(quick: quick)
            #expect(report.problems.allSatisfy { $0.kind == .schema }, "\(report)")
            #expect(report.problems.map(\.entityName) == ["Item", "Shelf", "Reader", nil, nil])
            #expect(
                report.problems.map(\.message) == [
                    "the column Item.title is character varying, but the store needs text COLLATE \"C\"",
                    "the column Shelf.label is missing",
                    "the column Reader.name allows NULL, but the store needs it NOT NULL",
                    "the table _join_Book_readers is missing",
                    "the function objectgraph_fold is missing"
                ])
        }
    }

    /// Metadata changed under an open PostgreSQL store (a store of another model would be
    /// refused when it opens) is reported as the SQLite store reports it.
    @Test(.enabled(if: PostgreSQLTestServer.isAvailable, "no PostgreSQL server for the tests"))
    func metadataOfAnotherModelIsReportedOnPostgreSQL() throws {
        let store = try Self.filled(.postgreSQL)
        try Self.tamper(store, #"UPDATE "_objectgraph_metadata" SET "value" = 'f00d' WHERE "key" = 'model_hash'"#)
        let report = try store.container.persistentStoreCoordinator.checkIntegrity()
        #expect(report.problems.map(\.kind) == [.metadata])
        #expect(
            report.problems.first?.message.hasPrefix(
                "the metadata records model 'Shop' version 1 (hash f00d), but the store is open with 'Shop' version 1") == true, "\(report)"
        )
        try Self.tamper(store, #"DELETE FROM "_objectgraph_metadata" WHERE "key" = 'model_hash'"#)
        let missing = try store.container.persistentStoreCoordinator.checkIntegrity()
        #expect(missing.problems.map(\.kind) == [.metadata], "\(missing)")
    }

    @Test func aDamagedPageIsReportedAndCanBeRefusedAtLoad() throws {
        let store = try Self.filled(.sqlite)
        store.container.persistentStoreCoordinator.removePersistentStore()
        let url = try #require(store.directory).appendingPathComponent("Conformance.sqlite")
        // Overwrite the middle of the last page with garbage: a table's leaf, not the schema.
        let handle = try FileHandle(forUpdating: url)
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size - 2_048)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 1_024))
        try handle.close()
        // The default check on load (files up to 32 MiB) refuses it, saying what to do.
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try InheritanceModel.load())
        let error = try #require(throws: ObjectGraphError.self) {
            try coordinator.addPersistentStore(with: PersistentStoreDescription(url: url))
        }
        #expect(error.kind == .corruptStore)
        #expect(error.message.contains("failed its integrity check when loading, so it was not opened"), "\(error.message)")
        #expect(error.message.contains("objectgraph recover"), "\(error.message)")
        #expect(error.message.contains("quick_check of"), "\(error.message)")
        #expect(coordinator.persistentStoreDescription == nil)
        // A file over the size limit, or `.never`, loads unchecked; checkIntegrity finds the damage.
        for check in [IntegrityCheckOnLoad.never, .whenFileIsAtMost(bytes: 1_000)] {
            var description = PersistentStoreDescription(url: url)
            description.integrityCheckOnLoad = check
            try coordinator.addPersistentStore(with: description)
            let report = try coordinator.checkIntegrity(quick: true)
            #expect(report.problems.first?.kind == .damagedFile, "\(report)")
            coordinator.removePersistentStore()
        }
        #expect(coordinator.persistentStoreDescription == nil)
    }
}
