import Foundation
import Testing

@testable import ObjectGraph

/// Relationships of every kind keep both sides consistent in memory at once, survive a save and
/// (for SQLite) reopening the store, on every store alike.
@Suite struct RelationshipConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func settingAToOneMovesTheObjectBetweenInverseSets(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let ann = try context.insert("Author", ["name": "Ann"])
            let bob = try context.insert("Author", ["name": "Bob"])
            let book = try context.insert("Book", ["title": "Dune"])
            try book.setValue(ann, forKey: "author")
            #expect(try ann.names("books", "title") == ["Dune"])
            try book.setValue(bob, forKey: "author")
            #expect(try ann.relatedObjects(forKey: "books").isEmpty)
            #expect(try bob.names("books", "title") == ["Dune"])
            #expect(try book.value(forKey: "author") as? ManagedObject === bob)
            try context.save()
            // Moving a saved book between saved authors, with their sets not loaded yet.
            let fresh = store.newContext()
            try fresh.performAndWait {
                let book = try fresh.one("Book", "title", "Dune")
                let ann = try fresh.one("Author", "name", "Ann")
                try book.setValue(ann, forKey: "author")
                #expect(try ann.names("books", "title") == ["Dune"])
                #expect(try fresh.one("Author", "name", "Bob").relatedObjects(forKey: "books").isEmpty)
                try fresh.save()
            }
        }
        try store.reopen()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            #expect(try context.one("Author", "name", "Ann").names("books", "title") == ["Dune"])
            #expect(try context.one("Author", "name", "Bob").relatedObjects(forKey: "books").isEmpty)
            #expect(try context.one("Book", "title", "Dune").relatedName("author") == "Ann")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func addingToAToManySetsTheInverseToOne(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let ann = try context.insert("Author", ["name": "Ann"])
            let bob = try context.insert("Author", ["name": "Bob"])
            let books = try (1...3).map { try context.insert("Book", ["title": "B\($0)"]) }
            try ann.addRelatedObjects(books, forKey: "books")
            #expect(try books.allSatisfy { try $0.relatedObject(forKey: "author") === ann })
            try bob.addRelatedObject(books[0], forKey: "books")
            #expect(try ann.names("books", "title") == ["B2", "B3"])
            #expect(try books[0].relatedName("author") == "Bob")
            try ann.removeRelatedObject(books[1], forKey: "books")
            #expect(try books[1].relatedObject(forKey: "author") == nil)
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            #expect(try context.one("Author", "name", "Ann").names("books", "title") == ["B3"])
            #expect(try context.one("Author", "name", "Bob").names("books", "title") == ["B1"])
            #expect(try context.one("Book", "title", "B2").relatedObject(forKey: "author") == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func manyToManyKeepsBothSetsAndSurvivesReopening(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let dune = try context.insert("Book", ["title": "Dune"])
            let emma = try context.insert("Book", ["title": "Emma"])
            let classic = try context.insert("Tag", ["name": "classic"])
            let scifi = try context.insert("Tag", ["name": "scifi"])
            try dune.addRelatedObjects([scifi, classic], forKey: "tags")
            try classic.addRelatedObject(emma, forKey: "books")
            #expect(try classic.names("books", "title") == ["Dune", "Emma"])
            #expect(try emma.orderedNames("tags", "name") == ["classic"])
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let dune = try context.one("Book", "title", "Dune")
            #expect(try dune.orderedNames("tags", "name") == ["scifi", "classic"])
            let classic = try context.one("Tag", "name", "classic")
            #expect(try classic.names("books", "title") == ["Dune", "Emma"])
            try classic.removeRelatedObject(dune, forKey: "books")
            #expect(try dune.orderedNames("tags", "name") == ["scifi"])
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            #expect(try context.one("Book", "title", "Dune").orderedNames("tags", "name") == ["scifi"])
            #expect(try context.one("Tag", "name", "classic").names("books", "title") == ["Emma"])
            #expect(try context.one("Tag", "name", "scifi").names("books", "title") == ["Dune"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func orderedToManyKeepsItsOrder(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let book = try context.insert("Book", ["title": "Dune"])
            for title in ["one", "two", "three"] {
                try book.addRelatedObject(try context.insert("Chapter", ["title": title]), forKey: "chapters")
            }
            try book.insertRelatedObject(try context.insert("Chapter", ["title": "zero"]), at: 0, forKey: "chapters")
            #expect(try book.orderedNames("chapters") == ["zero", "one", "two", "three"])
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let book = try context.one("Book", "title", "Dune")
            #expect(try book.orderedNames("chapters") == ["zero", "one", "two", "three"])
            let three = try context.one("Chapter", "title", "three")
            try book.insertRelatedObject(three, at: 1, forKey: "chapters")
            let zero = try context.one("Chapter", "title", "zero")
            try book.removeRelatedObject(zero, forKey: "chapters")
            #expect(try book.orderedNames("chapters") == ["three", "one", "two"])
            // Chapter.book is required: a chapter taken out of its book cannot be saved alone.
            let error = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(error?.kind == .validation)
            #expect(error?.message.contains("Chapter/p4, book: a Book is required") == true)
            context.delete(zero)
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let book = try context.one("Book", "title", "Dune")
            #expect(try book.orderedNames("chapters") == ["three", "one", "two"])
            // setValue with an array replaces the members and their order.
            let chapters = try book.orderedRelatedObjects(forKey: "chapters")
            try book.setValue([chapters[2], chapters[0]], forKey: "chapters")
            #expect(try chapters[1].relatedObject(forKey: "book") == nil)
            context.delete(chapters[1])
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            #expect(try context.one("Book", "title", "Dune").orderedNames("chapters") == ["two", "three"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func reflexiveSymmetricAndOneWayRelationships(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let boss = try context.insert("Employee", ["name": "Boss"])
            let ann = try context.insert("Employee", ["name": "Ann"])
            let bob = try context.insert("Employee", ["name": "Bob"])
            try ann.setValue(boss, forKey: "manager")
            try boss.addRelatedObject(bob, forKey: "reports")
            #expect(try boss.names("reports") == ["Ann", "Bob"])
            #expect(try bob.relatedName("manager") == "Boss")
            try ann.addRelatedObject(bob, forKey: "friends")
            #expect(try bob.names("friends") == ["Ann"])
            try bob.setValue(boss, forKey: "mentor")
            #expect(try boss.relatedObject(forKey: "manager") == nil)
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let boss = try context.one("Employee", "name", "Boss")
            let ann = try context.one("Employee", "name", "Ann")
            let bob = try context.one("Employee", "name", "Bob")
            #expect(try boss.names("reports") == ["Ann", "Bob"])
            #expect(try ann.relatedName("manager") == "Boss")
            #expect(try ann.names("friends") == ["Bob"])
            #expect(try bob.names("friends") == ["Ann"])
            #expect(try bob.relatedName("mentor") == "Boss")
            try bob.removeRelatedObject(ann, forKey: "friends")
            #expect(try ann.relatedObjects(forKey: "friends").isEmpty)
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            #expect(try context.one("Employee", "name", "Ann").relatedObjects(forKey: "friends").isEmpty)
            #expect(try context.one("Employee", "name", "Bob").relatedObjects(forKey: "friends").isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func oneToOneTakesTheDestinationFromItsPreviousPartner(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let ann = try context.insert("Employee", ["name": "Ann"])
            let bob = try context.insert("Employee", ["name": "Bob"])
            let desk = try context.insert("Desk", ["number": 7])
            try ann.setValue(desk, forKey: "desk")
            #expect(try desk.relatedName("owner") == "Ann")
            try desk.setValue(bob, forKey: "owner")
            #expect(try ann.relatedObject(forKey: "desk") == nil)
            #expect(try bob.relatedObject(forKey: "desk") === desk)
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            #expect(try context.one("Desk", "number", 7).relatedName("owner") == "Bob")
            #expect(try context.one("Employee", "name", "Ann").relatedObject(forKey: "desk") == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func rollbackRestoresRelationshipsOnBothSides(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let ann = try context.insert("Author", ["name": "Ann"])
            let bob = try context.insert("Author", ["name": "Bob"])
            try ann.addRelatedObject(try context.insert("Book", ["title": "Dune"]), forKey: "books")
            try context.save()
            let book = try context.one("Book", "title", "Dune")
            try book.setValue(bob, forKey: "author")
            try bob.addRelatedObject(try context.insert("Book", ["title": "New"]), forKey: "books")
            #expect(ann.hasChanges && bob.hasChanges && book.hasChanges)
            context.rollback()
            #expect(!context.hasChanges)
            #expect(try book.relatedName("author") == "Ann")
            #expect(try ann.names("books", "title") == ["Dune"])
            #expect(try bob.relatedObjects(forKey: "books").isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func changedValuesAndUpdatedObjectsIncludeRelationshipChanges(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let ann = try context.insert("Author", ["name": "Ann"])
            let book = try context.insert("Book", ["title": "Dune"])
            try context.save()
            try book.setValue(ann, forKey: "author")
            #expect(context.updatedObjects == [ann, book])
            try book.setValue(nil, forKey: "author")
            // The to-one is back to its saved value; the to-many was changed and changed back.
            // The book stays updated, as in Core Data (a set is a change), but no value differs.
            #expect(book.isUpdated)
            #expect(book.changedValues().isEmpty && !book.hasPersistentChangedValues)
            #expect(ann.changedValues().isEmpty && !ann.hasPersistentChangedValues)
            try context.save()
            #expect(!context.hasChanges)
        }
    }
}

