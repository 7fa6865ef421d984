import Foundation
import Testing

@testable import ObjectGraph

/// Predicates over to-one relationships and key paths through them, on every store alike, with
/// unsaved changes matched by the same rules.
@Suite struct RelationshipPredicateConformanceTests {
    /// Ann wrote Dune and Emma (two chapters each); Bob wrote Ulysses; "Anonymous" has no author.
    private func makeLibrary(_ kind: StoreKind) throws -> TestStore {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let ann = try context.insert("Author", ["name": "Ann"])
            let bob = try context.insert("Author", ["name": "Bob"])
            for (title, author) in [("Dune", ann), ("Emma", ann), ("Ulysses", bob)] {
                let book = try context.insert("Book", ["title": title, "author": author])
                for number in 1...2 { try context.insert("Chapter", ["title": "\(title) \(number)", "book": book]) }
            }
            try context.insert("Book", ["title": "Anonymous"])
            try context.save()
        }
        return store
    }

    private func titles(
        _ context: ManagedObjectContext, in entity: String = "Book", _ format: String, _ arguments: Any?...
    ) throws -> [String] {
        let request = FetchRequest<ManagedObject>(
            entityName: entity, predicate: try FetchPredicate(format: format, argumentArray: arguments.map { $0 as Any }))
        return try context.fetch(request).map { try $0.value(forKey: "title", as: String.self) ?? "" }.sorted()
    }

    @Test(arguments: StoreKind.allCases)
    func toOneComparisonsAndKeyPaths(kind: StoreKind) throws {
        let store = try makeLibrary(kind)
        try store.reopen()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let ann = try context.one("Author", "name", "Ann")
            let bob = try context.one("Author", "name", "Bob")
            #expect(try titles(context, "author == %@", ann) == ["Dune", "Emma"])
            #expect(try titles(context, "author == %@", bob.objectID) == ["Ulysses"])
            #expect(try titles(context, "author != %@", ann) == ["Anonymous", "Ulysses"])
            #expect(try titles(context, "author == nil") == ["Anonymous"])
            #expect(try titles(context, "author IN %@", [ann, bob]) == ["Dune", "Emma", "Ulysses"])
            #expect(try titles(context, "author.name == 'Ann'") == ["Dune", "Emma"])
            #expect(try titles(context, "author.name BEGINSWITH[c] 'b'") == ["Ulysses"])
            #expect(try titles(context, "author.name == nil") == ["Anonymous"])
            #expect(try titles(context, "NOT author.name == 'Ann'") == ["Anonymous", "Ulysses"])
            #expect(try titles(context, "author.name > 'A' AND title < 'E'") == ["Dune"])
            #expect(try titles(context, in: "Chapter", "book.author.name == 'Bob'") == ["Ulysses 1", "Ulysses 2"])
            #expect(try titles(context, in: "Chapter", "book.author == %@ AND title ENDSWITH '2'", ann) == ["Dune 2", "Emma 2"])
            #expect(
                try context.count(
                    for: FetchRequest<ManagedObject>(entityName: "Chapter", predicate: FetchPredicate(format: "book.author.name != 'Ann'")))
                    == 2)

            let wrongEntity = #expect(throws: ObjectGraphError.self) {
                try titles(context, "author == %@", try context.one("Chapter", "title", "Dune 1"))
            }
            #expect(wrongEntity?.kind == .typeMismatch)
            #expect(wrongEntity?.message.contains("Book.author holds Author objects, but the predicate compares it with Chapter/p") == true)
            let toMany = #expect(throws: ObjectGraphError.self) { try titles(context, "tags.name == 'x'") }
            #expect(toMany?.message.contains("Book.tags is a to-many relationship: compare its objects with ANY, ALL or NONE") == true)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func unsavedChangesMatchByTheirCurrentRelationships(kind: StoreKind) throws {
        let store = try makeLibrary(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let ann = try context.one("Author", "name", "Ann")
            let bob = try context.one("Author", "name", "Bob")
            let newcomer = try context.insert("Author", ["name": "Cy"])
            try context.insert("Book", ["title": "Draft", "author": ann])
            try context.insert("Book", ["title": "Debut", "author": newcomer])
            try context.one("Book", "title", "Emma").setValue(bob, forKey: "author")
            #expect(try titles(context, "author.name == 'Ann'") == ["Draft", "Dune"])
            #expect(try titles(context, "author == %@", bob) == ["Emma", "Ulysses"])
            #expect(try titles(context, "author == %@", newcomer) == ["Debut"])
            #expect(try titles(context, "author.name BEGINSWITH 'C'") == ["Debut"])
            try ann.setValue("Anne", forKey: "name")
            #expect(try titles(context, "author.name == 'Anne'") == ["Draft", "Dune"])
            try context.save()
            #expect(try titles(context, "author == %@", newcomer) == ["Debut"])
        }
        try store.withNewContext { (context: ManagedObjectContext) throws in
            #expect(try titles(context, "author.name == 'Anne'") == ["Draft", "Dune"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func keyPathsReachSubEntities(kind: StoreKind) throws {
        let store = try TestStore(kind, model: InheritanceModel.load)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let shelf = try context.insert("Shelf", ["label": "A"])
            let wired = try context.insert("Magazine", ["title": "Wired", "sku": "M1", "issue": 7, "shelf": shelf])
            let dune = try context.insert("Textbook", ["title": "Dune", "sku": "T1", "pages": 1, "subject": "x", "shelf": shelf])
            try context.insert("Reader", ["name": "Ann", "favorite": wired])
            try context.insert("Reader", ["name": "Bob", "favorite": dune])
            try context.save()
            let names = { (format: String) in
                try context.fetch(FetchRequest<ManagedObject>(entityName: "Reader", predicate: FetchPredicate(format: format)))
                    .map { try $0.value(forKey: "name", as: String.self) ?? "" }.sorted()
            }
            #expect(try names("favorite.title == 'Wired'") == ["Ann"])
            #expect(try names("favorite.shelf.label == 'A'") == ["Ann", "Bob"])
            #expect(
                try context.fetch(FetchRequest<ManagedObject>(entityName: "Item", predicate: FetchPredicate(format: "shelf == %@", shelf)))
                    .count == 2)
        }
    }

    /// Collection operators on a to-many of an object reached through to-ones: `author.books.@count`.
    @Test(arguments: StoreKind.allCases)
    func collectionOperatorsThroughToOnes(kind: StoreKind) throws {
        let store = try makeLibrary(kind)
        try store.reopen()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            #expect(try titles(context, "author.books.@count == 2") == ["Dune", "Emma"])
            #expect(try titles(context, "author.books.@count == 1") == ["Ulysses"])
            // No author: no books to count, on both stores.
            #expect(try titles(context, "author.books.@count == 0") == ["Anonymous"])
            #expect(try titles(context, in: "Chapter", "book.author.books.@count == 1") == ["Ulysses 1", "Ulysses 2"])
            #expect(
                try titles(context, in: "Chapter", "book.chapters.@count == 2 AND book.author.name == 'Bob'") == ["Ulysses 1", "Ulysses 2"])
            #expect(try titles(context, "author.books.@count > 1 AND title BEGINSWITH 'E'") == ["Emma"])

            // Unsaved changes count: Bob's new book makes him an author of two.
            let bob = try context.one("Author", "name", "Bob")
            try context.insert("Book", ["title": "Dubliners", "author": bob])
            #expect(try titles(context, "author.books.@count == 2") == ["Dubliners", "Dune", "Emma", "Ulysses"])

            let noOperator = #expect(throws: ObjectGraphError.self) { try titles(context, "author.books.title == 'x'") }
            #expect(
                noOperator?.message.contains("Author.books is a to-many relationship: compare its objects with ANY, ALL or NONE") == true)
        }
    }

    /// `SELF`: the object itself, compared with objects and object IDs like a to-one relationship
    /// (`SELF == %@`, `SELF IN %@`), `SELF.title` as `title`, and `ANY books == %@` on a member.
    @Test(arguments: StoreKind.allCases)
    func selfIsTheObjectItself(kind: StoreKind) throws {
        let store = try makeLibrary(kind)
        try store.reopen()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let dune = try context.one("Book", "title", "Dune")
            let emma = try context.one("Book", "title", "Emma")
            #expect(try titles(context, "SELF == %@", dune) == ["Dune"])
            #expect(try titles(context, "self == %@", emma.objectID) == ["Emma"])
            #expect(try titles(context, "SELF != %@", dune) == ["Anonymous", "Emma", "Ulysses"])
            #expect(try titles(context, "SELF IN %@", [dune, emma]) == ["Dune", "Emma"])
            #expect(try titles(context, "NOT (SELF IN %@) AND author != nil", [dune.objectID]) == ["Emma", "Ulysses"])
            #expect(try titles(context, "SELF == nil").isEmpty)
            #expect(try titles(context, "SELF.title BEGINSWITH 'U'") == ["Ulysses"])
            #expect(try titles(context, in: "Chapter", "book == %@ AND SELF.book.author.name == 'Ann'", emma) == ["Emma 1", "Emma 2"])
            let authors = try context.fetch(
                FetchRequest<ManagedObject>(entityName: "Author", predicate: FetchPredicate(format: "ANY books == %@", emma)))
            #expect(try authors.map { try $0.value(forKey: "name", as: String.self) } == ["Ann"])
            #expect(
                try context.count(
                    for: FetchRequest<ManagedObject>(entityName: "Author", predicate: FetchPredicate(format: "NONE books == %@", emma)))
                    == 1)
            // Inside a SUBQUERY, its variable alone is each member, as SELF is.
            let withEmma = try context.fetch(
                FetchRequest<ManagedObject>(
                    entityName: "Author", predicate: FetchPredicate(format: "SUBQUERY(books, $b, $b == %@).@count > 0", emma)))
            #expect(try withEmma.map { try $0.value(forKey: "name", as: String.self) } == ["Ann"])
            let ulysses = try context.one("Book", "title", "Ulysses")
            let others = try context.fetch(
                FetchRequest<ManagedObject>(
                    entityName: "Author",
                    predicate: FetchPredicate(format: "SUBQUERY(books, $b, $b != %@ AND $b.title != nil).@count == 2", ulysses)))
            #expect(try others.map { try $0.value(forKey: "name", as: String.self) } == ["Ann"])
            // NSPredicate's other spelling of ANY: the collection holds the value.
            let holders = try context.fetch(
                FetchRequest<ManagedObject>(entityName: "Author", predicate: FetchPredicate(format: "%@ IN books", emma)))
            #expect(try holders.map { try $0.value(forKey: "name", as: String.self) } == ["Ann"])
            #expect(try titles(context, "'Ulysses 2' IN chapters.title") == ["Ulysses"])
            #expect(try FetchPredicate(format: "%@ IN books", emma).description.hasPrefix("ANY books == <x-objectgraph://"))
            let notACollection = #expect(throws: ObjectGraphError.self) { try titles(context, "'Dune' IN title") }
            #expect(notACollection?.message.contains("ANY needs a comparison whose key path starts with a to-many relationship") == true)

            // An unsaved object is matched among the pending changes; the store has no row for it.
            let draft = try context.insert("Book", ["title": "Draft"])
            #expect(try titles(context, "SELF == %@ OR SELF == %@", draft, dune) == ["Draft", "Dune"])

            let description = try FetchPredicate(format: "SELF IN %@ AND SELF.title != 'x'", [dune]).description
            #expect(description.hasPrefix("SELF IN {<x-objectgraph://"))
            #expect(description.hasSuffix(">} AND title != \"x\""))

            let wrongEntity = #expect(throws: ObjectGraphError.self) {
                try titles(context, "SELF == %@", try context.one("Author", "name", "Bob"))
            }
            #expect(wrongEntity?.kind == .typeMismatch)
            #expect(wrongEntity?.message.contains("SELF is a Book, but the predicate compares it with Author/p") == true)
            let ordering = #expect(throws: ObjectGraphError.self) { try titles(context, "SELF > %@", dune) }
            #expect(
                ordering?.message.contains(
                    "SELF is the Book itself; it can only be compared with == or != (or IN) to an object, an object ID or nil, not with >")
                    == true)
            let text = #expect(throws: ObjectGraphError.self) { try titles(context, "SELF == 'Dune'") }
            #expect(
                text?.message.contains("SELF is the Book itself; compare it with an object, an object ID or nil, not the string \"Dune\"")
                    == true)
        }
    }
}

