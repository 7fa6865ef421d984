import Foundation
import Testing

@testable import ObjectGraph

/// Two processes on one SQLite file: this one fetches the other's transactions after the last
/// token it processed and merges them into a context; nothing is missed and nothing comes twice.
@Suite struct HistoryAcrossProcessesTests {
    @Test func anotherProcessesSavesArriveThroughHistoryOnceEach() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storePath = directory.appendingPathComponent("Conformance.sqlite").path
        let container = try Self.historyContainer(at: storePath)
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let coordinator = container.persistentStoreCoordinator
        let context = container.newBackgroundContext()
        let itemA = try context.performAndWait {
            let item = try context.insertItem("A", ["title": "first"])
            try context.save()
            return item.objectID
        }
        var lastToken = try coordinator.currentPersistentHistoryToken()
        let history = ["OBJECTGRAPH_TEST_WRITER_HISTORY": "1"]

        func writer(_ commands: [String]) throws {
            let outcome = try TestWriterProcess.runTogether([commands], storePath: storePath, in: directory, environment: history)[0]
            try #require(outcome.status == 0, "\(outcome.errors)")
        }
        /// Fetches what came after the last token, merges it into the context, moves the token on.
        func catchUp() throws -> [PersistentHistoryTransaction] {
            let news = try coordinator.fetchHistory(.fetchHistory(after: lastToken))
            context.performAndWait { for transaction in news { context.mergeChanges(transaction.contextChanges) } }
            lastToken = news.last?.token ?? lastToken
            return news
        }

        try writer(["insert", "B", "second", "insert", "C", "third", "retitle", "A", "changed elsewhere"])
        let first = try catchUp()
        #expect(first.count == 3)
        #expect(first.allSatisfy { $0.author == "writer" && $0.contextName == "TestWriter" })
        #expect(first.map { $0.changes.map(\.changeType) } == [[.insert], [.insert], [.update]])
        #expect(first[2].changes[0].changedObjectID == itemA)
        #expect(first[2].changes[0].updatedProperties == ["title"])
        let titles = try context.performAndWait {
            try context.objects("Item", sortedBy: ["code"]).map { try $0.value(forKey: "title") as? String }
        }
        #expect(titles == ["changed elsewhere", "second", "third"])

        try writer(["retitle", "B", "again"])
        let second = try catchUp()
        #expect(second.count == 1, "nothing twice")
        #expect(second.first?.changes.first?.updatedProperties == ["title"])
        #expect(try catchUp().isEmpty)
    }

    /// A loaded container on the conformance model's SQLite store at `storePath`, recording
    /// persistent history, with `configure` applied to its description first.
    static func historyContainer(
        at storePath: String, configure: (inout PersistentStoreDescription) -> Void = { _ in }
    ) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Conformance", managedObjectModel: try ConformanceModel.load())
        var description = PersistentStoreDescription(url: URL(fileURLWithPath: storePath))
        description.recordsPersistentHistory = true
        configure(&description)
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }
}
