import Foundation
import ObjectGraphPostgres
import Testing

@testable import ObjectGraph

/// `mergesRemoteChanges`: another process's or coordinator's saves to the same store — a SQLite
/// file, polled; a PostgreSQL database, listened to — reach this process's automatically merging
/// contexts by themselves, each once and in commit order, and this process's own saves are not
/// taken for remote ones.
@Suite struct RemoteChangeMergingTests {
    /// The stores others can write: every kind but the in-memory one.
    static let sharedKinds = StoreKind.allCases.filter(\.keepsDataWhenReopened)

    /// The tokens of the remote-change notifications a coordinator posted.
    final class PostedTokens: Sendable {
        private let tokens = Locked<[PersistentHistoryToken]>([])
        private let observer = Locked<(any NSObjectProtocol)?>(nil)
        var all: [PersistentHistoryToken] { tokens.withLock { $0 } }

        /// Starts collecting the tokens `coordinator` posts, until the value goes away.
        init(of coordinator: PersistentStoreCoordinator) {
            let started = NotificationCenter.default.addObserver(
                forName: PersistentStoreCoordinator.remoteChangeNotification, object: coordinator, queue: nil
            ) { [tokens] notification in
                if let token = notification.userInfo?[PersistentStoreCoordinator.historyTokenKey] as? PersistentHistoryToken {
                    tokens.withLock { $0.append(token) }
                }
            }
            observer.withLock { $0 = started }
        }

        deinit {
            if let observer = observer.withLock({ $0 }) { NotificationCenter.default.removeObserver(observer) }
        }
    }

    /// A store of the conformance model that several containers (and writer processes) share:
    /// a SQLite file or a PostgreSQL database, removed when the value goes away.
    final class SharedStore {
        let kind: StoreKind
        /// Holds the SQLite file, the model JSON and the writer processes' output.
        let directory: URL
        let database: String?
        /// Where a writer process finds the store: the file's path or the database's URL.
        let location: String
        private var containers: [PersistentContainer] = []

        init(_ kind: StoreKind) throws {
            self.kind = kind
            directory = try SQLiteFixtures.makeDirectory()
            if kind == .postgreSQL {
                let server = try PostgreSQLTestServer.shared.get()
                let database = try server.createDatabase()
                self.database = database
                location = server.url(database: database).absoluteString
            } else {
                database = nil
                location = directory.appendingPathComponent("Conformance.sqlite").path
            }
        }

        deinit {
            for container in containers { container.persistentStoreCoordinator.removePersistentStore() }
            try? FileManager.default.removeItem(at: directory)
            if let database, let server = try? PostgreSQLTestServer.shared.get() { server.dropDatabase(database) }
        }

