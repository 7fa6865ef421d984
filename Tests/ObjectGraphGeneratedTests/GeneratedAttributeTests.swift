import Foundation
import ObjectGraph
import Testing

/// Every generated attribute type, set through the typed properties, saved, and read back after
/// reopening — on both stores.
@Suite struct GeneratedAttributeTests {
    @Test(arguments: StoreKind.allCases)
    func everyAttributeTypeRoundTrips(_ kind: StoreKind) throws {
        let store = try CatalogStore(kind)
        let context = store.context
        let published = Date(timeIntervalSinceReferenceDate: 700_000_000.25)
        let isbnID = UUID()
        let book = CatalogBook(context: context)
        #expect(book.pages == 0 && book.edition == 1 && book.inPrint && book.price == 0)  // model defaults
        book.title = "Kindred"
        book.pages = 264
        book.edition = 2
        book.sales = 5_000_000_000
        book.price = Decimal(string: "12.99")!
        book.weight = 0.25
        book.inPrint = false
        book.published = published
        book.cover = Data([1, 2, 3])
        book.isbnID = isbnID
        book.website = URL(string: "https://example.com/kindred")
        book.details = BookDetails(language: "en", keywords: ["time", "travel"])
        book.sequel = nil
        book.default = "keyword-named"
        try context.save()

        let reopened = try store.reopened()
        let fetched = try #require(try reopened.fetch(CatalogBook.fetchRequest()).first)
        #expect(fetched.title == "Kindred")
        #expect(fetched.pages == 264)
        #expect(fetched.edition == 2)
        #expect(fetched.sales == 5_000_000_000)
        #expect(fetched.price == Decimal(string: "12.99")!)
        #expect(fetched.weight == 0.25)
        #expect(fetched.inPrint == false)
        #expect(fetched.published == published)
        #expect(fetched.cover == Data([1, 2, 3]))
        #expect(fetched.isbnID == isbnID)
        #expect(fetched.website == URL(string: "https://example.com/kindred"))
        #expect(fetched.details == BookDetails(language: "en", keywords: ["time", "travel"]))
        #expect(fetched.sequel == nil)
        #expect(fetched.default == "keyword-named")
        #expect(fetched.displayTitle == "Kindred (2. edition)")
        // The typed properties and the key-based calls see the same values.
        #expect(try fetched.value(forKey: CatalogBook.Attributes.pages, as: Int.self) == 264)
    }

    /// A generated property cannot throw: a NaN date or number set through one is refused by the
    /// save, which names the property, instead of stopping the program.
    @Test(arguments: StoreKind.allCases)
    func nanSetThroughAPropertyIsRefusedAtSave(_ kind: StoreKind) throws {
        let store = try CatalogStore(kind)
        let book = CatalogBook(context: store.context)
        book.title = "Kindred"
        book.published = Date(timeIntervalSinceReferenceDate: .nan)
        book.weight = .nan
        let error = try #require(throws: ObjectGraphError.self) { try store.context.save() }
        #expect(error.kind == .validation)
        #expect(error.validationFailures.map(\.key) == ["weight", "published"])
        #expect(error.message.contains("NaN cannot be stored"), "\(error.message)")
        book.published = Date(timeIntervalSinceReferenceDate: 0)
        book.weight = 1
        try store.context.save()
        #expect(try store.reopened().count(for: CatalogBook.fetchRequest()) == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func transientAttributesAreKeptInMemoryOnly(_ kind: StoreKind) throws {
        let store = try CatalogStore(kind)
        let author = Author(context: store.context)
        author.id = UUID()
        author.name = "Octavia E. Butler"
        author.nickname = "O."
        author.born = Date(timeIntervalSince1970: 0)
        author.photo = Data([9])
        author.rating = 4.5
        try store.context.save()
        #expect(author.nickname == "O.")

        let reopened = try store.reopened()
        let fetched = try #require(try reopened.fetch(Author.fetchRequest()).first)
        #expect(fetched.name == "Octavia E. Butler" && fetched.rating == 4.5 && fetched.photo == Data([9]))
        #expect(fetched.born == Date(timeIntervalSince1970: 0))
        #expect(fetched.nickname == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func changesThroughPropertiesAreTrackedLikeKeyedChanges(_ kind: StoreKind) throws {
        let store = try CatalogStore(kind)
        let tag = Tag(context: store.context)
        tag.name = "sf"
        try store.context.save()
        tag.name = "science fiction"
        #expect(tag.isUpdated)
        #expect(tag.changedValues()[Tag.Attributes.name] as? String == "science fiction")
        store.context.rollback()
        #expect(tag.name == "sf")
    }
}
