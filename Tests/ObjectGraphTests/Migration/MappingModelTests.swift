import Foundation
import Testing

@testable import ObjectGraph

/// Explicit mappings: an entity's objects from an entity inference cannot match, attributes made
/// from the older values by expressions (a rename with a transform, a type change, a split),
/// with no loop written.
@Suite struct MappingModelTests {
    static let version1 =
        #"{ "name": "Book", "version": 1, "entities": [ { "name": "Contact", "attributes": [ { "name": "fullName", "type": "string" }, { "name": "mail", "type": "string" }, { "name": "phone", "type": "string", "optional": true } ] } ] }"#
    static let version2 =
        #"{ "name": "Book", "version": 2, "entities": [ { "name": "Person", "attributes": [ { "name": "first", "type": "string" }, { "name": "last", "type": "string" }, { "name": "email", "type": "string" }, { "name": "phone", "type": "integer64", "optional": true } ], "uniquenessConstraints": [["email"]] } ] }"#

    static let mapping = MappingModel(
        from: 1, to: 2,
        [
            EntityMapping(
                "Person", from: "Contact",
                properties: [
                    PropertyMapping("first", .component(.source("fullName"), separator: " ", index: 0, maxParts: 2)),
                    PropertyMapping(
                        "last", .coalesce([.component(.source("fullName"), separator: " ", index: 1, maxParts: 2), .string("")])),
                    PropertyMapping("email", .lowercased(.trimmed(.source("mail")))),
                    PropertyMapping("phone", .integerFrom(.source("phone")))
                ])
        ])

    /// A version-1 store of three contacts; their keys, in insertion order.
    private static func store(_ kind: StoreKind) throws -> (store: MigrationStore, url: URL, keys: [Int64]) {
        let store = try MigrationStore(kind, name: "Book")
        let url = store.url
        let container = try InferredMigrationTests.open(url, version1)
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        let keys = try context.performAndWait {
            let contacts = try [
                ("Ada King Lovelace", " ADA@X.ORG ", "0123"), ("Hopper", "grace@x.org", nil), ("Alan Turing", "Alan@X.org", "n/a")
            ].map { name, mail, phone in
                let contact = try context.insertNewObject(forEntityName: "Contact")
                try contact.setValue(name, forKey: "fullName")
                try contact.setValue(mail, forKey: "mail")
                try contact.setValue(phone, forKey: "phone")
                return contact
            }
            try context.save()
            return contacts.map { $0.objectID.primaryKey! }
        }
        return (store, url, keys)
    }

    @Test(arguments: MigrationStore.kinds) func anExplicitMappingFillsWhatInferenceCannot(_ kind: StoreKind) throws {
        let (store, url, keys) = try Self.store(kind)
        defer { withExtendedLifetime(store) {} }
        // Inferred alone, Person would be a new, empty entity and Contact's objects dropped.
        let version2 = try ModelFixtures.load(Self.version2)
        let inferred = try #require(try MigrationStore.plan(url, to: version2))
        #expect(!inferred.contains(#"INSERT INTO "Person""#))
        let mapped = try #require(try MigrationStore.plan(url, to: version2, mappings: [Self.mapping]))
        #expect(
            mapped.contains(
                #"INSERT INTO "Person" ("_pk", "_version", "first", "last", "email", "phone") SELECT "_pk", "_version", '', '', '', NULL FROM "_og_old_Contact";"#
            ), "\(mapped)")

        let container = try InferredMigrationTests.open(url, Self.version2) { $0.mappingModels = [Self.mapping] }
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let people = try context.objects("Person").sorted { $0.objectID.primaryKey! < $1.objectID.primaryKey! }
            #expect(people.map { $0.objectID.primaryKey! } == keys)
            #expect(try people.map { try $0.get("first", as: String.self) } == ["Ada", "Hopper", "Alan"])
            #expect(try people.map { try $0.get("last", as: String.self) } == ["King Lovelace", "", "Turing"])
            #expect(try people.map { try $0.get("email", as: String.self) } == ["ada@x.org", "grace@x.org", "alan@x.org"])
            #expect(try people.map { try $0.value(forKey: "phone") as? Int64 } == [123, nil, nil])
        }
    }

    @Test(arguments: MigrationStore.kinds) func aMappingThatLeavesARequiredValueNilIsRefused(_ kind: StoreKind) throws {
        let (store, url, _) = try Self.store(kind)
        defer { withExtendedLifetime(store) {} }
        let broken = MappingModel(
            from: 1, to: 2,
            [
                EntityMapping(
                    "Person", from: "Contact",
                    properties: [
                        PropertyMapping("first", .component(.source("fullName"), separator: " ", index: 0, maxParts: 2)),
                        PropertyMapping("last", .component(.source("fullName"), separator: " ", index: 1, maxParts: 2)),
                        PropertyMapping("email", .source("mail")),
                        PropertyMapping("phone", .integerFrom(.source("phone")))
                    ])
            ])
        let error = try #require(throws: ObjectGraphError.self) {
            try InferredMigrationTests.open(url, Self.version2) { $0.mappingModels = [broken] }
        }
        #expect(error.message.contains("Person.last"), "\(error.message)")
        #expect(error.message.contains("the store is unchanged"), "\(error.message)")
        #expect(try MigrationStore.metadata(url).modelVersion == 1)
    }
}