/// Predicates over to-many relationships: ANY/ALL/NONE and collection operators, on every store.
@Suite struct ToManyPredicateConformanceTests {
    /// Dune: tags scifi, classic; 3 chapters. Emma: tag classic; 1 chapter. Ulysses: no tags; 2 chapters.
    private func makeLibrary(_ kind: StoreKind) throws -> TestStore {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let scifi = try context.insert("Tag", ["name": "scifi"])
            let classic = try context.insert("Tag", ["name": "classic"])
            for (title, tags, chapters) in [("Dune", [scifi, classic], 3), ("Emma", [classic], 1), ("Ulysses", [], 2)] {
                let book = try context.insert("Book", ["title": title])
                try book.addRelatedObjects(tags, forKey: "tags")
                for number in 1...chapters { try context.insert("Chapter", ["title": "\(title) \(number)", "book": book]) }
            }
            try context.save()
        }
        return store
    }

    private func titles(_ context: ManagedObjectContext, _ format: String, _ arguments: Any?...) throws -> [String] {
        let request = FetchRequest<ManagedObject>(
            entityName: "Book", predicate: try FetchPredicate(format: format, argumentArray: arguments.map { $0 as Any }))
        return try context.fetch(request).map { try $0.value(forKey: "title", as: String.self) ?? "" }.sorted()
    }

    @Test(arguments: StoreKind.allCases)
    func quantifiersAndCollectionOperators(kind: StoreKind) throws {
        let store = try makeLibrary(kind)
        try store.reopen()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            #expect(try titles(context, "ANY tags.name == 'classic'") == ["Dune", "Emma"])
            #expect(try titles(context, "SOME tags.name BEGINSWITH[c] 'SCI'") == ["Dune"])
            #expect(try titles(context, "ALL tags.name == 'classic'") == ["Emma", "Ulysses"])
            #expect(try titles(context, "NONE tags.name == 'scifi'") == ["Emma", "Ulysses"])
            #expect(try titles(context, "ANY chapters.title ENDSWITH '3'") == ["Dune"])
            #expect(try titles(context, "tags.@count == 0") == ["Ulysses"])
            #expect(try titles(context, "chapters.@count >= 2") == ["Dune", "Ulysses"])
            #expect(try titles(context, "chapters.@count BETWEEN {1, 2}") == ["Emma", "Ulysses"])
            #expect(try titles(context, "NOT (ANY tags.name == 'classic') AND chapters.@count > 1") == ["Ulysses"])
            let tags = try context.fetch(
                FetchRequest<ManagedObject>(entityName: "Tag", predicate: FetchPredicate(format: "ANY books.chapters.@count > 2")))
            _ = tags
        }
    }

    @Test(arguments: StoreKind.allCases)
    func unsavedChangesCountToo(kind: StoreKind) throws {
        let store = try makeLibrary(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let emma = try context.one("Book", "title", "Emma")
            let scifi = try context.one("Tag", "name", "scifi")
            try emma.addRelatedObject(scifi, forKey: "tags")
            try context.insert("Chapter", ["title": "Ulysses 3", "book": try context.one("Book", "title", "Ulysses")])
            #expect(try titles(context, "ANY tags.name == 'scifi'") == ["Dune", "Emma"])
            #expect(try titles(context, "chapters.@count == 3") == ["Dune", "Ulysses"])
            try scifi.setValue("space", forKey: "name")
            #expect(try titles(context, "ANY tags.name == 'space'") == ["Dune", "Emma"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func misuseIsAnError(kind: StoreKind) throws {
        let store = try makeLibrary(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let bare = #expect(throws: ObjectGraphError.self) { try titles(context, "tags.name == 'x'") }
            #expect(
                bare?.message
                    == "Book.tags is a to-many relationship: compare its objects with ANY, ALL or NONE (ANY tags.name …), or use tags.@count, @sum, @avg, @min or @max"
            )
            let notMany = #expect(throws: ObjectGraphError.self) { try titles(context, "ANY title == 'x'") }
            #expect(notMany?.message.contains("ANY needs a comparison whose key path starts with a to-many relationship") == true)
            let sumOfText = #expect(throws: ObjectGraphError.self) { try titles(context, "chapters.@sum.title > 1") }
            #expect(sumOfText?.message == "Book: @sum cannot aggregate Chapter.title, a string attribute")
            let countType = #expect(throws: ObjectGraphError.self) { try titles(context, "tags.@count == 'two'") }
            #expect(countType?.kind == .typeMismatch)
        }
    }
}

