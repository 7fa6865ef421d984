import Foundation
import Testing

@testable import ObjectGraph

/// Lightweight (inferred) migration of SQLite store files and PostgreSQL databases: a store
/// written with one version of a model opens with the next, its rows, keys and relationships carried across; what cannot be
/// inferred is refused with every reason, and a failed migration leaves the store as it was.
@Suite struct InferredMigrationTests {
    static let version1 = """
        { "name": "Shelf", "version": 1, "entities": [
          { "name": "Author", "attributes": [
              { "name": "name", "type": "string" },
              { "name": "born", "type": "date", "optional": true },
              { "name": "rating", "type": "integer16", "default": 0 } ],
            "relationships": [ { "name": "books", "destination": "Book", "toMany": true, "inverse": "author", "deleteRule": "cascade" } ] },
          { "name": "Book", "attributes": [
              { "name": "title", "type": "string" },
              { "name": "pages", "type": "integer32", "default": 0 },
              { "name": "isbn", "type": "string", "optional": true },
              { "name": "code", "type": "uuid", "optional": true } ],
            "relationships": [
              { "name": "author", "destination": "Author", "inverse": "books" },
              { "name": "tags", "destination": "Tag", "toMany": true, "inverse": "books" } ] },
          { "name": "Tag", "attributes": [ { "name": "label", "type": "string" } ],
            "relationships": [ { "name": "books", "destination": "Book", "toMany": true, "inverse": "tags" } ] },
          { "name": "Note", "attributes": [ { "name": "text", "type": "string" } ] }
        ] }
        """

    /// Renames (an entity, an attribute, a relationship), widenings, a new required attribute
    /// with a default, optional → required with a default, a removed attribute and entity, a new
    /// entity and relationship, a new uniqueness constraint and index.
    static let version2 = """
        { "name": "Shelf", "version": 2, "entities": [
          { "name": "Author", "attributes": [
              { "name": "fullName", "type": "string", "renamingIdentifier": "name" },
              { "name": "rating", "type": "integer64", "default": 0 },
              { "name": "country", "type": "string", "default": "unknown" } ],
            "relationships": [ { "name": "books", "destination": "Book", "toMany": true, "inverse": "author", "deleteRule": "cascade" } ] },
          { "name": "Book", "attributes": [
              { "name": "title", "type": "string" },
              { "name": "pages", "type": "double", "default": 0, "indexed": true },
              { "name": "isbn", "type": "string", "default": "none" },
              { "name": "code", "type": "string", "optional": true } ],
            "relationships": [
              { "name": "author", "destination": "Author", "inverse": "books" },
              { "name": "labels", "destination": "Label", "toMany": true, "inverse": "books", "renamingIdentifier": "tags" },
              { "name": "publisher", "destination": "Publisher", "optional": true, "inverse": "books" } ],
            "uniquenessConstraints": [["title"]] },
          { "name": "Label", "renamingIdentifier": "Tag", "attributes": [ { "name": "label", "type": "string" } ],
            "relationships": [ { "name": "books", "destination": "Book", "toMany": true, "inverse": "labels" } ] },
          { "name": "Publisher", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [ { "name": "books", "destination": "Book", "toMany": true, "inverse": "publisher" } ] }
        ] }
        """

    /// How many objects of `entity` the store of `container` holds.
    static func count(_ entity: String, in container: PersistentContainer) throws -> Int {
        let context = container.newBackgroundContext()
        return try context.performAndWait { try context.count(for: FetchRequest<ManagedObject>(entityName: entity)) }
    }