/// `committedValues(forKeys: nil)` and `changedValues()` cover relationships, as object IDs.
@Suite struct RelationshipChangeValuesConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func committedAndChangedValuesGiveRelationshipsAsObjectIDs(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let ann = try context.insert("Author", ["name": "Ann"])
            let bob = try context.insert("Author", ["name": "Bob"])
            let book = try context.insert("Book", ["title": "Dune", "author": ann])
            let chapter = try context.insert("Chapter", ["title": "One", "book": book])
            try context.save()
            try book.setValue(bob, forKey: "author")
            let committed = try book.committedValues(forKeys: nil)
            #expect(Set(committed.keys) == ["title", "author", "tags", "chapters", "publisher"])
            #expect(committed["author"] as? ManagedObjectID == ann.objectID)
            #expect(committed["chapters"] as? [ManagedObjectID] == [chapter.objectID])
            #expect(committed["publisher"].map { $0 == nil } == true)
            #expect(book.changedValues().mapValues { $0 as? ManagedObjectID } == ["author": bob.objectID])
            #expect(Set(bob.changedValues().keys) == ["books"])
            #expect(bob.changedValues()["books"] as? Set<ManagedObjectID> == [book.objectID])
            #expect(try ann.committedValues(forKeys: ["books"])["books"] as? Set<ManagedObjectID> == [book.objectID])
        }
    }
}

