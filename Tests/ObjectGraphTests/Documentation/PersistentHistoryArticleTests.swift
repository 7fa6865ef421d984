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
        description.recordsPersistentHistory = true  // NSPersistentHistoryTrackingKey
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()

        let context = container.newBackgroundContext()
        context.name = "importer"
        context.transactionAuthor = "nightly-import"  // recorded with each save

        try context.performAndWait {
            let author = try ArticleFixtures.insertAuthor("Octavia E. Butler", in: context)
            try ArticleFixtures.insertBook("Kindred", isbn: "9780807083697", by: author, in: context)
            try context.save()
        }
        let viewContext = container.viewContext

        let coordinator = container.persistentStoreCoordinator
        var lastToken: PersistentHistoryToken? = loadSavedToken()  // tokens are Codable

        let news = try coordinator.fetchHistory(.fetchHistory(after: lastToken))
        for transaction in news {
            viewContext.mergeChanges(transaction.contextChanges)  // Core Data's objectIDNotification()
        }
        lastToken = news.last?.token ?? lastToken

        try coordinator.deleteHistory(.deleteHistory(before: lastToken))  // trim what every reader has seen

        #expect(news.count == 1)
        #expect(news.first?.author == "nightly-import")
        #expect(news.first?.contextName == "importer")
        #expect(news.first?.changes.count == 2)
        #expect(try coordinator.fetchHistory(.fetchHistory(after: nil)).map(\.token) == [lastToken])
    }

    @Test func anotherCoordinatorsSavesAreMergedByThemselves() throws {
        let directory = try ArticleFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storeURL = directory.appendingPathComponent("Library.sqlite")

        var shared = PersistentStoreDescription(url: storeURL)
        shared.recordsPersistentHistory = true
        shared.mergesRemoteChanges = true  // others' saves reach merging contexts
        shared.remoteChangePollInterval = 0.05  // seconds; 0.1 by default

        // Two containers on one file stand for two processes: the reader learns of the writer's save.
        func loaded() throws -> PersistentContainer {
            let container = PersistentContainer(name: "Library", managedObjectModel: try ArticleFixtures.libraryModel())
            container.persistentStoreDescriptions = [shared]
            try container.loadPersistentStores()
            return container
        }
        let reader = try loaded()
        let writer = try loaded()
        defer {
            reader.persistentStoreCoordinator.removePersistentStore()
            writer.persistentStoreCoordinator.removePersistentStore()
        }
        let writing = writer.newBackgroundContext()
        let authorID = try writing.performAndWait {
            let author = try ArticleFixtures.insertAuthor("Ursula Le Guin", in: writing)
            try writing.save()
            return author.objectID
        }
        let context = reader.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        // Each container loaded its own model: the ID crosses over as a URI, as between processes.
        let readerID = try #require(reader.persistentStoreCoordinator.managedObjectID(forURIRepresentation: authorID.uriRepresentation()))
        let author = try context.performAndWait { try context.existingObject(with: readerID) }
        try writing.performAndWait {
            try writing.existingObject(with: authorID).setValue("Ursula K. Le Guin", forKey: "name")
            try writing.save()
        }
        // The reader's object is not fetched again: only the merge brings the new name.
        let deadline = Date().addingTimeInterval(10)
        var name = try context.performAndWait { try author.value(forKey: "name") as? String }
        while name != "Ursula K. Le Guin", Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
            name = try context.performAndWait { try author.value(forKey: "name") as? String }
        }
        #expect(name == "Ursula K. Le Guin")
    }
}