        /// A loaded container on the store, recording history, with `configure` applied to its
        /// description; closed when the store value goes away.
        func container(configure: (inout PersistentStoreDescription) -> Void = { _ in }) throws -> PersistentContainer {
            let container = PersistentContainer(name: "Conformance", managedObjectModel: try ConformanceModel.load())
            var description =
                if kind == .postgreSQL {
                    PersistentStoreDescription(postgresURL: try #require(URL(string: location)))
                } else {
                    PersistentStoreDescription(url: URL(fileURLWithPath: location))
                }
            description.recordsPersistentHistory = true
            configure(&description)
            container.persistentStoreDescriptions = [description]
            try container.loadPersistentStores()
            containers.append(container)
            return container
        }

        /// A container that merges others' saves, looking every 20 ms on SQLite.
        func mergingContainer() throws -> PersistentContainer {
            try container { description in
                description.mergesRemoteChanges = true
                description.remoteChangePollInterval = 0.02
            }
        }

        /// Runs the writer process's `commands` on the store, recording history; requires success.
        func runWriter(_ commands: [String]) throws {
            let outcome = try TestWriterProcess.runTogether(
                [commands], storePath: location, in: directory, environment: ["OBJECTGRAPH_TEST_WRITER_HISTORY": "1"])[0]
            try #require(outcome.status == 0, "\(outcome.errors)")
        }
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

    /// The title of the item with `code` as `context` has it now (nil when it has none).
    static func title(_ code: String, in context: ManagedObjectContext) throws -> String? {
        try context.performAndWait { try context.item(code)?.value(forKey: "title") as? String }
    }

    @Test(arguments: sharedKinds)
    func anotherProcessesSavesAreMergedOnceEachWithoutBeingAsked(kind: StoreKind) throws {
        let store = try SharedStore(kind)
        let container = try store.mergingContainer()
        let posted = PostedTokens(of: container.persistentStoreCoordinator)

        let context = container.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        let itemA = try context.performAndWait {
            let item = try context.insertItem("A", ["title": "first"])
            try context.save()
            return item
        }

        try store.runWriter(["insert", "B", "second", "retitle", "A", "changed elsewhere"])

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

    /// Two coordinators in one process stand for two servers: each one's view context hears the
    /// other's saves, and neither hears its own.
    @Test(arguments: sharedKinds)
    func twoCoordinatorsHearEachOthersSavesBothWays(kind: StoreKind) throws {
        let store = try SharedStore(kind)
        let (first, second) = (try store.mergingContainer(), try store.mergingContainer())
        let (postedToFirst, postedToSecond) = (
            PostedTokens(of: first.persistentStoreCoordinator), PostedTokens(of: second.persistentStoreCoordinator)
        )
        for container in [first, second] { container.viewContext.automaticallyMergesChangesFromParent = true }
        let (firstView, secondView) = (first.viewContext, second.viewContext)

        try first.performBackgroundTaskAndWait { context in
            _ = try context.insertItem("A", ["title": "from first"])
            try context.save()
        }
        // The view context registers a fault for the merged insert; reading the item fetches it.
        #expect(try Self.eventually { try Self.title("A", in: secondView) == "from first" })
        #expect(try Self.title("A", in: firstView) == "from first")

        try second.performBackgroundTaskAndWait { context in
            try #require(try context.item("A")).setValue("from second", forKey: "title")
            _ = try context.insertItem("B", ["title": "also second"])
            try context.save()
        }
        #expect(try Self.eventually { try Self.title("A", in: firstView) == "from second" }, "the merged update reached the view context")
        #expect(try Self.title("B", in: firstView) == "also second")

        Thread.sleep(forTimeInterval: 0.2)
        let history = try first.persistentStoreCoordinator.fetchHistory(.fetchHistory(after: nil)).map(\.token)
        #expect(history.count == 2)
        #expect(postedToSecond.all == [history[0]], "the second heard the first's save once, not its own")
        #expect(postedToFirst.all == [history[1]], "the first heard the second's save once, not its own")
    }

    @Test func aStoreThatDoesNotMergeRemoteChangesKeepsNoListOfItsOwnSaves() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = PersistentContainer(name: "Conformance", managedObjectModel: try ConformanceModel.load())
        var description = PersistentStoreDescription(url: directory.appendingPathComponent("Conformance.sqlite"))
        description.recordsPersistentHistory = true
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        for number in 0..<3 {
            try container.performBackgroundTaskAndWait { context in
                try context.insertNewObject(forEntityName: "Person").setValue("Person \(number)", forKey: "name")
                try context.save()
            }
        }
        let store = try #require(try container.persistentStoreCoordinator.requireStore() as? SQLiteStore)
        #expect(try container.persistentStoreCoordinator.fetchHistory(.fetchHistory(after: nil)).count == 3)
        // Nothing takes the numbers of its own saves when no observer runs, so none are kept.
        #expect(try store.takeOwnHistoryTransactions(through: .max).isEmpty)
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

extension PersistentContainer {
    /// Runs `body` on a new background context's queue and waits for it.
    func performBackgroundTaskAndWait<T>(_ body: (ManagedObjectContext) throws -> T) throws -> T {
        let context = newBackgroundContext()
        return try context.performAndWait { try body(context) }
    }
}
