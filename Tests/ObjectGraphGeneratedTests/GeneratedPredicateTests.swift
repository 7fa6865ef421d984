import Foundation
import ObjectGraph
import Testing

/// `#Predicate` and `SortDescriptor` over generated classes: typed requests return generated
/// objects, the same ones (in the same order) as the equivalent format strings, on both stores,
/// unsaved changes included.
@Suite struct GeneratedPredicateTests {
    @Test(arguments: StoreKind.allCases)
    func typedRequestsMatchTheirFormatStrings(_ kind: StoreKind) throws {
        let store = try CatalogStore(kind)
        let context = store.context
        var authors: [String: Author] = [:]
        for name in ["Ann", "Bob"] {
            let author = Author(context: context)
            author.id = UUID()
            author.name = name
            authors[name] = author
        }
        let swiftTag = Tag(context: context)
        swiftTag.name = "swift"
        let books: [(String, Int32, String?, Float?, Int)] = [
            ("Swift in Depth", 400, "Ann", 1.2, 3), ("Dune", 612, "Bob", nil, 0), ("Learning Swift", 250, "Ann", 0.8, 2),
            ("Emma", 320, nil, 0.5, 1), ("Swift Pocket Guide", 90, "Bob", nil, 0)
        ]
        for (title, pages, author, weight, chapterCount) in books {
            let book = CatalogBook(context: context)
            book.title = title
            book.pages = pages
            book.weight = weight
            book.author = author.flatMap { authors[$0] }
            if title.contains("Swift") { book.tags = [swiftTag] }
            for number in 0..<chapterCount {
                let chapter = Chapter(context: context)
                chapter.title = "\(title) \(number)"
                chapter.number = Int16(number)
                book.addToChapters(chapter)
            }
        }
        try context.save()

        let cases: [(Predicate<CatalogBook>, String)] = [
            (#Predicate { $0.pages > 300 }, "pages > 300"),
            (#Predicate { $0.pages > 300 && $0.title.contains("Swift") }, "pages > 300 AND title CONTAINS 'Swift'"),
            (#Predicate { $0.author?.name == "Ann" || $0.author == nil }, "author.name == 'Ann' OR author == nil"),
            (#Predicate { ($0.weight ?? 0) > 0.6 }, "weight > 0.6"),
            (#Predicate { $0.tags.contains { $0.name == "swift" } }, "ANY tags.name == 'swift'"),
            (#Predicate { $0.chapters.count >= 2 }, "chapters.@count >= 2"),
            (#Predicate { !$0.title.starts(with: "Swift") }, "NOT title BEGINSWITH 'Swift'")
        ]
        for (swift, format) in cases {
            let typed: [CatalogBook] = try context.fetch(
                try FetchRequest(predicate: swift, sortBy: [SortDescriptor(\.pages, order: .reverse)]))
            var request = CatalogBook.fetchRequest()
            request.predicate = try FetchPredicate(format: format)
            request.sortDescriptors = [FetchSortDescriptor(key: "pages", ascending: false)]
            let expected = try context.fetch(request)
            #expect(typed.map(\.title) == expected.map(\.title), "\(format)")
            #expect(!expected.isEmpty, "\(format) finds nothing: a weak case")
        }

        let draft = CatalogBook(context: context)
        draft.title = "Unsaved Swift"
        draft.pages = 999
        let long: [CatalogBook] = try context.fetch(try FetchRequest(predicate: #Predicate { $0.pages > 900 }))
        #expect(long == [draft])
    }

    @Test(arguments: StoreKind.allCases)
    func predicatesWorkThroughClassHierarchies(_ kind: StoreKind) throws {
        let store = try CatalogStore(kind)
        let context = store.context
        let max = Manager(context: context)
        max.name = "Max"
        max.level = 3
        for (name, salary) in [("Eve", Decimal(120)), ("Ed", Decimal(80))] {
            let employee = Employee(context: context)
            employee.name = name
            employee.salary = salary
            employee.manager = max
        }
        try context.save()

        // The abstract parent class: its objects are the sub-entities' objects.
        let people: [Person] = try context.fetch(
            try FetchRequest(predicate: #Predicate { $0.name.starts(with: "E") }, sortBy: [SortDescriptor(\.name)]))
        #expect(people.map(\.name) == ["Ed", "Eve"])
        #expect(people.allSatisfy { $0 is Employee })
        // An inherited property, a to-one into a subclass, and the subclass's own attribute.
        let managed: [Employee] = try context.fetch(try FetchRequest(predicate: #Predicate { $0.manager?.level == 3 && $0.name != "Ed" }))
        #expect(managed.map(\.name) == ["Eve"])
        let managers: [Manager] = try context.fetch(try FetchRequest(predicate: #Predicate { $0.reports.count == 2 }))
        #expect(managers == [max])
    }
}
