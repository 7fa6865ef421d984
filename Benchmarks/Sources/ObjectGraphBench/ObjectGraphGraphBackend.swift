import Foundation
import ObjectGraph

/// The object-graph workloads through ObjectGraph's public, Core Data–style API: relationships
/// set and read by key, prefetching by key path, cascading deletes.
final class ObjectGraphGraphBackend: GraphBackend {
    private let container: PersistentContainer
    private var authorsToDelete: [ManagedObject] = []
    /// The context of the G4 authors, kept alive here because objects refer to it weakly.
    private var deleteContext: ManagedObjectContext?

    init(location: StoreLocation) throws {
        container = try openContainer(model: "BenchmarkGraph.json", at: location)
    }

    func close() throws {
        authorsToDelete = []
        deleteContext = nil
        container.persistentStoreCoordinator.removePersistentStore()
    }

    /// Each author, then its ten books; setting a book's `author` also adds it to the author's
    /// `books` in memory.
    func insertGraph(_ dataset: GraphDataset) throws {
        let context = container.newBackgroundContext()
        for (index, row) in dataset.authors.enumerated() {
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue(row.name, forKey: "name")
            try author.setValue(row.born, forKey: "born")
            for bookRow in dataset.books(of: index) {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue(bookRow.title, forKey: "title")
                try book.setValue(bookRow.pages, forKey: "pages")
                try book.setValue(bookRow.price, forKey: "price")
                try book.setValue(author, forKey: "author")
            }
        }
        try context.save()
    }

    /// One fetch of every book with `author` prefetched (one more statement for all the authors).
    func fetchBooksWithAuthors() throws -> Checksum {
        let context = container.newBackgroundContext()
        var request = FetchRequest<ManagedObject>(entityName: "Book")
        request.relationshipKeyPathsForPrefetching = ["author"]
        var checksum = Checksum()
        for book in try context.fetch(request) {
            guard let author = try book.relatedObject(forKey: "author") else {
                throw VerificationFailure(description: "Book \(book.objectID) has no author")
            }
            checksum.addBook(
                title: try required(book, "title", book.value(forKey: "title", as: String.self)),
                pages: Int64(try required(book, "pages", book.value(forKey: "pages", as: Int32.self))),
                price: try required(book, "price", book.value(forKey: "price", as: Double.self)),
                authorName: try required(author, "name", author.value(forKey: "name", as: String.self)),
                authorBorn: try required(author, "born", author.value(forKey: "born", as: Int64.self)))
        }
        return checksum
    }

    /// One fetch of every author with `books` prefetched (the Core Data way: one more statement
    /// for the memberships, one for the book rows), then author → books for each.
    func walkAuthorsToBooks() throws -> Checksum {
        let context = container.newBackgroundContext()
        var request = FetchRequest<ManagedObject>(entityName: "Author")
        request.relationshipKeyPathsForPrefetching = ["books"]
        var checksum = Checksum()
        for author in try context.fetch(request) {
            var books = BookChecksum()
            for book in try author.relatedObjects(forKey: "books") {
                books.add(
                    title: try required(book, "title", book.value(forKey: "title", as: String.self)),
                    pages: Int64(try required(book, "pages", book.value(forKey: "pages", as: Int32.self))),
                    price: try required(book, "price", book.value(forKey: "price", as: Double.self)))
            }
            checksum.addAuthor(
                name: try required(author, "name", author.value(forKey: "name", as: String.self)),
                born: try required(author, "born", author.value(forKey: "born", as: Int64.self)),
                books: books)
        }
        return checksum
    }

    /// Fetches every author into the context that will delete them (as W5's setup does); their
    /// books are not loaded: finding them is part of the cascade, as it is for raw SQLite.
    func prepareCascadeDelete() throws {
        let context = container.newBackgroundContext()
        authorsToDelete = try context.fetch(FetchRequest<ManagedObject>(entityName: "Author"))
        deleteContext = context
    }

    /// `delete` on each author; the save follows the cascade to their books (one pass for all
    /// authors) and writes everything in one transaction.
    func deleteAuthorsCascading() throws {
        guard let context = deleteContext else { return }
        for author in authorsToDelete { context.delete(author) }
        try context.save()
    }

    /// One request on one context, fetched `queries` times.
    func authorsWithBookTitle(prefix: String, queries: Int) throws -> Checksum {
        let context = container.newBackgroundContext()
        let request = FetchRequest<ManagedObject>(entityName: "Author", predicate: try FetchPredicate(format: "ANY books.title BEGINSWITH %@", prefix))
        var total = Checksum()
        for _ in 0..<queries {
            var checksum = Checksum()
            for author in try context.fetch(request) {
                checksum.addAuthor(
                    name: try required(author, "name", author.value(forKey: "name", as: String.self)),
                    born: try required(author, "born", author.value(forKey: "born", as: Int64.self)),
                    books: BookChecksum())
            }
            total.combine(checksum)
        }
        return total
    }

    /// A value the model requires; a missing one fails the run.
    private func required<T>(_ object: ManagedObject, _ key: String, _ value: T?) throws -> T {
        guard let value else {
            throw VerificationFailure(description: "\(object.entity.name).\(key) of \(object.objectID) is missing")
        }
        return value
    }
}
