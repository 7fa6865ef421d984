import Foundation
import ObjectGraph
import Testing

/// The `#Predicate` example of Predicates.md (ObjectGraph.docc), on the Catalog model's generated
/// classes, where the article's `Book` is `CatalogBook`.
private typealias Book = CatalogBook

@Suite struct PredicatesArticleTypedTests {
    @Test(arguments: StoreKind.allCases)
    func foundationPredicatesFetch(_ kind: StoreKind) throws {
        let store = try CatalogStore(kind)
        let context = store.context
        let author = Author(context: context)
        author.id = UUID()
        author.name = "Ann"
        for (title, pages) in [("Swift in Depth", Int32(400)), ("Learning Swift", 250), ("Dune", 612)] {
            let book = Book(context: context)
            book.title = title
            book.pages = pages
            book.author = author
        }
        try context.save()
        let names = ["Dune", "Emma"]

        let request = try FetchRequest<Book>(
            predicate: #Predicate { $0.pages > 300 && $0.title.contains("Swift") && $0.author?.name != nil },
            sortBy: [SortDescriptor(\.title)])
        let predicate = try FetchPredicate(#Predicate<Book> { names.contains($0.title) })  // IN

        #expect(try context.fetch(request).map(\.title) == ["Swift in Depth"])
        #expect(predicate == (try FetchPredicate(format: "title IN %@", names)))
    }
}
