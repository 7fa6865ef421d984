import Foundation
import Testing

@testable import ObjectGraph

/// Versions side by side: a folder of model versions loads as the newest with the others as its
/// history, and a store written by the oldest migrates through every version in between, each
/// step with its own renames, in one transaction.
@Suite struct VersionChainMigrationTests {
    static let versions = [
        #"{ "name": "People", "version": 1, "entities": [ { "name": "Person", "attributes": [ { "name": "name", "type": "string" } ] } ] }"#,
        #"{ "name": "People", "version": 2, "entities": [ { "name": "Person", "attributes": [ { "name": "fullName", "type": "string", "renamingIdentifier": "name" }, { "name": "age", "type": "integer16", "default": 0 } ] } ] }"#,
        #"{ "name": "People", "version": 3, "entities": [ { "name": "Person", "attributes": [ { "name": "displayName", "type": "string", "renamingIdentifier": "fullName" }, { "name": "age", "type": "integer64", "default": 0 } ] } ] }"#
    ]

    /// A folder holding the three versions (as 1.json … 3.json) and a store written by version 1.
    private static func folderAndVersion1Store() throws -> (directory: URL, models: URL, store: URL) {
        let directory = try SQLiteFixtures.makeDirectory()
        let models = directory.appendingPathComponent("People")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        for (number, json) in versions.enumerated() { try Data(json.utf8).write(to: models.appendingPathComponent("\(number + 1).json")) }
        let store = directory.appendingPathComponent("People.sqlite")
        let container = try InferredMigrationTests.open(store, versions[0])
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Person").setValue("Ada", forKey: "name")
            try context.save()
        }
        return (directory, models, store)
    }

    /// Opens the store at `store` with `model` (migrating it, with `stages`) and hands `body` its
    /// first person.
    private static func withFirstPerson(
        in store: URL, model: ManagedObjectModel, stages: [MigrationStage] = [], _ body: (ManagedObject) throws -> Void
    ) throws {
        let container = PersistentContainer(name: "People", managedObjectModel: model)
        var description = PersistentStoreDescription(url: store)
        description.migrationStages = stages
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        try context.performAndWait { try body(try #require(try context.objects("Person").first)) }
    }

    @Test func aFolderOfVersionsLoadsTheNewestWithItsHistory() throws {
        let (directory, models, _) = try Self.folderAndVersion1Store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try ManagedObjectModel(versionsIn: models)
        #expect(model.version == 3)
        #expect(model.previousVersions.map(\.version) == [1, 2])
        try Data(#"{ "name": "Other", "version": 4, "entities": [ { "name": "E", "attributes": [] } ] }"#.utf8).write(
            to: models.appendingPathComponent("4.json"))
        let mixed = try #require(throws: ObjectGraphError.self) { try ManagedObjectModel(versionsIn: models) }
        #expect(mixed.message.contains("holds versions of more than one model"))
        try Data(Self.versions[2].utf8).write(to: models.appendingPathComponent("4.json"))
        let twice = try #require(throws: ObjectGraphError.self) { try ManagedObjectModel(versionsIn: models) }
        #expect(twice.message.contains("two files of version 3"))
    }

    @Test func aVersion1StoreMigratesThroughVersion2ToVersion3() throws {
        let (directory, models, store) = try Self.folderAndVersion1Store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try ManagedObjectModel(versionsIn: models)
        let plan = try #require(try PersistentStoreCoordinator.migrationPlan(forStoreAt: store, to: model))
        #expect(plan.hasPrefix("-- version 1 → 2\n"))
        #expect(plan.contains("\n-- version 2 → 3\n"))
        #expect(plan.contains(#"SELECT "_pk", "_version", "name", ? FROM "_og_old_Person""#))
        #expect(plan.contains(#"SELECT "_pk", "_version", "fullName", "age" FROM "_og_old_Person""#))

        try Self.withFirstPerson(in: store, model: model) { person throws in
            #expect(try person.get("displayName", as: String.self) == "Ada")
            #expect(try person.value(forKey: "age") as? Int64 == 0)
        }
        #expect(try PersistentStoreCoordinator.metadataForPersistentStore(at: store).modelVersion == 3)
    }
}

extension VersionChainMigrationTests {
    /// The chain mixes inferred steps and custom ones: 1 → 2 inferred, 2 → 3 with a stage that
    /// fills a new required attribute from the older values.
    @Test func aChainMixesInferredStepsAndAStage() throws {
        let (directory, models, store) = try Self.folderAndVersion1Store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let version3 =
            #"{ "name": "People", "version": 3, "entities": [ { "name": "Person", "attributes": [ { "name": "displayName", "type": "string", "renamingIdentifier": "fullName" }, { "name": "age", "type": "integer64", "default": 0 }, { "name": "initials", "type": "string" } ] } ] }"#
        try Data(version3.utf8).write(to: models.appendingPathComponent("3.json"))
        let model = try ManagedObjectModel(versionsIn: models)
        let initials = MigrationStage(
            from: 2, to: 3,
            complete: { context in
                try context.forEachObject(ofEntity: "Person") { person in
                    let name = try person.oldValue(forKey: "fullName") as? String ?? ""
                    try person.setValue(String(name.prefix(1)), forKey: "initials")
                }
            })
        let plan = try #require(try PersistentStoreCoordinator.migrationPlan(forStoreAt: store, to: model, stages: [initials]))
        #expect(plan.contains("-- version 2 → 3\n"))
        #expect(plan.contains("-- the migration stage's complete (Swift)"))
        try Self.withFirstPerson(in: store, model: model, stages: [initials]) { person throws in
            #expect(try person.get("displayName", as: String.self) == "Ada")
            #expect(try person.get("initials", as: String.self) == "A")
        }
    }
}
