import Foundation
import ObjectGraph
import Testing

/// The examples of Migrations.md, each migrating a real store file.
@Suite struct MigrationsArticleTests {
    /// Three versions of a small Library model: a book's pages in version 2 (a column added), its
    /// edition in 3 (required, with a default for the stored books: a table rebuild, which reports progress).
    static let versions = [
        #"{ "name": "Library", "version": 1, "entities": [ { "name": "Book", "attributes": [ { "name": "title", "type": "string" } ] } ] }"#,
        #"{ "name": "Library", "version": 2, "entities": [ { "name": "Book", "attributes": [ { "name": "title", "type": "string" }, { "name": "pages", "type": "integer32", "optional": true } ] } ] }"#,
        #"{ "name": "Library", "version": 3, "entities": [ { "name": "Book", "attributes": [ { "name": "title", "type": "string" }, { "name": "pages", "type": "integer32", "optional": true }, { "name": "edition", "type": "integer16", "default": 1 } ] } ] }"#
    ]

    /// A store file at `url` written by `json`, holding one object of `entity` per values dictionary.
    static func makeStore(at url: URL, _ json: String, entity: String, _ objects: [[String: String]]) throws {
        let container = try InferredMigrationTests.open(url, json)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for values in objects {
                let object = try context.insertNewObject(forEntityName: entity)
                for (key, value) in values { try object.setValue(value, forKey: key) }
            }
            try context.save()
        }
        container.close()
    }

    /// A container for `model` on the store `description` names, loaded.
    static func load(_ model: ManagedObjectModel, _ description: PersistentStoreDescription) throws -> PersistentContainer {
        let container = PersistentContainer(name: model.name, managedObjectModel: model)
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }

    /// The values of `key` of every object of `entity`, sorted.
    static func values(_ key: String, of entity: String, in container: PersistentContainer) throws -> [String] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            try context.fetch(FetchRequest<ManagedObject>(entityName: entity)).map { try $0.value(forKey: key, as: String.self) ?? "" }
                .sorted()
        }
    }

    @Test func aFolderOfVersionsMigratesAStoreStepByStep() throws {
        let directory = try ArticleFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let modelsURL = directory.appendingPathComponent("Models")
        try FileManager.default.createDirectory(at: modelsURL.appendingPathComponent("Library"), withIntermediateDirectories: true)
        for (number, json) in Self.versions.enumerated() {
            try Data(json.utf8).write(to: modelsURL.appendingPathComponent("Library/\(number + 1).json"))
        }
        let storeURL = directory.appendingPathComponent("Library.sqlite")
        try Self.makeStore(at: storeURL, Self.versions[0], entity: "Book", [["title": "Kindred"]])

        var description = PersistentStoreDescription(url: storeURL)
        description.shouldMigrateStoreAutomatically = true  // the default
        description.shouldInferMappingModelAutomatically = true  // the default

        let model = try ManagedObjectModel(versionsIn: modelsURL.appendingPathComponent("Library"))
        // model.version == 3, model.previousVersions.map(\.version) == [1, 2]

        #expect(model.version == 3)
        #expect(model.previousVersions.map(\.version) == [1, 2])

        let reported = Reports()
        let progress = Progress(totalUnitCount: 0)
        description.migrationProgressHandler = { progress in print(progress) }  // 42% (420000 of 1000000 rows) version 1 → 2: Person
        description.migrationProgress = progress  // or a Foundation Progress, kept up to date (units: rows)
        let handler = description.migrationProgressHandler
        description.migrationProgressHandler = { progress in
            handler?(progress)
            reported.add()
        }

        let container = try Self.load(model, description)
        #expect(try Self.values("title", of: "Book", in: container) == ["Kindred"])
        #expect(reported.count > 0)
        #expect(progress.completedUnitCount == progress.totalUnitCount)
    }

    @Test func aStageDedupesAndSplitsNames() throws {
        let directory = try ArticleFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storeURL = directory.appendingPathComponent("Club.sqlite")
        try Self.makeStore(
            at: storeURL, MigrationStageTests.version1, entity: "Person",
            [
                ["name": "Ada Lovelace", "email": "ada@x"], ["name": "Grace Hopper", "email": "grace@x"],
                ["name": "Ada Again", "email": "ada@x"]
            ])

        let split = MigrationStage(
            from: 1, to: 2,
            prepare: { context in  // the objects as version 1 holds them
                var seen: Set<String> = []
                try context.forEachObject(ofEntity: "Person") { person in
                    let email = try person.value(forKey: "email") as? String ?? ""
                    if !seen.insert(email).inserted { try person.delete() }  // before the unique index
                }
            },
            complete: { context in  // the objects as version 2 holds them
                try context.forEachObject(ofEntity: "Person") { person in
                    let name = try person.oldValue(forKey: "name") as? String ?? ""
                    let parts = name.split(separator: " ", maxSplits: 1).map(String.init)
                    try person.setValue(parts.first ?? "", forKey: "first")
                    try person.setValue(parts.count > 1 ? parts[1] : "", forKey: "last")
                }
            })
        var description = PersistentStoreDescription(url: storeURL)
        description.migrationStages = [split]

        let container = try Self.load(try ModelFixtures.load(MigrationStageTests.version2), description)
        #expect(try Self.values("first", of: "Person", in: container) == ["Ada", "Grace"])
        #expect(try Self.values("last", of: "Person", in: container) == ["Hopper", "Lovelace"])
    }

    @Test func anExplicitMappingMakesPeopleOfContacts() throws {
        let directory = try ArticleFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storeURL = directory.appendingPathComponent("Contacts.sqlite")
        try Self.makeStore(
            at: storeURL, MappingModelTests.version1, entity: "Contact",
            [
                ["fullName": "Ada King Lovelace", "mail": " ADA@X.ORG ", "phone": "0123"], ["fullName": "Hopper", "mail": "grace@x.org"]
            ])
        var description = PersistentStoreDescription(url: storeURL)

        let mapping = MappingModel(
            from: 1, to: 2,
            [
                EntityMapping(
                    "Person", from: "Contact",
                    properties: [
                        PropertyMapping("first", .component(.source("fullName"), separator: " ", index: 0, maxParts: 2)),
                        PropertyMapping(
                            "last", .coalesce([.component(.source("fullName"), separator: " ", index: 1, maxParts: 2), .string("")])),
                        PropertyMapping("email", .lowercased(.trimmed(.source("mail")))),
                        PropertyMapping("phone", .integerFrom(.source("phone")))  // string → integer64
                    ])
            ])
        description.mappingModels = [mapping]

        let container = try Self.load(try ModelFixtures.load(MappingModelTests.version2), description)
        #expect(try Self.values("first", of: "Person", in: container) == ["Ada", "Hopper"])
        #expect(try Self.values("last", of: "Person", in: container) == ["", "King Lovelace"])
        #expect(try Self.values("email", of: "Person", in: container) == ["ada@x.org", "grace@x.org"])
    }

    @Test func anInMemoryStoreStartsFromAnOldStoreFile() throws {
        let directory = try ArticleFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let oldStoreURL = directory.appendingPathComponent("Release1.sqlite")
        try Self.makeStore(at: oldStoreURL, Self.versions[0], entity: "Book", [["title": "Kindred"], ["title": "Dawn"]])
        let before = try Data(contentsOf: oldStoreURL)
        let container = PersistentContainer(name: "Library", managedObjectModel: try ModelFixtures.load(Self.versions[2]))

        var description = PersistentStoreDescription.inMemory
        description.url = oldStoreURL  // say, Bundle.module.url(forResource: "Release1", withExtension: "sqlite")
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()

        #expect(try Self.values("title", of: "Book", in: container) == ["Dawn", "Kindred"])
        #expect(try Data(contentsOf: oldStoreURL) == before)
    }
}

/// Counts the progress reports of a migration (told on the opening thread).
private final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var reports = 0
    func add() { lock.withLock { reports += 1 } }
    var count: Int { lock.withLock { reports } }
}
