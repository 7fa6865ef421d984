import Foundation
import ObjectGraph
import Testing

/// The examples of GettingStarted.md, in the article's order, as one program. The synchronous
/// steps run in synchronous functions: in an `async` one, Swift picks the `async` forms of
/// `loadPersistentStores()` and `save()`, which need `await`.
@Suite struct GettingStartedArticleTests {
    @Test @MainActor func theArticleRunsFromStartToEnd() async throws {
        let directory = try ArticleFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (container, model) = try Self.openCreateFetchChangeAndDelete(storeURL: directory.appendingPathComponent("Library.sqlite"))
        try await Self.workInTheBackground(container)
        try Self.testWithAnInMemoryStore(model)
    }

    @MainActor static func openCreateFetchChangeAndDelete(storeURL: URL) throws -> (PersistentContainer, ManagedObjectModel) {
        // Open the store
        let model = try ManagedObjectModel(named: "Library", in: .module)
        let container = PersistentContainer(name: "Library", managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: storeURL)]
        try container.loadPersistentStores()
        let context = container.viewContext

        // Create objects and save them
        let author = try context.insertNewObject(forEntityName: "Author")
        try author.setValue(UUID(), forKey: "id")
        try author.setValue("Octavia E. Butler", forKey: "name")

        let book = try context.insertNewObject(forEntityName: "Book")
        try book.setValue(UUID(), forKey: "id")
        try book.setValue("9780807083697", forKey: "isbn")  // checked against the model's regex at save
        try book.setValue("Kindred", forKey: "title")  // type-checked against the model now
        try book.setValue(264, forKey: "pageCount")  // any integer that fits Int32
        try book.setValue(author, forKey: "author")  // and author.books now holds book
        try context.save()  // one transaction

        #expect(try author.relatedObjects(forKey: "books") == [book])
        #expect(!context.hasChanges)

        // Fetch
        var request = FetchRequest<ManagedObject>(entityName: "Book")
        request.predicate = try FetchPredicate(format: "pageCount > %d AND summary == nil", 250)
        request.sortDescriptors = [FetchSortDescriptor(key: "title")]
        request.fetchLimit = 20
        request.relationshipKeyPathsForPrefetching = ["author"]  // no query per book for its author
        for book in try context.fetch(request) {
            let title = try book.value(forKey: "title", as: String.self) ?? ""
            let author = try book.relatedObject(forKey: "author")?.value(forKey: "name", as: String.self) ?? ""
            print("\(title) by \(author)")
        }
        let count = try context.count(for: FetchRequest<ManagedObject>(entityName: "Book"))

        #expect(try context.fetch(request) == [book])
        #expect(count == 1)

        // Change and delete
        try book.setValue("Kindred (25th anniversary edition)", forKey: "title")
        context.delete(author)
        do {
            try context.save()
        } catch let error as ObjectGraphError where error.kind == .validation {
            print(error)  // names the author, the relationship and the rule
            context.rollback()  // the author is back, the new title is gone
        }
        context.delete(book)
        try context.save()

        #expect(!author.isDeleted)
        #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Book")) == 0)
        #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Author")) == 1)
        return (container, model)
    }

    @MainActor static func workInTheBackground(_ container: PersistentContainer) async throws {
        container.viewContext.automaticallyMergesChangesFromParent = true
        let imported = try await container.performBackgroundTask { context in
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue(UUID(), forKey: "id")
            try author.setValue("Ursula K. Le Guin", forKey: "name")
            try context.save()
            return author.objectID  // IDs cross queues; objects do not
        }
        let sameAuthor = try container.viewContext.existingObject(with: imported)

        #expect(try sameAuthor.value(forKey: "name", as: String.self) == "Ursula K. Le Guin")
    }

    @MainActor static func testWithAnInMemoryStore(_ model: ManagedObjectModel) throws {
        let testContainer = PersistentContainer(name: "Library", managedObjectModel: model)
        testContainer.persistentStoreDescriptions = [.inMemory]
        try testContainer.loadPersistentStores()

        #expect(try testContainer.viewContext.count(for: FetchRequest<ManagedObject>(entityName: "Author")) == 0)
    }
}