/// `mutableSetValue(forKey:)` and `mutableOrderedSetValue(forKey:)`, the Core Data way.
@Suite struct MutableRelationshipConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func changesInPlaceKeepInverses(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let ann = try context.insert("Author", ["name": "Ann"])
            let dune = try context.insert("Book", ["title": "Dune"])
            let emma = try context.insert("Book", ["title": "Emma"])
            let books = try ann.mutableSetValue(forKey: "books")
            try books.add(dune)
            try books.add(contentsOf: [emma, dune])
            #expect(try books.count() == 2)
            #expect(try books.contains(emma))
            #expect(try dune.relatedObject(forKey: "author") === ann)
            try books.remove(emma)
            #expect(try emma.relatedObject(forKey: "author") == nil)

            let chapters = try dune.mutableOrderedSetValue(forKey: "chapters")
            for title in ["b", "c"] { try chapters.add(try context.insert("Chapter", ["title": title])) }
            try chapters.insert(try context.insert("Chapter", ["title": "a"]), at: 0)
            #expect(try chapters.orderedObjects().map { try $0.value(forKey: "title", as: String.self) } == ["a", "b", "c"])
            let removed = try chapters.orderedObjects()[1]
            try chapters.remove(at: 1)
            context.delete(removed)
            let outOfRange = #expect(throws: ObjectGraphError.self) { try chapters.remove(at: 5) }
            #expect(outOfRange?.message == "cannot remove the object at index 5 of Book.chapters, which holds 2")
            #expect(throws: ObjectGraphError.self) { try ann.mutableOrderedSetValue(forKey: "books") }
            #expect(throws: ObjectGraphError.self) { try dune.mutableSetValue(forKey: "author") }
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            #expect(try context.one("Author", "name", "Ann").names("books", "title") == ["Dune"])
            #expect(try context.one("Book", "title", "Dune").orderedNames("chapters") == ["a", "c"])
            try context.one("Author", "name", "Ann").mutableSetValue(forKey: "books").removeAll()
            #expect(try context.one("Book", "title", "Dune").relatedObject(forKey: "author") == nil)
        }
    }
}
