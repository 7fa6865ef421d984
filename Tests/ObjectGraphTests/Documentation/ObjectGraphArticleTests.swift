import Foundation
import ObjectGraph
import Testing

/// The example of the catalog's landing page (ObjectGraph.docc/ObjectGraph.md).
@Suite struct ObjectGraphArticleTests {
    @Test @MainActor func theOverviewExampleRuns() throws {
        let directory = try ArticleFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storeURL = directory.appendingPathComponent("Library.sqlite")
        let model = try ArticleFixtures.libraryModel()
        try ArticleFixtures.seed(try ArticleFixtures.libraryContainer(in: directory))

        let container = PersistentContainer(name: "Library", managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: storeURL)]
        try container.loadPersistentStores()

        var request = FetchRequest<ManagedObject>(entityName: "Book")
        request.predicate = try FetchPredicate(format: "author.name == %@ AND inPrint == NO", "Octavia E. Butler")
        for book in try container.viewContext.fetch(request) {
            try book.setValue(true, forKey: "inPrint")
        }
        try container.viewContext.save()  // one transaction

        #expect(try ArticleFixtures.storedTitles(container, where: "inPrint == YES") == ["Dawn", "Kindred"])
    }
}
