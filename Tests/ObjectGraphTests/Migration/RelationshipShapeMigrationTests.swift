import Foundation
import Testing

@testable import ObjectGraph

/// Relationships that change shape: a to-one becoming a to-many (so a one-to-many becomes a
/// many-to-many, kept in a join table), with every pair carried across; and the changes that
/// would drop objects, refused.
@Suite struct RelationshipShapeMigrationTests {
    static let version1 = """
        { "name": "Press", "version": 1, "entities": [
          { "name": "Author", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [ { "name": "books", "destination": "Book", "toMany": true, "inverse": "author" } ] },
          { "name": "Book", "attributes": [ { "name": "title", "type": "string" } ],
            "relationships": [ { "name": "author", "destination": "Author", "inverse": "books" },
                               { "name": "editor", "destination": "Author", "inverse": null } ] }
        ] }
        """
    static let version2 = """
        { "name": "Press", "version": 2, "entities": [
          { "name": "Author", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [ { "name": "books", "destination": "Book", "toMany": true, "inverse": "authors" } ] },
          { "name": "Book", "attributes": [ { "name": "title", "type": "string" } ],
            "relationships": [ { "name": "authors", "destination": "Author", "toMany": true, "inverse": "books", "renamingIdentifier": "author" },
                               { "name": "editors", "destination": "Author", "toMany": true, "inverse": null, "renamingIdentifier": "editor" } ] }
        ] }
        """

    @Test(arguments: MigrationStore.kinds) func aToOneBecomesAToManyKeepingEveryPair(_ kind: StoreKind) throws {
        let store = try MigrationStore(kind, name: "Press")
        defer { withExtendedLifetime(store) {} }
        let url = store.url
        do {
            let container = try InferredMigrationTests.open(url, Self.version1)
            defer { container.persistentStoreCoordinator.removePersistentStore() }
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let le = try context.insertObject("Author", ["name": "Le Guin"])
                let butler = try context.insertObject("Author", ["name": "Butler"])
                _ = try context.insertObject("Book", ["title": "Earthsea", "author": le, "editor": butler])
                _ = try context.insertObject("Book", ["title": "Kindred", "author": butler])
                _ = try context.insertObject("Book", ["title": "Dawn", "author": butler, "editor": le])
                _ = try context.insertObject("Book", ["title": "Anonymous"])
                try context.save()
            }
        }
        let container = try InferredMigrationTests.open(url, Self.version2)
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            func names(_ book: String, _ key: String) throws -> [String] {
                let object = try #require(try context.objects("Book", where: "title == %@", arguments: [book]).first)
                let related = try #require(try object.value(forKey: key) as? Set<ManagedObject>)
                return try related.map { try $0.get("name", as: String.self) ?? "" }.sorted()
            }
            #expect(try names("Earthsea", "authors") == ["Le Guin"])
            #expect(try names("Kindred", "authors") == ["Butler"])
            #expect(try names("Anonymous", "authors") == [])
            #expect(try names("Earthsea", "editors") == ["Butler"])
            #expect(try names("Dawn", "editors") == ["Le Guin"])
            let butler = try #require(try context.objects("Author", where: "name == 'Butler'").first)
            let books = try #require(try butler.value(forKey: "books") as? Set<ManagedObject>)
            #expect(try books.map { try $0.get("title", as: String.self) ?? "" }.sorted() == ["Dawn", "Kindred"])
            #expect(try context.objects("Book", where: "ANY authors.name == 'Butler'").count == 2)
        }
    }

    @Test(arguments: MigrationStore.kinds) func aToManyBecomingAToOneIsRefused(_ kind: StoreKind) throws {
        let store = try MigrationStore(kind, name: "Press")
        defer { withExtendedLifetime(store) {} }
        let url = store.url
        try InferredMigrationTests.open(url, Self.version2).persistentStoreCoordinator.removePersistentStore()
        let backwards = Self.version1.replacingOccurrences(of: #""version": 1"#, with: #""version": 3"#)
            .replacingOccurrences(
                of: #"{ "name": "author", "destination": "Author", "inverse": "books" }"#,
                with: #"{ "name": "author", "destination": "Author", "inverse": "books", "renamingIdentifier": "authors" }"#)
        let error = try #require(throws: ObjectGraphError.self) { try InferredMigrationTests.open(url, backwards) }
        #expect(error.kind == .modelMismatch)
        #expect(
            error.issues.map(\.message).contains {
                $0.contains("Book.author changes from to-many to to-one, which would drop the objects past the first")
            }, "\(error.issues)")
    }
}

extension RelationshipShapeMigrationTests {
    /// A to-many becoming ordered starts in key order, and keeps the order it is given; becoming
    /// unordered again keeps every member.
    @Test(arguments: MigrationStore.kinds) func aToManyBecomesOrderedAndUnorderedAgain(_ kind: StoreKind) throws {
        let store = try MigrationStore(kind, name: "Press")
        defer { withExtendedLifetime(store) {} }
        let url = store.url
        let ordered = Self.version1.replacingOccurrences(of: #""version": 1"#, with: #""version": 2"#)
            .replacingOccurrences(
                of: #""toMany": true, "inverse": "author""#, with: #""toMany": true, "ordered": true, "inverse": "author""#)
        let unordered = Self.version1.replacingOccurrences(of: #""version": 1"#, with: #""version": 3"#)
        do {
            let container = try InferredMigrationTests.open(url, Self.version1)
            defer { container.persistentStoreCoordinator.removePersistentStore() }
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let author = try context.insertNewObject(forEntityName: "Author")
                try author.setValue("Le Guin", forKey: "name")
                for title in ["A", "B", "C"] {
                    let book = try context.insertNewObject(forEntityName: "Book")
                    try book.setValue(title, forKey: "title")
                    try book.setValue(author, forKey: "author")
                }
                try context.save()
            }
        }
        func titles(_ container: PersistentContainer) throws -> [String] {
            let context = container.newBackgroundContext()
            return try context.performAndWait {
                let author = try #require(try context.objects("Author").first)
                let books = try #require(try author.value(forKey: "books") as? [ManagedObject])
                return try books.map { try $0.get("title", as: String.self) ?? "" }
            }
        }
        do {
            let container = try InferredMigrationTests.open(url, ordered)
            defer { container.persistentStoreCoordinator.removePersistentStore() }
            #expect(try titles(container) == ["A", "B", "C"])
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let author = try #require(try context.objects("Author").first)
                let books = try #require(try author.value(forKey: "books") as? [ManagedObject])
                try author.setValue(Array(books.reversed()), forKey: "books")
                try context.save()
            }
        }
        do {
            let container = try InferredMigrationTests.open(url, ordered)
            defer { container.persistentStoreCoordinator.removePersistentStore() }
            #expect(try titles(container) == ["C", "B", "A"])
        }
        let container = try InferredMigrationTests.open(url, unordered)
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = try #require(try context.objects("Author").first)
            let books = try #require(try author.value(forKey: "books") as? Set<ManagedObject>)
            #expect(try books.map { try $0.get("title", as: String.self) ?? "" }.sorted() == ["A", "B", "C"])
        }
    }
}
