import Foundation
import ObjectGraph

/// What the articles' examples take as given: the Library model, a folder for store files, and a
/// store holding an author and a book.
enum ArticleFixtures {
    /// Models/Library.json, as the test target's resources hold it.
    static func libraryModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(named: "Library", in: .module)
    }

    /// A fresh folder under the temporary directory; the caller removes it.
    static func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ObjectGraphArticles-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A loaded container of the Library model on a SQLite file in `directory`.
    static func libraryContainer(
        in directory: URL, configure: (inout PersistentStoreDescription) -> Void = { _ in }
    ) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Library", managedObjectModel: try libraryModel())
        var description = PersistentStoreDescription(url: directory.appendingPathComponent("Library.sqlite"))
        configure(&description)
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }

    /// A seeded Library store's container (``seed(_:)``) in a fresh folder; the caller removes the folder.
    static func seededLibrary() throws -> (PersistentContainer, URL) {
        let directory = try makeDirectory()
        let container = try libraryContainer(in: directory)
        try seed(container)
        return (container, directory)
    }

    /// The stored titles (as ``storedTitles(_:where:)``) of the Library store file at `url`,
    /// opened in a container of its own.
    static func storedTitles(inStoreAt url: URL) throws -> [String] {
        let container = PersistentContainer(name: "Library", managedObjectModel: try libraryModel())
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        try container.loadPersistentStores()
        defer { container.close() }
        return try storedTitles(container)
    }

    /// Inserts a valid author, or a valid book of `author`, in `context` (not saved).
    @discardableResult
    static func insertAuthor(_ name: String, in context: ManagedObjectContext) throws -> ManagedObject {
        let author = try context.insertNewObject(forEntityName: "Author")
        try author.setValue(UUID(), forKey: "id")
        try author.setValue(name, forKey: "name")
        return author
    }

    @discardableResult
    static func insertBook(
        _ title: String, isbn: String, pages: Int? = nil, by author: ManagedObject, in context: ManagedObjectContext
    ) throws -> ManagedObject {
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.setValue(UUID(), forKey: "id")
        try book.setValue(isbn, forKey: "isbn")
        try book.setValue(title, forKey: "title")
        if let pages { try book.setValue(pages, forKey: "pageCount") }
        try book.setValue(author, forKey: "author")
        return book
    }

    /// Saves Octavia E. Butler's Kindred and Dawn (not in print) through a background context.
    static func seed(_ container: PersistentContainer) throws {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = try insertAuthor("Octavia E. Butler", in: context)
            let kindred = try insertBook("Kindred", isbn: "9780807083697", pages: 264, by: author, in: context)
            let dawn = try insertBook("Dawn", isbn: "9780446603775", pages: 248, by: author, in: context)
            try kindred.setValue(false, forKey: "inPrint")
            try dawn.setValue(false, forKey: "inPrint")
            try context.save()
        }
    }

    /// The titles of the stored books, sorted.
    static func storedTitles(_ container: PersistentContainer, where format: String = "TRUEPREDICATE") throws -> [String] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            var request = FetchRequest<ManagedObject>(entityName: "Book")
            request.predicate = try FetchPredicate(format: format)
            request.sortDescriptors = [FetchSortDescriptor(key: "title")]
            return try context.fetch(request).map { try $0.value(forKey: "title", as: String.self) ?? "" }
        }
    }
}