    /// A container on the store at `url` (a file or a `postgres://` database) with `model`, its
    /// description changed by `configure`.
    static func open(
        _ url: URL, _ json: String, configure: (inout PersistentStoreDescription) -> Void = { _ in }
    ) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Shelf", managedObjectModel: try ModelFixtures.load(json))
        var description = MigrationStore.description(url)
        configure(&description)
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }

    /// What a version-1 store holds, by the keys of its objects.
    struct Filled {
        let store: MigrationStore
        var url: URL { store.url }
        /// The SQLite file's directory (for files written beside it).
        var directory: URL { url.deletingLastPathComponent() }
        let authorKeys: [Int64]
        let bookKeys: [Int64]
        let tagKeys: [Int64]
        let code: UUID
    }

    /// A version-1 store with two authors, three books (two without an ISBN, two of 248 pages),
    /// two tags on the books and a note; closed.
    static func filledVersion1Store(_ kind: StoreKind = .sqlite) throws -> Filled {
        let store = try MigrationStore(kind, name: "Shelf")
        let container = try open(store.url, version1)
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        let code = UUID()
        let keys = try context.performAndWait { () throws -> ([Int64], [Int64], [Int64]) in
            let octavia = try context.insertObject(
                "Author", ["name": "Octavia", "rating": 5, "born": Date(timeIntervalSinceReferenceDate: -9e8)])
            let ursula = try context.insertObject("Author", ["name": "Ursula", "rating": 4])
            let kindred = try context.insertObject(
                "Book", ["title": "Kindred", "pages": 264, "isbn": "978-0807083697", "author": octavia, "code": code])
            let dawn = try context.insertObject("Book", ["title": "Dawn", "pages": 248, "author": octavia])
            let earthsea = try context.insertObject("Book", ["title": "Earthsea", "pages": 248, "author": ursula])
            let classic = try context.insertObject("Tag", ["label": "classic"])
            let scifi = try context.insertObject("Tag", ["label": "sci-fi"])
            try kindred.setValue(Set([classic, scifi]), forKey: "tags")
            try dawn.setValue(Set([scifi]), forKey: "tags")
            try earthsea.setValue(Set([classic]), forKey: "tags")
            _ = try context.insertObject("Note", ["text": "dropped in version 2"])
            try context.save()
            return (
                [octavia, ursula].map { $0.objectID.primaryKey! }, [kindred, dawn, earthsea].map { $0.objectID.primaryKey! },
                [classic, scifi].map { $0.objectID.primaryKey! }
            )
        }
        return Filled(store: store, authorKeys: keys.0, bookKeys: keys.1, tagKeys: keys.2, code: code)
    }

    @Test(arguments: MigrationStore.kinds) func aVersion1StoreOpensWithVersion2AndKeepsEveryObject(_ kind: StoreKind) throws {
        let filled = try Self.filledVersion1Store(kind)
        defer { withExtendedLifetime(filled) {} }
        let container = try Self.open(filled.url, Self.version2)
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            func object(_ entity: String, _ key: Int64) throws -> ManagedObject {
                let model = container.managedObjectModel
                let id = try #require(context.objects(entity).first { $0.objectID.primaryKey == key }, "\(entity) \(key) is gone")
                #expect(id.entity === model.entity(named: entity))
                return id
            }
            #expect(try context.objects("Author").count == 2)
            #expect(try context.objects("Book").count == 3)
            #expect(try context.objects("Label").count == 2)
            #expect(try context.objects("Publisher").isEmpty)

            let octavia = try object("Author", filled.authorKeys[0])
            #expect(try octavia.get("fullName", as: String.self) == "Octavia")
            #expect(try octavia.value(forKey: "rating") as? Int64 == 5)
            #expect(try octavia.get("country", as: String.self) == "unknown")
            let kindred = try object("Book", filled.bookKeys[0])
            #expect(try kindred.get("pages", as: Double.self) == 264)
            #expect(try kindred.get("isbn", as: String.self) == "978-0807083697")
            #expect(try kindred.get("code", as: String.self) == filled.code.uuidString)
            #expect(try object("Book", filled.bookKeys[1]).get("isbn", as: String.self) == "none")
            #expect((try kindred.value(forKey: "author") as? ManagedObject) === octavia)
            let labels = try #require(try kindred.value(forKey: "labels") as? Set<ManagedObject>)
            #expect(Set(labels.map { $0.objectID.primaryKey! }) == Set(filled.tagKeys))
            let classic = try object("Label", filled.tagKeys[0])
            let classicBooks = try #require(try classic.value(forKey: "books") as? Set<ManagedObject>)
            #expect(Set(classicBooks.map { $0.objectID.primaryKey! }) == [filled.bookKeys[0], filled.bookKeys[2]])
            #expect(try context.objects("Book", where: "author.fullName == 'Octavia' AND pages > 250").count == 1)

            // New objects get new keys (never one of the old ones), and the new schema holds.
            let added = try context.insertNewObject(forEntityName: "Author")
            try added.setValue("N. K. Jemisin", forKey: "fullName")
            let duplicate = try context.insertNewObject(forEntityName: "Book")
            try duplicate.setValue("Kindred", forKey: "title")
            try duplicate.setValue(added, forKey: "author")
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            // A clash with a stored row: a merge conflict under the default `.error` policy.
            #expect(error.kind == .mergeConflict)
            context.delete(duplicate)
            try context.save()
            #expect(!filled.authorKeys.contains(added.objectID.primaryKey!))
        }
        let metadata = try MigrationStore.metadata(filled.url)
        #expect(metadata.modelVersion == 2)
        #expect(container.managedObjectModel.isConfiguration(compatibleWithStoreMetadata: metadata))
    }

    @Test(arguments: MigrationStore.kinds) func whatCannotBeInferredIsRefusedWithEveryReasonAndChangesNothing(_ kind: StoreKind) throws {
        let filled = try Self.filledVersion1Store(kind)
        defer { withExtendedLifetime(filled) {} }
        let version2 = Self.version1
            .replacingOccurrences(of: #""version": 1"#, with: #""version": 2"#)
            .replacingOccurrences(
                of: #"{ "name": "pages", "type": "integer32", "default": 0 }"#,
                with: #"{ "name": "pages", "type": "integer16", "default": 0 }"#
            )
            .replacingOccurrences(
                of: #"{ "name": "label", "type": "string" } ],"#,
                with: #"{ "name": "label", "type": "string" }, { "name": "weight", "type": "double" } ],"#)
        let error = try #require(throws: ObjectGraphError.self) { try Self.open(filled.url, version2) }
        #expect(error.kind == .modelMismatch)
        #expect(
            error.message.contains("from model 'Shelf' version 1 to 'Shelf' version 2: 2 changes cannot be inferred"), "\(error.message)")
        #expect(error.issues.map(\.path) == ["entities[1].attributes[1]", "entities[2].attributes[1]"])
        #expect(error.issues[0].message.contains("Book.pages changes type from integer32 to integer16"))
        #expect(error.issues[1].message.contains("Tag.weight is new and required but has no default"))
        // Still the version-1 store, whole.
        let container = try Self.open(filled.url, Self.version1)
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        #expect(try Self.count("Note", in: container) == 1)
    }

    @Test(arguments: MigrationStore.kinds) func existingDataThatBreaksANewConstraintStopsTheMigrationAndChangesNothing(
        _ kind: StoreKind
    ) throws {
        let filled = try Self.filledVersion1Store(kind)
        defer { withExtendedLifetime(filled) {} }
        let version2 = Self.version1
            .replacingOccurrences(of: #""version": 1"#, with: #""version": 2"#)
            .replacingOccurrences(
                of: #"{ "name": "tags", "destination": "Tag", "toMany": true, "inverse": "books" } ] },"#,
                with:
                    #"{ "name": "tags", "destination": "Tag", "toMany": true, "inverse": "books" } ], "uniquenessConstraints": [["pages"]] },"#
            )
        let error = try #require(throws: ObjectGraphError.self) { try Self.open(filled.url, version2) }
        #expect(error.kind == .constraintViolation)
        #expect(error.message.contains("Cannot migrate the store at"), "\(error.message)")
        #expect(error.message.contains("the store is unchanged"))
        let container = try Self.open(filled.url, Self.version1)
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        #expect(try Self.count("Book", in: container) == 3)
        #expect(try MigrationStore.metadata(filled.url).modelVersion == 1)
    }

    @Test(arguments: MigrationStore.kinds) func migrationCanBeTurnedOff(_ kind: StoreKind) throws {
        let filled = try Self.filledVersion1Store(kind)
        defer { withExtendedLifetime(filled) {} }
        for option in [\PersistentStoreDescription.shouldMigrateStoreAutomatically, \.shouldInferMappingModelAutomatically] {
            let error = try #require(throws: ObjectGraphError.self) {
                try Self.open(filled.url, Self.version2) { $0[keyPath: option] = false }
            }
            #expect(error.kind == .modelMismatch)
        }
        #expect(try MigrationStore.metadata(filled.url).modelVersion == 1)
    }
}

