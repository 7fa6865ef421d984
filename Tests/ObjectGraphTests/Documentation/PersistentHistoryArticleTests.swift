import Foundation
import ObjectGraph
import Testing

/// The examples of PersistentHistory.md: history turned on, saved by an importer, fetched,
/// merged into the view context and trimmed.
@Suite struct PersistentHistoryArticleTests {
    @Test @MainActor func historyIsRecordedFetchedMergedAndTrimmed() throws {
        let directory = try ArticleFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storeURL = directory.appendingPathComponent("Library.sqlite")
        let container = PersistentContainer(name: "Library", managedObjectModel: try ArticleFixtures.libraryModel())
        func loadSavedToken() -> PersistentHistoryToken? { nil }

        var description = PersistentStoreDescription(url: storeURL)
        description.recordsPersistentHistory = true          // NSPersistentHistoryTrackingKey
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()

        let context = container.newBackgroundContext()
        context.name = "importer"
        context.transactionAuthor = "nightly-import"         // recorded with each save

        try context.performAndWait {
            let author = try ArticleFixtures.insertAuthor("Octavia E. Butler", in: context)
            try ArticleFixtures.insertBook("Kindred", isbn: "9780807083697", by: author, in: context)
            try context.save()
        }
        let viewContext = container.viewContext

        let coordinator = container.persistentStoreCoordinator
        var lastToken: PersistentHistoryToken? = loadSavedToken()   // tokens are Codable

        let news = try coordinator.fetchHistory(.fetchHistory(after: lastToken))
        for transaction in news {
            viewContext.mergeChanges(transaction.contextChanges)      // Core Data's objectIDNotification()
        }
        lastToken = news.last?.token ?? lastToken

        try coordinator.deleteHistory(.deleteHistory(before: lastToken))   // trim what every reader has seen

        #expect(news.count == 1)
        #expect(news.first?.author == "nightly-import")
        #expect(news.first?.contextName == "importer")
        #expect(news.first?.changes.count == 2)
        #expect(try coordinator.fetchHistory(.fetchHistory(after: nil)).map(\.token) == [lastToken])
    }
}
