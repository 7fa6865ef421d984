import Foundation
import Testing

@testable import ObjectGraph

/// Each entity and property has a version hash of its own, as in Core Data: changing one entity
/// leaves the others' hashes alone, a sub-entity's change leaves its parent's, and a
/// `versionHashModifier` forces a new hash without a schema change.
@Suite struct EntityVersionHashTests {
    private static let base = """
        {
          "name": "Shop",
          "version": 1,
          "entities": [
            { "name": "Customer",
              "attributes": [ { "name": "email", "type": "string" }, { "name": "score", "type": "integer32", "default": 0 } ],
              "relationships": [ { "name": "orders", "destination": "Order", "toMany": true, "inverse": "customer" } ] },
            { "name": "Order",
              "attributes": [ { "name": "total", "type": "decimal", "default": "0.00" } ],
              "relationships": [ { "name": "customer", "destination": "Customer", "inverse": "orders" } ] },
            { "name": "RushOrder", "parent": "Order",
              "attributes": [ { "name": "deadline", "type": "date" } ] }
          ]
        }
        """

    private static func model(_ replacements: [(String, String)] = []) throws -> ManagedObjectModel {
        var json = base
        for (target, replacement) in replacements {
            precondition(json.contains(target), "the base model lacks \(target)")
            json = json.replacingOccurrences(of: target, with: replacement)
        }
        return try ModelFixtures.load(json)
    }

    /// The names of the entities whose hash differs between `a` and `b`.
    private static func changed(_ a: ManagedObjectModel, _ b: ManagedObjectModel) -> [String] {
        a.entityVersionHashesByName.keys.filter { a.entityVersionHashesByName[$0] != b.entityVersionHashesByName[$0] }.sorted()
    }

    @Test func theLibraryModelsHashIsTheOneItsStoresRecord() throws {
        // Stores written before entity hashes existed record this model hash: it must not move.
        let library = try ManagedObjectModel(contentsOf: ModelFixtures.modelsDirectory.appendingPathComponent("Library.json"))
        #expect(library.versionHash == "3e71ca5dd7128e74a4aea6191650d408b7209593dd787f4db76864100507d946")
    }

    @Test func anEntityChangeChangesOnlyThatEntitysHash() throws {
        let base = try Self.model()
        #expect(Set(base.entityVersionHashesByName.keys) == ["Customer", "Order", "RushOrder"])
        #expect(Set(base.entityVersionHashesByName.values).count == 3)
        let newAttribute = try Self.model([
            (
                #"{ "name": "email", "type": "string" }"#,
                #"{ "name": "email", "type": "string" }, { "name": "phone", "type": "string", "optional": true }"#
            )
        ])
        #expect(Self.changed(base, newAttribute) == ["Customer"])
        #expect(newAttribute.versionHash != base.versionHash)
        // A sub-entity's change leaves its parent alone; a parent's change reaches its sub-entities.
        let subChanged = try Self.model([(#""name": "deadline", "type": "date""#, #""name": "deadline", "type": "date", "optional": true"#)]
        )
        #expect(Self.changed(base, subChanged) == ["RushOrder"])
        let parentChanged = try Self.model([
            (#""name": "total", "type": "decimal", "default": "0.00""#, #""name": "total", "type": "double", "default": 0"#)
        ])
        #expect(Self.changed(base, parentChanged) == ["Order", "RushOrder"])
        // What does not decide storage changes no hash.
        let defaultsOnly = try Self.model([(#""default": 0"#, #""default": 5"#)])
        #expect(Self.changed(base, defaultsOnly) == [])
        #expect(defaultsOnly.versionHash == base.versionHash)
    }

    @Test func versionHashModifiersForceANewHash() throws {
        let base = try Self.model()
        let entityModifier = try Self.model([(#""name": "Order","#, #""name": "Order", "versionHashModifier": "totals in cents","#)])
        #expect(Self.changed(base, entityModifier) == ["Order", "RushOrder"])
        #expect(entityModifier.versionHash != base.versionHash)
        let attributeModifier = try Self.model([
            (#"{ "name": "email", "type": "string" }"#, #"{ "name": "email", "type": "string", "versionHashModifier": "lowercased" }"#)
        ])
        #expect(Self.changed(base, attributeModifier) == ["Customer"])
        let email = try #require(attributeModifier.entity(named: "Customer")?.attribute(named: "email"))
        #expect(email.versionHashModifier == "lowercased")
        #expect(email.versionHash != base.entity(named: "Customer")?.attribute(named: "email")?.versionHash)
        #expect(
            base.entity(named: "Customer")?.attribute(named: "score")?.versionHash
                == attributeModifier.entity(named: "Customer")?.attribute(named: "score")?.versionHash)
        let relationshipModifier = try Self.model([(#""inverse": "customer" }"#, #""inverse": "customer", "versionHashModifier": "2" }"#)])
        #expect(Self.changed(base, relationshipModifier) == ["Customer"])
        ModelFixtures.expectSingleIssue(
            Self.base.replacingOccurrences(of: #""name": "Order","#, with: #""name": "Order", "versionHashModifier": 2,"#),
            path: "entities[1].versionHashModifier", "found 2 (a number)", "expected text that changes the version hash")
    }

    @Test func storeMetadataIsReadWithoutOpeningTheStore() throws {
        let store = try TestStore(.sqlite)
        let url = try #require(store.directory).appendingPathComponent("Conformance.sqlite")
        let model = store.container.managedObjectModel
        let identifier = try #require(store.container.persistentStoreCoordinator.persistentStoreIdentifier)
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(at: url)
        #expect(metadata.modelName == model.name)
        #expect(metadata.modelVersion == model.version)
        #expect(metadata.modelVersionHash == model.versionHash)
        #expect(metadata.entityVersionHashesByName == model.entityVersionHashesByName)
        #expect(metadata.storeIdentifier == identifier)
        #expect(model.isConfiguration(compatibleWithStoreMetadata: metadata))

        let changed = try ModelFixtures.load(
            ConformanceModel.json.replacingOccurrences(
                of: #"{ "name": "city", "type": "string", "optional": true }"#,
                with: #"{ "name": "city", "type": "string", "optional": true }, { "name": "zip", "type": "string", "optional": true }"#))
        #expect(!changed.isConfiguration(compatibleWithStoreMetadata: metadata))
        #expect(changed.entityVersionHashesByName["Item"] == metadata.entityVersionHashesByName["Item"])
    }

    @Test func metadataOfWhatIsNotAStoreIsAClearError() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = try #require(throws: ObjectGraphError.self) {
            try PersistentStoreCoordinator.metadataForPersistentStore(at: directory.appendingPathComponent("None.sqlite"))
        }
        #expect(missing.kind == .storeUnavailable)
        #expect(missing.message.contains("there is no file there"))
        let text = directory.appendingPathComponent("notes.sqlite")
        try Data("hello".utf8).write(to: text)
        let garbage = try #require(throws: ObjectGraphError.self) { try PersistentStoreCoordinator.metadataForPersistentStore(at: text) }
        #expect(garbage.kind == .corruptStore)
    }
}
