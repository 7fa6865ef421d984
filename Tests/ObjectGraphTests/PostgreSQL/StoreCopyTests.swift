import Foundation
import Testing

@testable import ObjectGraph

/// Copying a store into a new store of another kind (`StoreCopy`, the `objectgraph copy`
/// command): SQLite → PostgreSQL → SQLite keeps every value, key, relationship, order and the
/// store identifier.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable)) struct StoreCopyTests {
    static let json = """
        { "name": "Archive", "version": 3, "entities": [
          { "name": "Media", "attributes": [
              { "name": "title", "type": "string" },
              { "name": "year", "type": "integer16", "optional": true },
              { "name": "views", "type": "integer64", "default": 0 },
              { "name": "score", "type": "double", "optional": true },
              { "name": "ratio", "type": "float", "optional": true },
              { "name": "price", "type": "decimal", "optional": true },
              { "name": "isPublic", "type": "boolean", "default": false },
              { "name": "added", "type": "date", "optional": true },
              { "name": "cover", "type": "binary", "optional": true },
              { "name": "code", "type": "uuid", "optional": true },
              { "name": "link", "type": "uri", "optional": true } ],
            "relationships": [
              { "name": "owner", "destination": "Person", "inverse": "media" },
              { "name": "tags", "destination": "Tag", "toMany": true, "inverse": "media" },
              { "name": "parts", "destination": "Part", "toMany": true, "ordered": true, "inverse": "media", "deleteRule": "cascade" } ] },
          { "name": "Film", "parent": "Media", "attributes": [ { "name": "minutes", "type": "integer32", "default": 0 } ] },
          { "name": "Person", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [
              { "name": "media", "destination": "Media", "toMany": true, "inverse": "owner" },
              { "name": "favourites", "destination": "Media", "toMany": true, "ordered": true, "inverse": null } ] },
          { "name": "Tag", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [ { "name": "media", "destination": "Media", "toMany": true, "inverse": "tags" } ] },
          { "name": "Part", "attributes": [ { "name": "number", "type": "integer32" } ],
            "relationships": [ { "name": "media", "destination": "Media", "inverse": "parts" } ] }
        ] }
        """

    /// Fills the store at `url` with media, a film, people, tags and ordered parts.
    static func fill(_ url: URL, model: ManagedObjectModel) throws {
        let container = PersistentContainer(name: "Archive", managedObjectModel: model)
        container.persistentStoreDescriptions = [MigrationStore.description(url)]
        try container.loadPersistentStores()
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let ada = try context.insertObject("Person", ["name": "Ada"])
            let bob = try context.insertObject("Person", ["name": "Bob"])
            let rare = try context.insertObject("Tag", ["name": "rare"]), old = try context.insertObject("Tag", ["name": "old"])
            let book = try context.insertObject(
                "Media",
                [
                    "title": "Notes", "year": 1843, "views": Int64(1) << 40, "score": 4.25, "ratio": Float(0.5),
                    "price": Decimal(string: "12.34"), "isPublic": true, "added": Date(timeIntervalSinceReferenceDate: 1_000.125),
                    "cover": Data([0, 1, 2, 255]), "code": UUID(), "link": URL(string: "https://example.org/notes"), "owner": ada
                ])
            let film = try context.insertObject("Film", ["title": "Metropolis", "minutes": 153, "owner": bob])
            let empty = try context.insertObject("Media", ["title": "Untitled"])
            try book.setValue(Set([rare, old]), forKey: "tags")
            try film.setValue(Set([old]), forKey: "tags")
            try book.setValue(try [3, 1, 2].map { try context.insertObject("Part", ["number": $0]) }, forKey: "parts")
            try ada.setValue([film, empty, book], forKey: "favourites")
            try context.save()
        }
    }

    /// Every object of the store at `url` as lines of text: each row's entity, key and values
    /// (references as entity and key), and each to-many's destinations in order (unordered ones
    /// by key); plus the store identifier.
    static func contents(_ url: URL, model: ManagedObjectModel) throws -> [String] {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(with: MigrationStore.description(url))
        defer { coordinator.removePersistentStore() }
        let store = try coordinator.requireStore()
        var lines = ["store \(store.identifier)"]
        func text(_ value: AttributeValue) -> String {
            if case .object(let id) = value { return "\(id.entity.name)#\(id.primaryKey ?? -1)" }
            return "\(value)"
        }
        for entity in model.entities {
            var request = StoreFetchRequest(entity: entity)
            request.includesSubentities = false
            let rows = try store.fetch(request).sorted { $0.primaryKey < $1.primaryKey }
            lines += rows.map { "\(entity.name)#\($0.primaryKey): \($0.values.map(text).joined(separator: ", "))" }
            for relationship in entity.ownRelationships where relationship.isToMany {
                let related = try store.relatedObjectIDs(of: relationship, in: entity, sources: rows.map(\.primaryKey))
                for row in rows {
                    var keys = (related[row.primaryKey] ?? []).map { $0.primaryKey ?? -1 }
                    if !relationship.isOrdered { keys.sort() }
                    lines.append("\(entity.name)#\(row.primaryKey).\(relationship.name) → \(keys)")
                }
            }
        }
        return lines
    }

    @Test func aStoreGoesToPostgreSQLAndBackWithEveryValueKeyAndRelationship() throws {
        let model = try ModelFixtures.load(Self.json)
        let original = try MigrationStore(.sqlite, name: "Original")
        let database = try MigrationStore(.postgreSQL, name: "Archive")
        let back = try MigrationStore(.sqlite, name: "Back")
        defer { withExtendedLifetime([original, database, back]) {} }
        try Self.fill(original.url, model: model)

        let steps = Locked<[String]>([])
        // Two rows a page: every entity and every membership takes several pages.
        let there = try StoreCopy.copy(
            from: MigrationStore.description(original.url), to: MigrationStore.description(database.url), model: model,
            rowsPerPage: 2, progress: { step in steps.withLock { $0.append(step) } })
        #expect(there.objects == 10 && there.keptIdentifier)
        #expect(steps.withLock { $0 }.contains("copied 10 objects (Part)"))
        #expect(steps.withLock { $0 }.last == "copied Tag.media of 2 objects")
        let returned = try StoreCopy.copy(
            from: MigrationStore.description(database.url), to: MigrationStore.description(back.url), model: model)
        #expect(returned.objects == 10 && returned.keptIdentifier)

        let expected = try Self.contents(original.url, model: model)
        #expect(expected.count > 20)
        #expect(try Self.contents(database.url, model: model) == expected)
        #expect(try Self.contents(back.url, model: model) == expected)
        #expect(expected.contains { $0.hasPrefix("Person#1.favourites → [") })

        // New objects in the copy get keys the original never handed out.
        let container = PersistentContainer(name: "Archive", managedObjectModel: model)
        container.persistentStoreDescriptions = [MigrationStore.description(database.url)]
        try container.loadPersistentStores()
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let tag = try context.insertNewObject(forEntityName: "Tag")
            try tag.setValue("new", forKey: "name")
            try context.save()
            #expect(tag.objectID.primaryKey == 3)
        }
    }

    /// One transaction: a row the destination refuses, pages after the first, leaves it empty.
    @Test func aCopyRefusedPartWayWritesNothing() throws {
        let model = try ModelFixtures.load(Self.json)
        let original = try MigrationStore(.sqlite, name: "Original")
        let database = try MigrationStore(.postgreSQL, name: "Archive")
        defer { withExtendedLifetime([original, database]) {} }
        try Self.fill(original.url, model: model)
        let container = PersistentContainer(name: "Archive", managedObjectModel: model)
        container.persistentStoreDescriptions = [MigrationStore.description(original.url)]
        try container.loadPersistentStores()
        let context = container.newBackgroundContext()
        // The third tag: on the second page of tags, after every page of media and people.
        let refused = try context.performAndWait {
            let tag = try context.insertObject("Tag", ["name": "nul\u{0}inside"])
            try context.save()
            return tag.objectID
        }
        container.persistentStoreCoordinator.removePersistentStore()

        let error = try #require(throws: ObjectGraphError.self) {
            try StoreCopy.copy(
                from: MigrationStore.description(original.url), to: MigrationStore.description(database.url), model: model,
                rowsPerPage: 2)
        }
        #expect(error.message.contains("NUL"), "\(error.message)")
        #expect(error.objectID?.primaryKey == refused.primaryKey && error.entityName == "Tag", "\(error)")
        let written = try Self.contents(database.url, model: model)
        #expect(written.count == 1 && written[0].hasPrefix("store "), "\(written)")
    }

    @Test func aDestinationHoldingObjectsIsRefusedAndUnchanged() throws {
        let model = try ModelFixtures.load(Self.json)
        let original = try MigrationStore(.sqlite, name: "Original")
        let database = try MigrationStore(.postgreSQL, name: "Archive")
        defer { withExtendedLifetime([original, database]) {} }
        try Self.fill(original.url, model: model)
        try Self.fill(database.url, model: model)
        let before = try Self.contents(database.url, model: model)
        let error = try #require(throws: ObjectGraphError.self) {
            try StoreCopy.copy(from: MigrationStore.description(original.url), to: MigrationStore.description(database.url), model: model)
        }
        #expect(error.kind == .invalidOperation)
        #expect(error.message.contains("Cannot copy into a store that holds objects (3 Media objects already)"), "\(error.message)")
        #expect(try Self.contents(database.url, model: model) == before)
    }
}