extension InferredMigrationTests {
    @Test(arguments: MigrationStore.kinds) func aDryRunShowsThePlanAndChangesNothing(_ kind: StoreKind) throws {
        let filled = try Self.filledVersion1Store(kind)
        defer { withExtendedLifetime(filled) {} }
        let version2 = try ModelFixtures.load(Self.version2)
        let plan = try #require(try MigrationStore.plan(filled.url, to: version2))
        let lines = plan.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(2)) == ["-- version 1 → 2", #"DROP INDEX "Book_author_idx";"#])
        #expect(lines.contains(#"ALTER TABLE "Tag" RENAME TO "_og_old_Tag";"#))
        #expect(
            lines.contains(
                #"INSERT INTO "Author" ("_pk", "_version", "fullName", "rating", "country") SELECT "_pk", "_version", "name", "rating", ? FROM "_og_old_Author";  -- "unknown""#
            ))
        #expect(
            lines.contains(
                #"INSERT INTO "_join_Book_labels" ("source", "destination") SELECT "source", "destination" FROM "_og_old__join_Book_tags";"#
            ))
        #expect(lines.contains(#"DROP TABLE "_og_old_Note";"#))
        #expect(lines.last?.hasPrefix(#"UPDATE "_objectgraph_metadata" SET "value" = ? WHERE "key" = ?;"#) == true)
        #expect(!plan.contains("_objectgraph_metadata\" (\n"), "our own tables are not created again")
        #expect(try MigrationStore.metadata(filled.url).modelVersion == 1)
        #expect(try MigrationStore.plan(filled.url, to: ModelFixtures.load(Self.version1)) == nil)
    }
}

