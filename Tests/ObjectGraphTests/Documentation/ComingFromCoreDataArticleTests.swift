import Foundation
import ObjectGraph
import Testing

/// The side-by-side example of ComingFromCoreData.md.
@Suite struct ComingFromCoreDataArticleTests {
    @Test @MainActor func theSideBySideExampleRuns() throws {
        let directory = try ArticleFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storeURL = directory.appendingPathComponent("Library.sqlite")
        let model = try ArticleFixtures.libraryModel()

        let container = PersistentContainer(name: "Library", managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: storeURL)]
        try container.loadPersistentStores()
        let book = try container.viewContext.insertNewObject(forEntityName: "Book")
        try book.setValue("Kindred", forKey: "title")
        var request = FetchRequest<ManagedObject>(entityName: "Book")
        request.predicate = try FetchPredicate(format: "title BEGINSWITH %@", "Kin")
        request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
        let books = try container.viewContext.fetch(request)

        #expect(books == [book])  // unsaved objects are fetched too
    }
}
