import Foundation
import Synchronization
import Testing

@testable import ObjectGraph

/// `mergesRemoteChanges`: another process's saves to the same SQLite file reach this process's
/// automatically merging contexts by themselves, each once, and this process's own saves are
/// not taken for remote ones.
@Suite struct RemoteChangeMergingTests {
    /// The tokens of the remote-change notifications a coordinator posted.
    final class PostedTokens: Sendable {
        private let tokens = Mutex<[PersistentHistoryToken]>([])
        var all: [PersistentHistoryToken] { tokens.withLock { $0 } }
        func add(_ token: PersistentHistoryToken) { tokens.withLock { $0.append(token) } }
    }

    /// Checks `condition` every 10 ms for up to 10 s; whether it came true.
    static func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return try condition()
    }

    @Test func anotherProcessesSavesAreMergedOnceEachWithoutBeingAsked() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storePath = directory.appendingPathComponent("Conformance.sqlite").path
        let container = try HistoryAcrossProcessesTests.historyContainer(at: storePath) { description in
            description.mergesRemoteChanges = true
            description.remoteChangePollInterval = 0.02
        }
        defer { container.persistentStoreCoordinator.removePersistentStore() }

        let posted = PostedTokens()
        let observer = NotificationCenter.default.addObserver(
            forName: PersistentStoreCoordinator.remoteChangeNotification, object: container.persistentStoreCoordinator, queue: nil
        ) { notification in
            if let token = notification.userInfo?[PersistentStoreCoordinator.historyTokenKey] as? PersistentHistoryToken {
                posted.add(token)
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        let context = container.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        let itemA = try context.performAndWait {
            let item = try context.insertItem("A", ["title": "first"])
            try context.save()
            return item
        }

        let outcome = try TestWriterProcess.runTogether(
            [["insert", "B", "second", "retitle", "A", "changed elsewhere"]], storePath: storePath, in: directory,
            environment: ["OBJECTGRAPH_TEST_WRITER_HISTORY": "1"])[0]
        try #require(outcome.status == 0, "\(outcome.errors)")

        let merged = try Self.eventually {
            try context.performAndWait {
                try itemA.get("title", as: String.self) == "changed elsewhere" && context.count(for: request("Item")) == 2
            }
        }
        #expect(merged, "the other process's saves reached the context")
        // One more save of our own, then time for any stray delivery.
        try context.performAndWait {
            try itemA.setValue("ours", forKey: "title")
            try context.save()
        }
        Thread.sleep(forTimeInterval: 0.2)
        let tokens = posted.all
        #expect(tokens.count == 2, "one notification per save of the other process, none for ours: \(tokens)")
        #expect(tokens == tokens.sorted())
        #expect(try context.performAndWait { try itemA.get("title", as: String.self) } == "ours")
    }

    @Test func mergingRemoteChangesNeedsHistoryAndSaysSo() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = PersistentContainer(name: "Conformance", managedObjectModel: try ConformanceModel.load())
        var description = PersistentStoreDescription(url: directory.appendingPathComponent("Conformance.sqlite"))
        description.mergesRemoteChanges = true
        container.persistentStoreDescriptions = [description]
        let error = try #require(throws: ObjectGraphError.self) { try container.loadPersistentStores() }
        #expect(error.kind == .invalidOperation)
        #expect(error.message.contains("recordsPersistentHistory"), "\(error.message)")
    }
}
