import CSQLite
import Foundation
import Testing

@testable import ObjectGraph

/// The integrity check: a sound store passes on both stores; on a SQLite file, damage SQLite
/// sees, references to objects that do not exist and rows naming a foreign entity are each
/// reported, and a store that fails can be refused when it loads.
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

    @Test(arguments: StoreKind.exceptPostgreSQL)
    func aSoundStorePasses(kind: StoreKind) throws {
        let store = try Self.filled(kind)
        for quick in [true, false] {
            let report = try store.container.persistentStoreCoordinator.checkIntegrity(quick: quick)
            #expect(report.isSound, "\(report)")
            #expect(report.description == "ok")
        }
    }

    /// Runs `sql` on the closed store's file, then opens it again.
    private static func tamper(_ store: TestStore, _ sql: String) throws {
        store.container.persistentStoreCoordinator.removePersistentStore()
        var handle: OpaquePointer?
        let path = try #require(store.directory).appendingPathComponent("Conformance.sqlite").path
        try #require(sqlite3_open(path, &handle) == SQLITE_OK)
        defer { sqlite3_close(handle) }
        try #require(sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK, "\(String(cString: sqlite3_errmsg(handle)))")
    }

    @Test func danglingReferencesAndForeignEntitiesAreReported() throws {
        let store = try Self.filled(.sqlite)
        try Self.tamper(
            store,
            """
            UPDATE "Reader" SET "favorite" = 9999 WHERE "name" = 'Ada';
            INSERT INTO "_join_Book_readers" ("source", "destination") VALUES (8888, 1);
            UPDATE "Item" SET "_entity" = 'Shelf' WHERE "sku" = 'M1';
            """)
        try store.reopen()
        let report = try store.container.persistentStoreCoordinator.checkIntegrity()
        #expect(report.problems.map(\.kind) == [.wrongEntity, .danglingReference, .danglingReference])
        #expect(report.problems.map(\.entityName) == ["Item", "Reader", "Book"])
        #expect(report.problems[0].message == "1 row of the Item table names an entity the table does not hold")
        #expect(report.problems[1].message == "1 Reader object refers through favorite to Item objects that do not exist")
        #expect(report.problems[2].message.contains("1 pair of _join_Book_readers refers to Book objects that do not exist"), "\(report)")
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
