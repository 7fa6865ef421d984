import Foundation
import Testing

@testable import ObjectGraph

/// `relationshipKeyPathsForPrefetching` loads destinations with the results, on every store
/// alike; on SQLite in a bounded number of statements (no N + 1 queries).
@Suite struct PrefetchConformanceTests {
    /// 100 authors, 10 books each: "Author n" wrote "Book n.0" … "Book n.9".
    private func makeBooks(_ store: TestStore) throws {
        try store.withNewContext { (context: ManagedObjectContext) throws in
            for number in 0..<100 {
                let author = try context.insert("Author", ["name": "Author \(number)"])
                for index in 0..<10 { try context.insert("Book", ["title": "Book \(number).\(index)", "author": author]) }
            }
            try context.save()
        }
    }

    /// Prefetching a to-many for most of the owners' table (on SQLite, a scan of the destination
    /// table matched to the owners in memory) gives each owner exactly its own destinations.
    @Test(arguments: StoreKind.allCases)
    func prefetchingForMostOwnersGivesEachItsOwnDestinations(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            try context.insertAuthors(700) { $0 % 4 }
            try context.insert("Book", ["title": "Anonymous"])
            try context.save()
        }
        try store.withNewContext { (context: ManagedObjectContext) throws in
            // 590 of the 700 authors ("Author 60" … "Author 69" and "Author 600" … "Author 699"
            // left out): the books of the others must not be handed to anyone.
            var request = FetchRequest<ManagedObject>(
                entityName: "Author", predicate: try FetchPredicate(format: "NOT (name BEGINSWITH 'Author 6' AND name != 'Author 6')"))
            request.relationshipKeyPathsForPrefetching = ["books"]
            var authors: [ManagedObject] = []
            let executed = try store.statements { authors = try context.fetch(request) }
            #expect(authors.count == 590)
            if kind == .sqlite {
                #expect(executed.contains { $0.contains("IS NOT NULL") }, "the books are read in one scan: \(executed)")
            }
            var books = 0
            var expectedBooks = 0
            for author in authors {
                let name = try #require(try author.value(forKey: "name", as: String.self))
                let number = try #require(Int(name.dropFirst("Author ".count)))
                let titles = Set(try author.relatedObjects(forKey: "books").map { try $0.value(forKey: "title", as: String.self) ?? "" })
                let expected = Set((0..<(number % 4)).map { "Book \(number).\($0)" })
                #expect(titles == expected, "books of \(name)")
                books += titles.count
                expectedBooks += expected.count
            }
            #expect(books == expectedBooks)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func prefetchingAToOneReadsEveryDestinationInOneStatement(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try makeBooks(store)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            var request = FetchRequest<ManagedObject>(entityName: "Book")
            request.relationshipKeyPathsForPrefetching = ["author"]
            var names: Set<String> = []
            let executed = try store.statements {
                for book in try context.fetch(request) {
                    let author = try #require(try book.relatedObject(forKey: "author"))
                    #expect(!author.isFault)
                    names.insert(try author.value(forKey: "name", as: String.self) ?? "")
                }
            }
            #expect(names.count == 100)
            if kind == .sqlite {
                #expect(executed.count == 2, "one SELECT for the books, one for their authors: \(executed)")
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func prefetchingAToManyAndAPathLoadsEachLevelAtOnce(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try makeBooks(store)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            var request = FetchRequest<ManagedObject>(entityName: "Author")
            request.relationshipKeyPathsForPrefetching = ["books.tags", "books"]
            var titles = 0
            let executed = try store.statements {
                for author in try context.fetch(request) {
                    for book in try author.relatedObjects(forKey: "books") {
                        #expect(!book.values.isEmpty, "a fault holding its row")
                        #expect(try book.relatedObjects(forKey: "tags").isEmpty)
                        titles += 1
                    }
                }
            }
            #expect(titles == 1000)
            if kind == .sqlite {
                // Authors; books with their rows (by their foreign key); tag memberships (no tags).
                #expect(executed.count == 3, "\(executed)")
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func prefetchingAnUnknownKeyIsAnError(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            var request = FetchRequest<ManagedObject>(entityName: "Book")
            request.relationshipKeyPathsForPrefetching = ["autor"]
            try context.insert("Book", ["title": "Dune"])
            let error = #expect(throws: ObjectGraphError.self) { try context.fetch(request) }
            #expect(error?.kind == .unknownKey)
            #expect(error?.message == "Book has no property named 'autor'; did you mean 'author'?")
            request.relationshipKeyPathsForPrefetching = ["title"]
            let attribute = #expect(throws: ObjectGraphError.self) { try context.fetch(request) }
            #expect(attribute?.message.contains("Book.title is an attribute") == true)
        }
    }
}
