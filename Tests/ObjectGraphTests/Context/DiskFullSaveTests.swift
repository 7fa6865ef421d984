import Foundation
import Testing

@testable import ObjectGraph

/// A save that runs out of room (a store capped with `max_page_count`, SQLite's stand-in for a
/// full disk) writes nothing, keeps every change in the context, and succeeds once there is room.
@Suite struct DiskFullSaveTests {
    @Test func aFullDiskKeepsTheContextsChangesAndWritesNothing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ObjectGraphDiskFull-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Full.sqlite")

        func open(maxPages: Int) throws -> PersistentContainer {
            let container = PersistentContainer(name: "Full", managedObjectModel: try ConformanceModel.load())
            var description = PersistentStoreDescription(url: url)
            description.sqlitePragmas = ["max_page_count": "\(maxPages)"]
            container.persistentStoreDescriptions = [description]
            try container.loadPersistentStores()
            return container
        }

        let small = try open(maxPages: 40)
        let context = small.newBackgroundContext()
        try context.insertPerson("Ada")
        try context.save()
        let bulky = String(repeating: "x", count: 300_000)
        for number in 1...3 { try context.insertPerson("Person \(number)", city: bulky) }

        let error = #expect(throws: ObjectGraphError.self) { try context.save() }
        #expect(error?.kind == .diskFull)
        #expect(error?.description.contains("SQLITE_FULL") == true)
        #expect(context.hasChanges)
        #expect(context.insertedObjects.count == 3)
        #expect(try small.newBackgroundContext().count(for: FetchRequest<ManagedObject>(entityName: "Person")) == 1)
        small.persistentStoreCoordinator.removePersistentStore()

        // With room again, the same objects save and every one reads back.
        let roomy = try open(maxPages: 1_000_000)
        let retry = roomy.newBackgroundContext()
        for number in 1...3 { try retry.insertPerson("Person \(number)", city: bulky) }
        try retry.save()
        let people = try roomy.newBackgroundContext().fetch(request("Person", sortedBy: ["name"]))
        #expect(try people.map { try $0.value(forKey: "name", as: String.self) } == ["Ada", "Person 1", "Person 2", "Person 3"])
        roomy.persistentStoreCoordinator.removePersistentStore()
    }
}
