import Foundation
import Testing

@testable import ObjectGraph

/// Commits to the store's file by someone else — another coordinator in this process, another
/// process — are seen by the next fetch, and the coordinator's row cache does not serve a row
/// they changed.
@Suite struct SQLiteChangeDetectionTests {
    /// Saves item "A" titled "first", then fetches every item in a new context, so the
    /// coordinator's row cache holds A's row. Returns A's ID.
    private func cachedItem(in store: TestStore) throws -> ManagedObjectID {
        let id = try store.savedItem("A", ["title": "first"])
        try store.withNewContext { context throws in
            #expect(try context.objects("Item").count == 1)
        }
        return id
    }

    /// What `store` sees after someone else retitled A to "second" and inserted B titled "new".
    private func expectOtherWritersChanges(in store: TestStore, item id: ManagedObjectID) throws {
        try store.withNewContext { context throws in
            // A fault firing from the ID would take A's row from the row cache, were it not emptied.
            #expect(try context.object(with: id).value(forKey: "title", as: String.self) == "second")
            #expect(try context.objects("Item", sortedBy: ["code"]).map { try $0.get("title", as: String.self) } == ["second", "new"])
        }
    }

    @Test func aCommitByAnotherCoordinatorIsSeen() throws {
        let store = try TestStore(.sqlite)
        let id = try cachedItem(in: store)
        let other = try TestStore.makeContainer(.sqlite, model: store.container.managedObjectModel, directory: store.directory)
        try other.loadPersistentStores()
        defer { other.persistentStoreCoordinator.removePersistentStore() }
        let context = other.newBackgroundContext()
        try context.performAndWait { () throws in
            try #require(try context.item("A")).setValue("second", forKey: "title")
            try context.insertItem("B", ["title": "new"])
            try context.save()
        }
        try expectOtherWritersChanges(in: store, item: id)
    }

    @Test func aCommitByAnotherProcessIsSeen() throws {
        let store = try TestStore(.sqlite)
        let id = try cachedItem(in: store)
        let writer = try TestWriterProcess.run(["retitle", "A", "second", "insert", "B", "new"], on: store)
        try #require(writer.status == 0, "the writer failed: \(writer.errors)")

        try expectOtherWritersChanges(in: store, item: id)
    }
}
