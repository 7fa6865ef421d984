import Foundation
import Testing

@testable import ObjectGraph

/// Custom migration stages: Swift code in the migration's transaction, before the copy (remove
/// duplicates a new constraint would refuse) and after it (new values from old ones).
@Suite struct MigrationStageTests {
    static let version1 =
        #"{ "name": "Club", "version": 1, "entities": [ { "name": "Person", "attributes": [ { "name": "name", "type": "string" }, { "name": "email", "type": "string" } ] } ] }"#
    static let version2 =
        #"{ "name": "Club", "version": 2, "entities": [ { "name": "Person", "attributes": [ { "name": "first", "type": "string" }, { "name": "last", "type": "string" }, { "name": "email", "type": "string" } ], "uniquenessConstraints": [["email"]] } ] }"#

    /// Removes all but the first person of each e-mail address.
    static let dedupe: @Sendable (MigrationStageContext) throws -> Void = { context in
        var seen: Set<String> = []
        try context.forEachObject(ofEntity: "Person") { person in
            guard let email = try person.value(forKey: "email") as? String else { return }
            if !seen.insert(email).inserted { try person.delete() }
        }
    }

    /// Splits each person's old `name` into `first` and `last`.
    static let split: @Sendable (MigrationStageContext) throws -> Void = { context in
        try context.forEachObject(ofEntity: "Person") { person in
            let name = try #require(try person.oldValue(forKey: "name") as? String)
            let parts = name.split(separator: " ", maxSplits: 1).map(String.init)
            try person.setValue(parts[0], forKey: "first")
            try person.setValue(parts.count > 1 ? parts[1] : "", forKey: "last")
        }
    }

    /// A version-1 store of three people, two with one address; their keys by name.
    private static func store(_ kind: StoreKind) throws -> (store: MigrationStore, url: URL, keys: [String: Int64]) {
        let store = try MigrationStore(kind, name: "Club")
        let url = store.url
        let container = try InferredMigrationTests.open(url, version1)
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        let keys = try context.performAndWait {
            let people = try [("Ada Lovelace", "ada@x"), ("Grace Hopper", "grace@x"), ("Ada Again", "ada@x")].map { name, email in
                let person = try context.insertNewObject(forEntityName: "Person")
                try person.setValue(name, forKey: "name")
                try person.setValue(email, forKey: "email")
                return (name, person)
            }
            try context.save()
            return Dictionary(uniqueKeysWithValues: people.map { ($0.0, $0.1.objectID.primaryKey!) })
        }
        return (store, url, keys)
    }

    @Test(arguments: MigrationStore.kinds) func stagesDedupeAndSplitInTheMigration(_ kind: StoreKind) throws {
        let (store, url, keys) = try Self.store(kind)
        defer { withExtendedLifetime(store) {} }
        let stages = [MigrationStage(from: 1, to: 2, prepare: Self.dedupe, complete: Self.split)]
        let plan = try #require(
            try MigrationStore.plan(url, to: ModelFixtures.load(Self.version2), stages: stages))
        #expect(plan.contains("-- version 1 → 2\n-- the migration stage's prepare (Swift)\n"))
        #expect(
            plan.contains("-- the migration stage's complete (Swift)\nCREATE UNIQUE INDEX IF NOT EXISTS \"Person_email_unique\""), "\(plan)"
        )

        let container = try InferredMigrationTests.open(url, Self.version2) { $0.migrationStages = stages }
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let people = try context.objects("Person", sortedBy: ["first"])
            #expect(try people.map { try $0.get("first", as: String.self) } == ["Ada", "Grace"])
            #expect(try people.map { try $0.get("last", as: String.self) } == ["Lovelace", "Hopper"])
            #expect(people.map { $0.objectID.primaryKey } == [keys["Ada Lovelace"], keys["Grace Hopper"]])
        }
    }

    @Test(arguments: MigrationStore.kinds) func withoutAStageANewRequiredAttributeCannotBeInferred(_ kind: StoreKind) throws {
        let (store, url, _) = try Self.store(kind)
        defer { withExtendedLifetime(store) {} }
        let error = try #require(throws: ObjectGraphError.self) { try InferredMigrationTests.open(url, Self.version2) }
        #expect(error.kind == .modelMismatch)
        #expect(error.issues.map(\.path) == ["entities[0].attributes[0]", "entities[0].attributes[1]"])
        #expect(error.issues[0].message.contains("or compute it in a MigrationStage's complete"))
    }

    @Test(arguments: MigrationStore.kinds) func aStageThatThrowsHalfWayChangesNothing(_ kind: StoreKind) throws {
        let (store, url, _) = try Self.store(kind)
        defer { withExtendedLifetime(store) {} }
        struct Interrupted: Error {}
        let failing = MigrationStage(from: 1, to: 2, prepare: Self.dedupe) { context in
            var done = 0
            try context.forEachObject(ofEntity: "Person") { person in
                guard done == 0 else { throw Interrupted() }
                try person.setValue("x", forKey: "first")
                try person.setValue("y", forKey: "last")
                done += 1
            }
        }
        let error = try #require(throws: ObjectGraphError.self) {
            try InferredMigrationTests.open(url, Self.version2) { $0.migrationStages = [failing] }
        }
        #expect(error.message.contains("a migration stage threw Interrupted()"), "\(error.message)")
        #expect(error.message.contains("the store is unchanged"))
        let container = try InferredMigrationTests.open(url, Self.version1)
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        #expect(try InferredMigrationTests.count("Person", in: container) == 3, "the deduplication was rolled back too")
    }

    @Test(arguments: MigrationStore.kinds) func aStageThatLeavesARequiredValueUnsetIsRefused(_ kind: StoreKind) throws {
        let (store, url, _) = try Self.store(kind)
        defer { withExtendedLifetime(store) {} }
        let lazy = MigrationStage(from: 1, to: 2, prepare: Self.dedupe) { context in
            try context.forEachObject(ofEntity: "Person") { person in try person.setValue("x", forKey: "first") }
        }
        let error = try #require(throws: ObjectGraphError.self) {
            try InferredMigrationTests.open(url, Self.version2) { $0.migrationStages = [lazy] }
        }
        #expect(error.kind == .validation)
        #expect(error.message.contains("left 2 of 2 Person objects without a value for Person.last"), "\(error.message)")
        #expect(try MigrationStore.metadata(url).modelVersion == 1)
    }
}
