import Foundation
import ObjectGraph
import Testing

/// The format-string and code examples of Predicates.md, fetched against the Library model
/// (the `#Predicate` example is in ObjectGraphGeneratedTests, which has typed classes).
@Suite struct PredicatesArticleTests {
    @Test func atAGlance() throws {
        let (container, directory) = try ArticleFixtures.seededLibrary()
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = container.newBackgroundContext()
        let start = Date(timeIntervalSince1970: 0), end = Date()
        try context.performAndWait {
            var request = FetchRequest<ManagedObject>(entityName: "Book")
            request.predicate = try FetchPredicate(format: "pageCount > %d AND summary == nil", 250)
            request.predicate = try FetchPredicate(format: "title IN %@", ["Kindred", "Dawn"])
            request.predicate = try FetchPredicate(format: "published BETWEEN %@", [start, end])
            request.predicate = try FetchPredicate(format: "%K == %@", "isbn", "9780807083697")
            request.predicate = try FetchPredicate(format: "inPrint == YES AND NOT (edition < 2)")
            request.predicate = try FetchPredicate(format: "title CONTAINS[cd] %@", "dune")
            request.sortDescriptors = [
                FetchSortDescriptor(key: "published", ascending: false),
                FetchSortDescriptor(key: "title")
            ]
            let books = try context.fetch(request)

            #expect(books.isEmpty)
            request.predicate = try FetchPredicate(format: "pageCount > %d AND summary == nil", 250)
            #expect(try context.fetch(request).count == 1)
            request.predicate = try FetchPredicate(format: "title IN %@", ["Kindred", "Dawn"])
            #expect(try context.fetch(request).count == 2)
        }
    }

    @Test func reservedWordsAreEscapedOrPassed() throws {
        let escaped = try FetchPredicate(format: "#first == 'Ada'")
        let passed = try FetchPredicate(format: "%K == %@", "first", "Ada")  // the same predicate

        #expect(escaped == passed)
    }

    @Test func variablesAreSubstitutedLater() throws {
        let (container, directory) = try ArticleFixtures.seededLibrary()
        defer { try? FileManager.default.removeItem(at: directory) }
        var request = FetchRequest<ManagedObject>(entityName: "Book")

        let template = try FetchPredicate(format: "pageCount > $minimum AND title IN $titles")
        request.predicate = try template.withSubstitutionVariables(["minimum": 250, "titles": ["Kindred", "Dawn"]])

        #expect(template.substitutionVariables == ["minimum", "titles"])
        let context = container.newBackgroundContext()
        #expect(try context.performAndWait { try context.fetch(request).count } == 1)
    }

    @Test func predicatesAreBuiltInCode() throws {
        let (container, directory) = try ArticleFixtures.seededLibrary()
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let someAuthor = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Author")).first)
            var request = FetchRequest<ManagedObject>(entityName: "Book")

            let title = PredicateKey("title"), pages = PredicateKey("pageCount")
            request.predicate = pages > 250 && title.contains("dune", options: .caseInsensitive)
            request.predicate = PredicateKey("author") == someAuthor || PredicateKey("author.name").beginsWith("O")
            request.predicate = .any(PredicateKey("tags.name") == "classic")  // ANY tags.name == "classic"
            request.predicate = PredicateKey("chapters.@count").between(2, and: 5)
            request.predicate = title.in(["Kindred", "Dawn"])

            #expect(try context.fetch(request).count == 2)
            // Each is the predicate its format string makes.
            let made: [(FetchPredicate, String)] = [
                (pages > 250 && title.contains("dune", options: .caseInsensitive), "pageCount > 250 AND title CONTAINS[c] 'dune'"),
                (.any(PredicateKey("tags.name") == "classic"), "ANY tags.name == 'classic'"),
                (PredicateKey("chapters.@count").between(2, and: 5), "chapters.@count BETWEEN {2, 5}"),
                (title.in(["Kindred", "Dawn"]), "title IN {'Kindred', 'Dawn'}")
            ]
            for (predicate, format) in made { #expect(predicate == (try FetchPredicate(format: format)), "\(format)") }
            request.predicate = PredicateKey("author") == someAuthor || PredicateKey("author.name").beginsWith("O")
            #expect(try context.fetch(request).count == 2)
        }
    }

    @Test func predicatesCombine() throws {
        let cutoff = Date(timeIntervalSince1970: 0)
        let filters: [FetchPredicate] = []
        var request = FetchRequest<ManagedObject>(entityName: "Book")

        let recent = try FetchPredicate(format: "published > %@", cutoff)
        let cheap = try FetchPredicate(format: "price < %@", Decimal(10))

        let both = recent && cheap  // FetchPredicate.and([recent, cheap])
        let either = recent || cheap  // FetchPredicate.or([recent, cheap])
        let neither = !(recent || cheap)  // FetchPredicate.not(…)
        let all = FetchPredicate.and(filters)  // [] gives .truePredicate
        let any = FetchPredicate.or(filters)  // [] gives .falsePredicate

        request.predicate = FetchPredicate.truePredicate  // same as TRUEPREDICATE

        #expect(both == FetchPredicate.and([recent, cheap]))
        #expect(either == FetchPredicate.or([recent, cheap]))
        #expect(neither == FetchPredicate.not(either))
        #expect(all == .truePredicate)
        #expect(any == .falsePredicate)
        #expect(request.predicate == (try FetchPredicate(format: "TRUEPREDICATE")))
    }

    @Test func sortingLimitAndOffset() throws {
        let (container, directory) = try ArticleFixtures.seededLibrary()
        defer { try? FileManager.default.removeItem(at: directory) }
        var request = FetchRequest<ManagedObject>(entityName: "Book")

        request.sortDescriptors = [
            FetchSortDescriptor(key: "published", ascending: false),
            FetchSortDescriptor(key: "title"),  // ascending by default
            FetchSortDescriptor(key: "author.name", comparison: .caseInsensitive)
        ]
        request.fetchLimit = 20  // 0 means no limit
        request.fetchOffset = 40

        let context = container.newBackgroundContext()
        #expect(try context.performAndWait { try context.fetch(request) }.isEmpty)
        request.fetchOffset = 1
        #expect(
            try context.performAndWait { try context.fetch(request).map { try $0.value(forKey: "title", as: String.self) } } == ["Kindred"])
    }

    @Test func valuesResultsGroupAndAggregate() throws {
        let (container, directory) = try ArticleFixtures.seededLibrary()
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var request = FetchRequest<FetchedValues>(entityName: "Book")
            request.propertiesToFetch = [.attribute("author.name"), .count(as: "books"), .aggregate(.average, of: "pageCount", as: "pages")]
            request.propertiesToGroupBy = ["author.name"]
            request.havingPredicate = try FetchPredicate(format: "books > 1")
            request.sortDescriptors = [FetchSortDescriptor(key: "pages", ascending: false)]
            for row in try context.fetch(request) { print(row["author.name"] ?? "-", row.value("books", as: Int.self) ?? 0) }

            let rows = try context.fetch(request)
            #expect(rows.count == 1)
            #expect(rows.first?.value("books", as: Int.self) == 2)
            #expect(rows.first?.value("pages", as: Double.self) == 256)
        }
    }
}
