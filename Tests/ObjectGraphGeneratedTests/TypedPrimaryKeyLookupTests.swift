import Foundation
import ObjectGraph
import Testing

/// `Class.object(primaryKey:in:)` and its kin: typed objects from keys, on both stores.
@Suite struct TypedPrimaryKeyLookupTests {
    /// The key at the end of an object's URI (`…/Book/p42`).
    static func key(of object: ManagedObject) -> Int64 {
        Int64(object.objectID.uriRepresentation().lastPathComponent.dropFirst())!
    }

    @Test(arguments: StoreKind.allCases)
    func typedObjectsComeFromTheirKeys(_ kind: StoreKind) throws {
        let store = try CatalogStore(kind)
        let context = store.context
        let ann = Author(context: context)
        ann.id = UUID()
        ann.name = "Ann"
        let books = ["One", "Two"].map { title in
            let book = CatalogBook(context: context)
            book.title = title
            book.author = ann
            return book
        }
        try context.save()
        let other = try store.reopened()
        try other.performAndWait {
            let fault = try CatalogBook.object(primaryKey: Self.key(of: books[1]), in: other)
            #expect(fault.title == "Two")
            let found = try CatalogBook.existingObjects(primaryKeys: books.map(Self.key).reversed() + [9_999], in: other)
            #expect(found.map(\.title) == ["Two", "One"])
            #expect(try Author.existingObject(primaryKey: Self.key(of: ann), in: other).name == "Ann")
            let missing = try #require(throws: ObjectGraphError.self) { try CatalogBook.existingObject(primaryKey: 9_999, in: other) }
            #expect(missing.kind == .objectNotFound)
        }
    }
}