/// `SUBQUERY(collection, $x, predicate).@count`, on every store alike.
@Suite struct SubqueryConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func subqueriesCountMatchingMembers(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            for (title, chapters) in [("Dune", ["one", "two", "three"]), ("Emma", ["alpha"]), ("Ulysses", [])] {
                let book = try context.insert("Book", ["title": title])
                for chapter in chapters { try context.insert("Chapter", ["title": chapter, "book": book]) }
            }
            try context.save()
            func titles(_ format: String) throws -> [String] {
                try context.fetch(FetchRequest<ManagedObject>(entityName: "Book", predicate: FetchPredicate(format: format)))
                    .map { try $0.value(forKey: "title", as: String.self) ?? "" }.sorted()
            }
            #expect(try titles("SUBQUERY(chapters, $c, $c.title CONTAINS 'o').@count >= 2") == ["Dune"])
            #expect(try titles("SUBQUERY(chapters, $c, $c.title BEGINSWITH 'a' OR $c.title == 'one').@count == 1") == ["Dune", "Emma"])
            #expect(try titles("SUBQUERY(chapters, $c, $c.title == 'zzz').@count == 0") == ["Dune", "Emma", "Ulysses"])
            #expect(try titles("0 < SUBQUERY(chapters, $c, TRUEPREDICATE).@count") == ["Dune", "Emma"])
            let predicate = try FetchPredicate(format: "SUBQUERY(chapters, $c, $c.title == 'x').@count > 1")
            #expect(predicate.description == #"SUBQUERY(chapters, $c, $c.title == "x").@count > 1"#)
            let outside = #expect(throws: ObjectGraphError.self) { try titles("SUBQUERY(chapters, $c, title == 'x').@count > 0") }
            #expect(outside?.message == "inside a SUBQUERY, key paths start with its variable ($c.…), but 'title' does not")
            let notToMany = #expect(throws: ObjectGraphError.self) { try titles("SUBQUERY(author, $a, $a.name == 'x').@count > 0") }
            #expect(notToMany?.message == "Book: SUBQUERY goes through 'author', which is not a to-many relationship of Book")
            let noCount = #expect(throws: ObjectGraphError.self) {
                try FetchPredicate(format: "SUBQUERY(chapters, $c, $c.title == 'x') > 0")
            }
            #expect(noCount?.message.contains("expected '.@count' after the SUBQUERY") == true)
        }
    }
}
