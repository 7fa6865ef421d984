import Foundation
import Testing

@testable import ObjectGraph

/// `value(forKeyPath:)`: to-one chains, a to-many's member values and collection operators, as
/// Core Data's key-value coding reads them. On every store, from a reopened store.
@Suite struct KeyPathConformanceTests {
    static let json = """
        { "name": "Shelf", "version": 1, "entities": [
          { "name": "Author", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [ { "name": "books", "destination": "Book", "toMany": true, "inverse": "author" } ] },
          { "name": "Book", "attributes": [
              { "name": "title", "type": "string" }, { "name": "pages", "type": "integer32", "optional": true },
              { "name": "price", "type": "decimal", "optional": true }, { "name": "published", "type": "date" } ],
            "relationships": [
              { "name": "author", "destination": "Author", "optional": true, "inverse": "books" },
              { "name": "chapters", "destination": "Chapter", "toMany": true, "ordered": true, "inverse": "book" } ] },
          { "name": "Chapter", "attributes": [ { "name": "title", "type": "string" } ],
            "relationships": [ { "name": "book", "destination": "Book", "optional": true, "inverse": "chapters" } ] } ] }
        """

    private static func shelf(_ kind: StoreKind) throws -> TestStore {
        let store = try TestStore(kind, model: { try ManagedObjectModel(data: Data(json.utf8)) })
        try store.withNewContext { context throws in
            let ann = try context.insertNewObject(forEntityName: "Author")
            try ann.setValue("Ann", forKey: "name")
            try context.insertNewObject(forEntityName: "Author").setValue("Nobody", forKey: "name")
            for (title, pages, price, day) in [("Dune", 412, "9.99", 1.0), ("Emma", 300, "5.01", 2.0), ("Notes", nil, nil, 3.0)]
                as [(String, Int?, String?, Double)]
            {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue(title, forKey: "title")
                try book.setValue(pages, forKey: "pages")
                try book.setValue(price.flatMap { Decimal(string: $0) }, forKey: "price")
                try book.setValue(Date(timeIntervalSinceReferenceDate: day * 86_400), forKey: "published")
                try book.setValue(ann, forKey: "author")
                for number in 1...2 {
                    let chapter = try context.insertNewObject(forEntityName: "Chapter")
                    try chapter.setValue("\(title) \(number)", forKey: "title")
                    try chapter.setValue(book, forKey: "book")
                }
            }
            try context.save()
        }
        try store.reopen()
        return store
    }

    private static func object(_ context: ManagedObjectContext, _ entity: String, _ format: String) throws -> ManagedObject {
        try #require(try context.objects(entity, where: format).first)
    }

    @Test(arguments: StoreKind.allCases)
    func toOneChainsAndMemberValues(kind: StoreKind) throws {
        let store = try Self.shelf(kind)
        try store.withNewContext { context throws in
            let chapter = try Self.object(context, "Chapter", "title == 'Emma 2'")
            #expect(try chapter.value(forKeyPath: "book.author.name") as? String == "Ann")
            #expect(try chapter.value(forKeyPath: "book.pages") as? Int == 300)
            #expect(try chapter.value(forKeyPath: "title") as? String == "Emma 2")
            let ann = try Self.object(context, "Author", "name == 'Ann'")
            #expect(try ann.value(forKeyPath: "books.title") as? Set<String> == ["Dune", "Emma", "Notes"])
            #expect(try ann.value(forKeyPath: "books.pages") as? Set<Int> == [412, 300])
            let dune = try Self.object(context, "Book", "title == 'Dune'")
            #expect(try dune.value(forKeyPath: "chapters.title") as? [String] == ["Dune 1", "Dune 2"])
            try dune.setValue(nil, forKey: "author")
            #expect(try dune.value(forKeyPath: "author.name") == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func collectionOperators(kind: StoreKind) throws {
        let store = try Self.shelf(kind)
        try store.withNewContext { context throws in
            let ann = try Self.object(context, "Author", "name == 'Ann'")
            #expect(try ann.value(forKeyPath: "books.@count") as? Int == 3)
            #expect(try ann.value(forKeyPath: "books.@sum.pages") as? Int == 712)
            #expect(try ann.value(forKeyPath: "books.@avg.pages") as? Double == 356)
            #expect(try ann.value(forKeyPath: "books.@min.pages") as? Int == 300)
            #expect(try ann.value(forKeyPath: "books.@max.title") as? String == "Notes")
            #expect(try ann.value(forKeyPath: "books.@max.published") as? Date == Date(timeIntervalSinceReferenceDate: 3 * 86_400))
            #expect(try ann.value(forKeyPath: "books.@sum.price") as? Decimal == Decimal(string: "15"))
            #expect(try ann.value(forKeyPath: "books.@avg.price") as? Decimal == Decimal(string: "7.5"))
            let chapter = try Self.object(context, "Chapter", "title == 'Dune 1'")
            #expect(try chapter.value(forKeyPath: "book.author.books.@count") as? Int == 3)
            // Unsaved changes count, as everywhere in a context.
            let extra = try context.insertNewObject(forEntityName: "Book")
            try extra.setValue("Extra", forKey: "title")
            try extra.setValue(Date(), forKey: "published")
            try extra.setValue(88, forKey: "pages")
            try extra.setValue(ann, forKey: "author")
            #expect(try ann.value(forKeyPath: "books.@sum.pages") as? Int == 800)
            let nobody = try Self.object(context, "Author", "name == 'Nobody'")
            #expect(try nobody.value(forKeyPath: "books.@count") as? Int == 0)
            #expect(try nobody.value(forKeyPath: "books.@sum.pages") as? Int == 0)
            #expect(try nobody.value(forKeyPath: "books.@max.pages") == nil)
        }
    }

    @Test(arguments: [
        ("books.titel", ObjectGraphError.Kind.unknownKey, "Book has no attribute named 'titel'; did you mean 'title'?"),
        (
            "books.chapters.title", .invalidOperation,
            "Author cannot read the key path 'books.chapters.title': it continues after Author.books, a to-many; read each member's key path instead"
        ),
        (
            "books.@total.pages", .invalidOperation,
            "Author cannot read the key path 'books.@total.pages': @total is not a collection operator (@count, @sum, @avg, @min, @max)"
        ),
        (
            "books.@sum.title", .invalidOperation,
            "Author cannot read the key path 'books.@sum.title': @sum applies to numbers (and dates and strings for @min and @max), not to Book.title, a string attribute"
        ),
        ("books.@sum", .invalidOperation, "Author cannot read the key path 'books.@sum': @sum is followed by one attribute of Book"),
        ("@count", .invalidOperation, "Author cannot read the key path '@count': @count follows a to-many relationship"),
        ("name.length", .typeMismatch, "Author.name is an attribute, not a relationship"),
        ("books..title", .invalidOperation, "Author cannot read the key path 'books..title': it has an empty key")
    ])
    func pathsItCannotReadAreClearErrors(keyPath: String, kind: ObjectGraphError.Kind, message: String) throws {
        let store = try Self.shelf(.inMemory)
        try store.withNewContext { context throws in
            let ann = try Self.object(context, "Author", "name == 'Ann'")
            let error = #expect(throws: ObjectGraphError.self) { try ann.value(forKeyPath: keyPath) }
            #expect(error?.kind == kind, "\(keyPath)")
            #expect(error?.message.contains(message) == true, "\(error?.message ?? "no error")")
        }
    }
}
