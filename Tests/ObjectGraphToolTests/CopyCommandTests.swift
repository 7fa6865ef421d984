import ArgumentParser
import Foundation
import ObjectGraph
import Testing

@testable import ObjectGraphTool

/// `objectgraph copy`: a store copied into a new one with its keys, values, relationships and
/// identifier; a destination holding objects refused. (SQLite → PostgreSQL → SQLite is tested
/// in ObjectGraphTests' `StoreCopyTests`, which start a PostgreSQL server.)
@Suite struct CopyCommandTests {
    static let model = """
        { "name": "Team", "version": 2, "entities": [
          { "name": "Person", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [ { "name": "friends", "destination": "Person", "toMany": true, "ordered": true, "inverse": null } ] } ] }
        """

    /// A model file and a store of three people, the first with two friends in order.
    private static func files() throws -> TemporaryModels {
        let files = try TemporaryModels(["Team.json": model])
        let container = PersistentContainer(
            name: "Team", managedObjectModel: try ManagedObjectModel(contentsOf: URL(fileURLWithPath: files.path("Team.json"))))
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: files.path("Team.sqlite")))]
        try container.loadPersistentStores()
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let people = try ["Ada", "Grace", "Alan"].map { name in
                let person = try context.insertNewObject(forEntityName: "Person")
                try person.setValue(name, forKey: "name")
                return person
            }
            try people[0].setValue([people[2], people[1]], forKey: "friends")
            try context.save()
        }
        return files
    }

    /// The names of the people in the store at `path`, each with its friends in order, and the
    /// URI of the first.
    private static func people(_ path: String) throws -> (names: [String], firstURI: URL) {
        let container = PersistentContainer(
            name: "Team",
            managedObjectModel: try PersistentStoreCoordinator.metadataForPersistentStore(at: URL(fileURLWithPath: path)).model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: path))]
        try container.loadPersistentStores()
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let people = try context.fetch(FetchRequest<ManagedObject>(entityName: "Person")).sorted {
                $0.objectID.primaryKey! < $1.objectID.primaryKey!
            }
            let names = try people.map { person in
                let friends = try #require(try person.value(forKey: "friends") as? [ManagedObject])
                func name(_ person: ManagedObject) throws -> String { try person.value(forKey: "name") as? String ?? "" }
                return try "\(name(person)) → \(friends.map(name))"
            }
            return (names, people[0].objectID.uriRepresentation())
        }
    }

    @Test func aStoreIsCopiedWithItsKeysRelationshipsAndIdentifier() throws {
        let files = try Self.files()
        defer { files.remove() }
        let output = try runTool(["copy", files.path("Team.sqlite"), files.path("Copy.sqlite")])
        #expect(output.exitCode == .success, "\(output.standardError)")
        #expect(
            output.standardOutput
                == "Copied 3 objects of 'Team' version 2 from \(files.path("Team.sqlite")) to \(files.path("Copy.sqlite")).\n")
        let original = try Self.people(files.path("Team.sqlite")), copy = try Self.people(files.path("Copy.sqlite"))
        #expect(copy.names == ["Ada → [\"Alan\", \"Grace\"]", "Grace → []", "Alan → []"])
        #expect(copy.names == original.names)
        #expect(copy.firstURI == original.firstURI)
    }

    @Test func aDestinationHoldingObjectsIsRefused() throws {
        let files = try Self.files()
        defer { files.remove() }
        let output = try runTool(["copy", files.path("Team.sqlite"), files.path("Team.sqlite"), "--model", files.path("Team.json")])
        #expect(output.exitCode == .failure)
        #expect(
            output.standardError.contains("Cannot copy into a store that holds objects (3 Person objects already)"),
            "\(output.standardError)")
    }
}