extension InferredMigrationTests {
    @Test func aFullDiskStopsTheMigrationAndChangesNothing() throws {
        let filled = try Self.filledVersion1Store()
        defer { withExtendedLifetime(filled) {} }
        // SQLite holds the file at the pages it has: every new page is "disk full".
        let error = try #require(throws: ObjectGraphError.self) {
            try Self.open(filled.url, Self.version2) { $0.sqlitePragmas = ["max_page_count": "1"] }
        }
        #expect(error.kind == .diskFull, "\(error)")
        #expect(error.message.contains("Cannot migrate the store at"), "\(error.message)")
        #expect(error.message.contains("the store is unchanged"))
        #expect(try MigrationStore.metadata(filled.url).modelVersion == 1)
        let container = try Self.open(filled.url, Self.version1)
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        #expect(try Self.count("Book", in: container) == 3)
        #expect(try Self.count("Note", in: container) == 1)
    }
}

extension InferredMigrationTests {
    @Test(arguments: MigrationStore.kinds) func progressIsReportedTableByTable(_ kind: StoreKind) throws {
        let filled = try Self.filledVersion1Store(kind)
        defer { withExtendedLifetime(filled) {} }
        let reports = Locked<[MigrationProgress]>([])
        let foundationProgress = Progress(totalUnitCount: 0)
        let container = try Self.open(filled.url, Self.version2) { description in
            description.migrationProgressHandler = { progress in reports.withLock { $0.append(progress) } }
            description.migrationProgress = foundationProgress
        }
        #expect(foundationProgress.totalUnitCount == 12 && foundationProgress.completedUnitCount == 12)
        container.persistentStoreCoordinator.removePersistentStore()
        let seen = reports.withLock { $0 }
        // 2 authors, 3 books, 2 tags, a note, 4 tag pairs: 12 rows; the note's table is not copied.
        #expect(seen.map(\.totalRows).allSatisfy { $0 == 12 })
        #expect(
            seen.map(\.step) == [
                "version 1 → 2: Author", "version 1 → 2: Book", "version 1 → 2: Label", "version 1 → 2: Book.labels", "done"
            ])
        #expect(seen.map(\.completedRows) == [2, 5, 7, 11, 12])
        #expect(seen.last?.fractionCompleted == 1)
        #expect(seen.last?.description == "100% (12 of 12 rows) done")
    }
}

