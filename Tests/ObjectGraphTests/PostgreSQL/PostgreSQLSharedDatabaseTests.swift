import Foundation
import ObjectGraphPostgres
import Testing

@testable import ObjectGraph

/// Two stores on one PostgreSQL database, as two servers of one application would have: each
/// sees the other's commits, a row the other changed after this one read it is a conflict with
/// the other's values, and keys are never handed out twice.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "no PostgreSQL server for the tests"))
struct PostgreSQLSharedDatabaseTests {
    private static func secondContainer(on store: TestStore) throws -> PersistentContainer {
        let server = try PostgreSQLTestServer.shared.get()
        let container = PersistentContainer(name: "Conformance", managedObjectModel: try ConformanceModel.load())
        container.persistentStoreDescriptions = [
            PersistentStoreDescription(postgresURL: server.url(database: try #require(store.database)))
        ]
        try container.loadPersistentStores()
        return container
    }

    @Test func anotherStoresCommitMakesThisSaveAConflict() throws {
        let store = try TestStore(.postgreSQL)
        let other = try Self.secondContainer(on: store)
        defer { other.persistentStoreCoordinator.removePersistentStore() }
        let context = store.newContext(name: "this server")
        let item = try context.performAndWait {
            let item = try context.insertItem("A", ["title": "first", "note": "ours"])
            try context.save()
            return item
        }
        let elsewhere = other.newBackgroundContext()
        try elsewhere.performAndWait {
            let theirs = try #require(try elsewhere.item("A"))
            try theirs.setValue("other server", forKey: "title")
            try elsewhere.save()
        }
        try context.performAndWait {
            try item.setValue("this server", forKey: "title")
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.kind == .mergeConflict)
            let conflict = try #require(error.mergeConflicts.first)
            #expect(conflict.theirValue(forKey: "title") as? String == "other server")
            #expect(conflict.originalValue(forKey: "title") as? String == "first")
            context.mergePolicy = .mergeByPropertyObjectTrump
            try item.setValue("kept", forKey: "note")
            try context.save()
        }
        let reader = other.newBackgroundContext()
        try reader.performAndWait {
            let stored = try #require(try reader.item("A"))
            #expect(try stored.get("title", as: String.self) == "this server")
            #expect(try stored.get("note", as: String.self) == "kept")
        }
    }

    @Test func storesSavingAtOnceNeverShareAKey() async throws {
        let store = try TestStore(.postgreSQL)
        let other = try Self.secondContainer(on: store)
        defer { other.persistentStoreCoordinator.removePersistentStore() }
        let containers = [store.container, other]
        let keys = try await withThrowingTaskGroup(of: [String].self) { group in
            for (number, container) in containers.enumerated() {
                group.addTask {
                    try await container.performBackgroundTask { context in
                        var uris: [String] = []
                        for round in 0..<10 {
                            let items = try (0..<20).map { try context.insertItem("S\(number)-\(round)-\($0)") }
                            try context.save()
                            uris += items.map { $0.objectID.uriRepresentation().lastPathComponent }
                        }
                        return uris
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(keys.count == 400)
        #expect(Set(keys).count == 400)
        #expect(try store.storedCount("Item") == 400)
    }
}
