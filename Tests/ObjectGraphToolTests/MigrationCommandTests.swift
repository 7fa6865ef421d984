import ArgumentParser
import Foundation
import ObjectGraph
import Testing

@testable import ObjectGraphTool

/// `objectgraph diff`, `inspect` and `migrate`: what changed between versions, what a store
/// holds, and migrating it (or only showing the plan).
@Suite struct MigrationCommandTests {
    static let version1 =
        #"{ "name": "People", "version": 1, "entities": [ { "name": "Person", "attributes": [ { "name": "name", "type": "string" } ] } ] }"#
    static let version2 =
        #"{ "name": "People", "version": 2, "entities": [ { "name": "Person", "attributes": [ { "name": "fullName", "type": "string", "renamingIdentifier": "name" }, { "name": "age", "type": "integer16", "default": 0 } ] }, { "name": "Pet", "attributes": [ { "name": "name", "type": "string" } ] } ] }"#
    static let notInferable =
        #"{ "name": "People", "version": 2, "entities": [ { "name": "Person", "attributes": [ { "name": "name", "type": "integer16" } ] } ] }"#

    /// Model files and a store written by version 1 holding two people.
    private static func files() throws -> TemporaryModels {
        let files = try TemporaryModels(["1.json": version1, "2.json": version2, "bad.json": notInferable])
        let container = PersistentContainer(
            name: "People", managedObjectModel: try ManagedObjectModel(contentsOf: URL(fileURLWithPath: files.path("1.json"))))
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: files.path("People.sqlite")))]
        try container.loadPersistentStores()
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for name in ["Ada", "Grace"] { try context.insertNewObject(forEntityName: "Person").setValue(name, forKey: "name") }
            try context.save()
        }
        return files
    }

    @Test func diffListsEachChangeAndSaysWhetherItIsInferable() throws {
        let files = try Self.files()
        defer { files.remove() }
        let inferable = try runTool(["diff", files.path("1.json"), files.path("2.json")])
        #expect(
            inferable.standardOutput == """
                'People' version 1 → 'People' version 2: 3 changes
                  Person.fullName: renamed from name
                  Person.age: new attribute (integer16)
                  Pet: new entity
                A store of version 1 migrates to version 2 by inference.

                """)
        #expect(inferable.exitCode == .success)
        let blocked = try runTool(["diff", files.path("1.json"), files.path("bad.json")])
        #expect(blocked.exitCode == .failure)
        #expect(blocked.standardOutput.contains("Person.name: string → integer16"))
        #expect(
            blocked.standardOutput.contains("entities[0].attributes[0]: Person.name changes type from string to integer16"),
            "\(blocked.standardOutput)")
    }

    @Test func inspectShowsTheModelHashesAndCounts() throws {
        let files = try Self.files()
        defer { files.remove() }
        let output = try runTool(["inspect", files.path("People.sqlite")])
        #expect(output.exitCode == .success, "\(output.standardError)")
        #expect(output.standardOutput.contains("  model:    People, version 1\n"))
        #expect(output.standardOutput.contains("    Person  2 objects  "))
        let missing = try runTool(["inspect", files.path("None.sqlite")])
        #expect(missing.exitCode == .failure)
        #expect(missing.standardError.contains("there is no file there"))
    }

    @Test func migrateShowsThePlanOrMigrates() throws {
        let files = try Self.files()
        defer { files.remove() }
        let store = files.path("People.sqlite")
        let plan = try runTool(["migrate", store, "--model", files.path("2.json"), "--dry-run"])
        #expect(
            plan.standardOutput.hasPrefix(
                "Plan for \(store), 'People' version 1 → 'People' version 2 (nothing was changed):\n-- version 1 → 2\n"))
        #expect(
            plan.standardOutput.contains(
                #"INSERT INTO "Person" ("_pk", "_version", "fullName", "age") SELECT "_pk", "_version", "name", ? FROM "_og_old_Person";  -- 0"#
            ))
        #expect(try PersistentStoreCoordinator.metadataForPersistentStore(at: URL(fileURLWithPath: store)).modelVersion == 1)

        let refused = try runTool(["migrate", store, "--model", files.path("bad.json")])
        #expect(refused.exitCode == .failure)
        #expect(refused.standardError.contains("1 change cannot be inferred"))

        let migrated = try runTool(["migrate", store, "--model", files.path("2.json")])
        #expect(migrated.standardOutput == "Migrated \(store) from 'People' version 1 to 'People' version 2.\n")
        #expect(try runTool(["inspect", store]).standardOutput.contains("    Person  2 objects  "))
        let again = try runTool(["migrate", store, "--model", files.path("2.json")])
        #expect(again.standardOutput == "\(store) is already at 'People' version 2; nothing to do.\n")
    }
}

extension MigrationCommandTests {
    @Test func checkBackUpDumpAndLoadAStore() throws {
        let files = try Self.files()
        defer { files.remove() }
        let store = files.path("People.sqlite")
        let sound = try runTool(["check", store, "--quick"])
        #expect(sound.standardOutput == "\(store): ok\n")
        #expect(sound.exitCode == .success)
        let backedUp = try runTool(["backup", store, "--to", files.path("Copy.sqlite")])
        #expect(
            backedUp.standardOutput == "Backed up \(store) to \(files.path("Copy.sqlite")) (integrity check: ok).\n",
            "\(backedUp.standardError)")
        #expect(try runTool(["inspect", files.path("Copy.sqlite")]).standardOutput.contains("    Person  2 objects  "))
        #expect(
            try runTool(["dump", store, "--to", files.path("People.sql")]).standardOutput
                == "Dumped \(store) to \(files.path("People.sql")).\n")
        #expect(try runTool(["load", files.path("People.sql"), "--into", files.path("Loaded.sqlite")]).exitCode == .success)
        #expect(try runTool(["check", files.path("Loaded.sqlite")]).standardOutput == "\(files.path("Loaded.sqlite")): ok\n")
        let missing = try runTool(["check", files.path("None.sqlite")])
        #expect(missing.exitCode == .failure)
        #expect(missing.standardError.contains("there is no file there"))
    }
}

extension MigrationCommandTests {
    @Test func recoverCopiesTheRowsOfADamagedStore() throws {
        let files = try Self.files()
        defer { files.remove() }
        let store = files.path("People.sqlite")
        // Zero the file's header: SQLite no longer reads it, the salvage does.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: store))
        bytes.replaceSubrange(0..<100, with: Data(count: 100))
        try bytes.write(to: URL(fileURLWithPath: store))
        #expect(try runTool(["check", store]).standardError.contains("is damaged"))
        let recovered = try runTool(["recover", store, "--into", files.path("Rescued.sqlite")])
        #expect(recovered.exitCode == .success, "\(recovered.standardError)")
        #expect(recovered.standardOutput.contains("  Person: 2 recovered\n"), "\(recovered.standardOutput)")
        #expect(recovered.standardOutput.contains("the file's header is damaged"))
        #expect(recovered.standardOutput.hasSuffix("Wrote \(files.path("Rescued.sqlite")).\n"))
        #expect(try runTool(["check", files.path("Rescued.sqlite")]).standardOutput == "\(files.path("Rescued.sqlite")): ok\n")
        let again = try runTool(["recover", store, "--into", files.path("Rescued.sqlite")])
        #expect(again.exitCode == .failure)
        #expect(again.standardError.contains("exists already"))
    }
}