extension InferredMigrationTests {
    @Test func aBackupOfTheOlderStoreCanBeMadeFirst() throws {
        let filled = try Self.filledVersion1Store()
        defer { withExtendedLifetime(filled) {} }
        let container = try Self.open(filled.url, Self.version2) { $0.backsUpStoreBeforeMigrating = true }
        container.persistentStoreCoordinator.removePersistentStore()
        let backup = filled.directory.appendingPathComponent("Shelf.before-migration-v1.sqlite")
        #expect(try PersistentStoreCoordinator.metadataForPersistentStore(at: backup).modelVersion == 1)
        let old = try Self.open(backup, Self.version1)
        defer { old.persistentStoreCoordinator.removePersistentStore() }
        #expect(try Self.count("Note", in: old) == 1)
        #expect(try Self.count("Book", in: old) == 3)
    }
}

extension InferredMigrationTests {
    /// A test's way to start from a store an older release wrote: an in-memory store seeded from
    /// the file, migrated in the copy it reads; the file is left as it is.
    @Test func aVersion1FileLoadsIntoAnInMemoryStoreWithVersion2() throws {
        let filled = try Self.filledVersion1Store()
        defer { withExtendedLifetime(filled) {} }
        let before = try Data(contentsOf: filled.url)
        let container = PersistentContainer(name: "Shelf", managedObjectModel: try ModelFixtures.load(Self.version2))
        var description = PersistentStoreDescription.inMemory
        description.url = filled.url
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let metadata = try MigrationStore.metadata(filled.url)
        #expect(container.persistentStoreCoordinator.persistentStoreIdentifier == metadata.storeIdentifier)
        #expect(metadata.modelVersion == 1)
        #expect(try Data(contentsOf: filled.url) == before)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            #expect(try context.objects("Author").count == 2)
            let kindred = try #require(try context.objects("Book", where: "title == 'Kindred'").first)
            #expect(kindred.objectID.primaryKey == filled.bookKeys[0])
            #expect(try (kindred.value(forKey: "author") as? ManagedObject)?.get("fullName", as: String.self) == "Octavia")
            let labels = try #require(try kindred.value(forKey: "labels") as? Set<ManagedObject>)
            #expect(Set(labels.map { $0.objectID.primaryKey! }) == Set(filled.tagKeys))
            #expect(try context.objects("Book", where: "ANY labels.label == 'classic'").count == 2)
            // It is an ordinary in-memory store from here on.
            let added = try context.insertNewObject(forEntityName: "Author")
            try added.setValue("Jemisin", forKey: "fullName")
            try context.save()
            #expect(!filled.authorKeys.contains(added.objectID.primaryKey!))
        }
    }
}

