import Foundation
import Testing

@testable import ObjectGraph

/// The async API and background contexts.
@Suite struct AsyncConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func asyncLoadAndSave(kind: StoreKind) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ObjectGraphConformance-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = kind == .postgreSQL ? try PostgreSQLTestServer.shared.get().createDatabase() : nil
        defer { if let database { try? PostgreSQLTestServer.shared.get().dropDatabase(database) } }
        let container = try TestStore.makeContainer(kind, model: try ConformanceModel.load(), directory: directory, database: database)
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        try await container.loadPersistentStores()
        #expect(container.persistentStoreCoordinator.persistentStoreIdentifier != nil)

        let context = container.newBackgroundContext()
        try await context.perform {
            try context.insertItem("A1")
            try context.insertItem("B2")
        }
        try await context.save()
        let hasChanges = try await context.perform { context.hasChanges }
        let allPermanent = try await context.perform { context.registeredObjects.allSatisfy { !$0.objectID.isTemporaryID } }
        #expect(!hasChanges)
        #expect(allPermanent)

        let count = try await container.performBackgroundTask { fresh in try fresh.count(for: request("Item")) }
        #expect(count == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func performBackgroundTaskReturnsAValue(kind: StoreKind) async throws {
        let store = try TestStore(kind)
        let container = store.container
        let uri = try await container.performBackgroundTask { context in
            let item = try context.insertItem("BG-1", ["title": "background"])
            try context.save()
            return item.objectID.uriRepresentation()
        }
        let objectID = try #require(container.persistentStoreCoordinator.managedObjectID(forURIRepresentation: uri))
        let title = try await container.performBackgroundTask { context in
            try context.existingObject(with: objectID).get("title", as: String.self)
        }
        #expect(title == "background")
        // Errors thrown in the block reach the caller.
        let error = await #expect(throws: ObjectGraphError.self) {
            try await container.performBackgroundTask { context in try context.insertNewObject(forEntityName: "Nope").objectID }
        }
        #expect(error?.kind == .unknownEntity)
    }

    @Test(arguments: StoreKind.allCases)
    func fireAndForgetBackgroundTask(kind: StoreKind) async throws {
        let store = try TestStore(kind)
        let container = store.container
        let saved: Bool = await withCheckedContinuation { continuation in
            container.performBackgroundTask { context in
                do {
                    try context.insertItem("BG-2")
                    try context.save()
                    continuation.resume(returning: true)
                } catch {
                    continuation.resume(returning: false)
                }
            }
        }
        #expect(saved)
        #expect(try store.storedCount("Item") == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func performAsyncReturnsAValue(kind: StoreKind) async throws {
        let store = try TestStore(kind)
        try store.savePeople()
        let context = store.newContext()
        let names = try await context.perform {
            try context.objects("Person", where: "age >= 30", sortedBy: ["name"]).map(\.label)
        }
        #expect(names == ["Carl", "Dora", "alice"])
        let error = await #expect(throws: ObjectGraphError.self) {
            try await context.perform { try context.count(for: request("Person", where: "agee > 1")) }
        }
        #expect(error?.kind == .unknownKey)
    }

    @Test(arguments: StoreKind.allCases)
    func performAndWaitRunsOnTheQueueAndReturns(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let context = store.newContext()
        let count = try context.performAndWait {
            try context.insertPerson("P", age: 1)
            // Nested performAndWait on the same queue must not deadlock.
            return try context.performAndWait { try context.count(for: request("Person")) }
        }
        #expect(count == 1)
        #expect(throws: ObjectGraphError.self) {
            try context.performAndWait { try context.insertNewObject(forEntityName: "Nope") }
        }
        #expect(context.performAndWait { context.hasChanges })
    }

    /// A background context's save is visible to contexts created afterwards, and to existing
    /// ones on their next fetch.
    @Test(arguments: StoreKind.allCases)
    func backgroundSaveIsSeenByAFreshContext(kind: StoreKind) async throws {
        let store = try TestStore(kind)
        let viewer = store.newContext()
        #expect(try viewer.performAndWait { try viewer.count(for: request("Item")) } == 0)

        let background = store.container.newBackgroundContext()
        try await background.perform {
            for code in ["A1", "B2", "C3"] { try background.insertItem(code) }
            try background.save()
        }
        #expect(try store.storedCount("Item") == 3)
        let codes = try viewer.performAndWait { try viewer.objects("Item", sortedBy: ["code"]).map(\.label) }
        #expect(codes == ["A1", "B2", "C3"])
    }

    /// Several background contexts saving at once all land, one transaction each.
    @Test(arguments: StoreKind.allCases)
    func concurrentBackgroundSaves(kind: StoreKind) async throws {
        let store = try TestStore(kind)
        let container = store.container
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    try await container.performBackgroundTask { context in
                        for index in 0..<25 { try context.insertItem("W\(worker)-\(index)") }
                        try context.save()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try store.storedCount("Item") == 200)
        #expect(try store.storedCount("Item", "code == 'W7-24'") == 1)
    }
}
