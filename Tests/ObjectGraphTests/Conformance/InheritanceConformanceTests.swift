import Foundation
import Testing

@testable import ObjectGraph

/// Entity inheritance: sub-entities inherit properties, a fetch of a parent returns its
/// sub-entities' objects, relationships may point at a parent, constraints cover the hierarchy —
/// on every store alike, and after reopening the SQLite store.
@Suite struct InheritanceConformanceTests {
    private func makeShop(_ kind: StoreKind) throws -> TestStore {
        let store = try TestStore(kind, model: InheritanceModel.load)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let shelf = try context.insert("Shelf", ["label": "A"])
            let dune = try context.insert("Book", ["title": "Dune", "sku": "B1", "pages": 412, "isbn": "111"])
            let algebra = try context.insert("Textbook", ["title": "Algebra", "sku": "T1", "pages": 300, "subject": "math"])
            let wired = try context.insert("Magazine", ["title": "Wired", "sku": "M1", "issue": 7, "pages": "ninety"])
            try shelf.setValue([wired, dune, algebra], forKey: "items")
            let reader = try context.insert("Reader", ["name": "Ann", "favorite": wired])
            try reader.addRelatedObjects([dune, algebra], forKey: "books")
            try context.save()
        }
        try store.reopen()
        return store
    }

    @Test(arguments: StoreKind.allCases)
    func fetchingAParentReturnsEverySubEntity(kind: StoreKind) throws {
        let store = try makeShop(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let items = try context.objects("Item", sortedBy: ["title"])
            #expect(items.map(\.entity.name) == ["Textbook", "Book", "Magazine"])
            #expect(try items.map { try $0.value(forKey: "title", as: String.self) } == ["Algebra", "Dune", "Wired"])
            #expect(try context.objects("Book", sortedBy: ["title"]).map(\.entity.name) == ["Textbook", "Book"])
            #expect(try context.objects("Item", where: "title > 'V'").map(\.entity.name) == ["Magazine"])
            #expect(try context.count(for: request("Item")) == 3)

            var ownOnly = try request("Book")
            ownOnly.includesSubentities = false
            #expect(try context.fetch(ownOnly).map(\.entity.name) == ["Book"])
            #expect(try context.count(for: ownOnly) == 1)

            let algebra = try context.one("Textbook", "title", "Algebra")
            #expect(try algebra.value(forKey: "subject", as: String.self) == "math")
            #expect(try algebra.value(forKey: "pages", as: Int.self) == 300)
            #expect(try context.one("Magazine", "title", "Wired").value(forKey: "pages", as: String.self) == "ninety")
            #expect(try context.objects("Book", where: "pages > 350").map(\.entity.name) == ["Book"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func relationshipsToAParentHoldAnySubEntity(kind: StoreKind) throws {
        let store = try makeShop(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let shelf = try context.one("Shelf", "label", "A")
            #expect(try shelf.orderedRelatedObjects(forKey: "items").map(\.entity.name) == ["Magazine", "Book", "Textbook"])
            let reader = try context.one("Reader", "name", "Ann")
            #expect(try reader.relatedObject(forKey: "favorite")?.entity.name == "Magazine")
            #expect(try reader.names("books", "title") == ["Algebra", "Dune"])
            let algebra = try context.one("Textbook", "title", "Algebra")
            #expect(try algebra.relatedName("shelf", "label") == "A")
            #expect(try algebra.names("readers") == ["Ann"])

            let error = #expect(throws: ObjectGraphError.self) {
                try reader.addRelatedObject(try context.one("Magazine", "title", "Wired"), forKey: "books")
            }
            #expect(error?.kind == .typeMismatch)
            #expect(error?.message.contains("Reader.books holds Book objects; Magazine/p") == true)

            // Cascade through the parent's relationship deletes every kind of item.
            context.delete(shelf)
            try context.save()
        }
        #expect(try store.storedCount("Item") == 0)
        #expect(try store.storedCount("Reader") == 1)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            #expect(try context.one("Reader", "name", "Ann").relatedObjects(forKey: "books").isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func keysAndConstraintsAreSharedByTheHierarchy(kind: StoreKind) throws {
        let store = try makeShop(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let keys = try context.objects("Item").map { $0.objectID.primaryKey ?? 0 }
            #expect(Set(keys).count == 3, "one key space for the whole hierarchy")

            // `sku` is unique across all items (declared by Item).
            try context.insert("Magazine", ["title": "Copy", "sku": "B1", "issue": 1])
            let clash = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(clash?.kind == .constraintViolation)
            #expect(clash?.message.contains("another Magazine already has sku = \"B1\"") == true)
            context.rollback()

            // `isbn` is unique among books only (declared by Book): a textbook counts, a magazine has none.
            try context.insert("Textbook", ["title": "Copy", "sku": "T2", "pages": 1, "subject": "x", "isbn": "111"])
            let bookClash = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(bookClash?.kind == .constraintViolation)
            context.rollback()
            #expect(try context.count(for: request("Item")) == 3)

            let url = try context.one("Textbook", "title", "Algebra").objectID.uriRepresentation()
            let objectID = try #require(context.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: url))
            #expect(try context.existingObject(with: objectID).entity.name == "Textbook")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func unsavedSubEntityObjectsJoinFetchesOfTheirParent(kind: StoreKind) throws {
        let store = try makeShop(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            try context.insert("Magazine", ["title": "Byte", "sku": "M2", "issue": 3])
            context.delete(try context.one("Book", "title", "Dune"))
            #expect(try context.objects("Item", sortedBy: ["title"]).map(\.entity.name) == ["Textbook", "Magazine", "Magazine"])
            #expect(try context.count(for: request("Item")) == 3)
            var ownOnly = try request("Book")
            ownOnly.includesSubentities = false
            #expect(try context.fetch(ownOnly).isEmpty)
        }
    }
}