extension InferredMigrationTests {
    /// A change that moves no data (a transient attribute, a `versionHashModifier`, a widening
    /// within SQLite's INTEGER) migrates by recording the new model only: no table is rebuilt.
    @Test(arguments: MigrationStore.kinds) func aChangeThatKeepsStorageOnlyRecordsTheNewModel(_ kind: StoreKind) throws {
        let filled = try Self.filledVersion1Store(kind)
        defer { withExtendedLifetime(filled) {} }
        let version2 = Self.version1
            .replacingOccurrences(of: #""version": 1"#, with: #""version": 2"#)
            .replacingOccurrences(
                of: #"{ "name": "rating", "type": "integer16", "default": 0 } ],"#,
                with:
                    #"{ "name": "rating", "type": "integer32", "default": 0 }, { "name": "draft", "type": "string", "optional": true, "transient": true } ],"#
            )
            .replacingOccurrences(of: #"{ "name": "Note","#, with: #"{ "name": "Note", "versionHashModifier": "texts are Markdown now","#)
        let model = try ModelFixtures.load(version2)
        let plan = try #require(try MigrationStore.plan(filled.url, to: model))
        #expect(plan.split(separator: "\n").dropFirst().allSatisfy { $0.hasPrefix(#"UPDATE "_objectgraph_metadata""#) }, "\(plan)")
        let container = try Self.open(filled.url, version2)
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        #expect(try Self.count("Book", in: container) == 3)
        #expect(try Self.count("Note", in: container) == 1)
        #expect(try MigrationStore.metadata(filled.url).modelVersion == 2)
    }
}

extension InferredMigrationTests {
    /// New optional attributes, new entities and relationships, new indexes and a removed entity
    /// are made with `ALTER TABLE`, `CREATE` and `DROP`: no table is rebuilt, no row rewritten.
    @Test(arguments: MigrationStore.kinds) func whatTheDatabaseCanAlterIsNotRebuilt(_ kind: StoreKind) throws {
        let filled = try Self.filledVersion1Store(kind)
        defer { withExtendedLifetime(filled) {} }
        let version2 = Self.version1
            .replacingOccurrences(of: #""version": 1"#, with: #""version": 2"#)
            .replacingOccurrences(
                of: #"{ "name": "title", "type": "string" },"#,
                with:
                    #"{ "name": "title", "type": "string", "indexed": true }, { "name": "subtitle", "type": "string", "optional": true },"#
            )
            .replacingOccurrences(
                of: #"{ "name": "tags", "destination": "Tag", "toMany": true, "inverse": "books" } ] },"#,
                with:
                    #"{ "name": "tags", "destination": "Tag", "toMany": true, "inverse": "books" }, { "name": "publisher", "destination": "Publisher", "inverse": "books" } ] },"#
            )
            .replacingOccurrences(
                of: #"{ "name": "Note", "attributes": [ { "name": "text", "type": "string" } ] }"#,
                with:
                    #"{ "name": "Publisher", "attributes": [ { "name": "name", "type": "string" } ], "relationships": [ { "name": "books", "destination": "Book", "toMany": true, "inverse": "publisher" } ] }"#
            )
        let model = try ModelFixtures.load(version2)
        let plan = try #require(try MigrationStore.plan(filled.url, to: model))
        #expect(!plan.contains("_og_old_"), "\(plan)")
        let (text, integer) = kind == .postgreSQL ? (#"text COLLATE "C""#, "bigint") : ("TEXT", "INTEGER")
        #expect(plan.contains(#"ALTER TABLE "Book" ADD COLUMN "subtitle" \#(text);"#))
        #expect(plan.contains(#"ALTER TABLE "Book" ADD COLUMN "publisher" \#(integer);"#))
        #expect(plan.contains(#"DROP TABLE "Note";"#))
        #expect(plan.contains(#"CREATE INDEX IF NOT EXISTS "Book_title_idx" ON "Book" ("title");"#))
        #expect(plan.contains(#"CREATE TABLE IF NOT EXISTS "Publisher""#))

        let container = try Self.open(filled.url, version2)
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            #expect(try context.objects("Book").count == 3)
            let kindred = try #require(try context.objects("Book", where: "title == 'Kindred'").first)
            #expect(kindred.objectID.primaryKey == filled.bookKeys[0])
            #expect(try kindred.get("subtitle", as: String.self) == nil)
            #expect(try (kindred.value(forKey: "author") as? ManagedObject)?.objectID.primaryKey == filled.authorKeys[0])
            #expect((try kindred.value(forKey: "tags") as? Set<ManagedObject>)?.count == 2)
            let press = try context.insertNewObject(forEntityName: "Publisher")
            try press.setValue("Beacon", forKey: "name")
            try kindred.setValue(press, forKey: "publisher")
            try kindred.setValue("A Novel", forKey: "subtitle")
            try context.save()
        }
        #expect(try Self.count("Publisher", in: container) == 1)
        #expect(try MigrationStore.metadata(filled.url).modelVersion == 2)
    }
}
