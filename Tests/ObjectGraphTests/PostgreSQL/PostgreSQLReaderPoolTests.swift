import Dispatch
import Foundation
import Testing

@testable import ObjectGraph
@testable import ObjectGraphPostgres

/// The PostgreSQL store's reading connections: a read goes on while a save waits inside its
/// transaction, reads on several threads at once use at most the pool's connections, a save is
/// seen by the next read on any thread, a reading connection the server ended is made again, and
/// closing the store lets no read hang and none through afterwards.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "no PostgreSQL server for the tests"))
struct PostgreSQLReaderPoolTests {
    /// A session of the test's own on the store's database, beside the store's.
    private static func session(_ store: TestStore) throws -> PostgreSQLConnection {
        let server = try PostgreSQLTestServer.shared.get()
        return try PostgreSQLConnection(PostgreSQLLocation(server.url(database: try #require(store.database))))
    }

    /// The one number `sql` selects on `connection`.
    private static func number(_ connection: PostgreSQLConnection, _ sql: String, _ bindings: [AttributeValue] = []) throws -> Int64 {
        let row = try #require(try connection.execute(sql, bindings).rows.first)
        guard case .integer(let number) = try PostgreSQLValues.value(of: row[0], as: .integer64) else {
            Issue.record("\(sql) selected no number")
            throw CancellationError()
        }
        return number
    }

    /// How many sessions on `observer`'s database are not its own or `other`'s: the store's.
    private static func storeSessions(seenBy observer: PostgreSQLConnection, besides other: PostgreSQLConnection) throws -> Int64 {
        let pid = try number(other, "SELECT pg_backend_pid()::int8")
        return try number(
            observer,
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND pid <> $1",
            [.integer(pid)])
    }

    /// How many sessions on `observer`'s database wait for a lock another holds.
    private static func sessionsWaitingForALock(seenBy observer: PostgreSQLConnection) throws -> Int64 {
        try number(observer, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")
    }

    /// Waits until `condition` holds; fails the test after a minute.
    private static func wait(for what: String, until condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(60)
        while try !condition() {
            guard Date() < deadline else {
                Issue.record("gave up waiting for \(what)")
                throw CancellationError()
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Work started on a thread of its own, and what it gave once it finished.
    private final class Background<Value: Sendable>: Sendable {
        private let outcome = Locked<Result<Value, any Error>?>(nil)
        private let finished = DispatchSemaphore(value: 0)

        init(_ body: @escaping @Sendable () throws -> Value) {
            Thread.detachNewThread { [outcome, finished] in
                let result = Result { try body() }
                outcome.withLock { $0 = result }
                finished.signal()
            }
        }

        /// What the work gave, or `nil` when it has not finished within `seconds`.
        func result(within seconds: Int) -> Result<Value, any Error>? {
            guard finished.wait(timeout: .now() + .seconds(seconds)) == .success else { return nil }
            finished.signal()
            return outcome.withLock { $0 }
        }
    }

    /// The titles of the stored items by code, read by a new context of `container`.
    private static func titles(_ container: PersistentContainer) throws -> [String: String] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            try Dictionary(
                uniqueKeysWithValues: context.objects("Item").map {
                    (try $0.get("code", as: String.self) ?? "", try $0.get("title", as: String.self) ?? "")
                })
        }
    }

    @Test func aFetchFinishesWhileASaveWaitsInsideItsTransaction() throws {
        let store = try TestStore(.postgreSQL)
        _ = try store.savedItem("A", ["title": "first"])
        _ = try store.savedItem("B", ["title": "other"])
        let container = store.container
        let locker = try Self.session(store)
        defer { locker.close() }
        let observer = try Self.session(store)
        defer { observer.close() }
        // Another session holds the rows, so the store's UPDATE waits inside its transaction.
        try locker.execute("BEGIN")
        try locker.execute("SELECT 1 FROM \"Item\" FOR UPDATE")
        let save = Background {
            let context = container.newBackgroundContext()
            try context.performAndWait {
                try #require(try context.item("A")).setValue("second", forKey: "title")
                try context.save()
            }
        }
        try Self.wait(for: "the save to wait for the row lock") { try Self.sessionsWaitingForALock(seenBy: observer) == 1 }

        let fetch = Background { try Self.titles(container) }
        let fetched = fetch.result(within: 30)
        try locker.execute("ROLLBACK")
        #expect(fetched != nil, "the fetch waited for the save")
        // It saw the last commit, not the save in progress.
        #expect(try fetched?.get() == ["A": "first", "B": "other"])
        try #require(save.result(within: 60)).get()
        #expect(try Self.titles(container) == ["A": "second", "B": "other"])
    }

    @Test func readsOnManyThreadsAtOnceUseAtMostThePoolsConnections() throws {
        let store = try TestStore(.postgreSQL)
        try store.withNewContext { context in
            for number in 1...30 { try context.insertItem("I\(number)", ["i32": number]) }
            try context.save()
        }
        let container = store.container
        let locker = try Self.session(store)
        defer { locker.close() }
        let observer = try Self.session(store)
        defer { observer.close() }
        // While another session holds the table, every read that reached the server waits there.
        try locker.execute("BEGIN")
        try locker.execute("LOCK TABLE \"Item\" IN ACCESS EXCLUSIVE MODE")
        let threads = PostgreSQLReaderPool.capacity * 2
        let reads = (1...threads).map { thread in
            Background {
                let context = container.newBackgroundContext()
                return try context.performAndWait {
                    try context.objects("Item", where: "i32 <= \(thread)", sortedBy: ["i32"]).map { try $0.get("i32", as: Int.self) }
                }
            }
        }
        try Self.wait(for: "a read on every reading connection") {
            try Self.sessionsWaitingForALock(seenBy: observer) == Int64(PostgreSQLReaderPool.capacity)
        }
        // The writer and the readers; the other reads wait for a reader, with no connection.
        #expect(try Self.storeSessions(seenBy: observer, besides: locker) == 1 + Int64(PostgreSQLReaderPool.capacity))
        try locker.execute("ROLLBACK")
        for (index, read) in reads.enumerated() {
            let values = try #require(read.result(within: 60)).get()
            #expect(values == Array(1...index + 1))
        }
        #expect(try Self.storeSessions(seenBy: observer, besides: locker) == 1 + Int64(PostgreSQLReaderPool.capacity))
    }

    @Test func aSaveIsSeenByTheNextReadOnAnotherThread() throws {
        let store = try TestStore(.postgreSQL)
        let container = store.container
        let writer = container.newBackgroundContext()
        let item = try writer.performAndWait {
            let item = try writer.insertItem("A", ["i32": 0])
            try writer.save()
            return item
        }
        for number in 1...20 {
            try writer.performAndWait {
                try item.setValue(number, forKey: "i32")
                try writer.insertItem("N\(number)")
                try writer.save()
            }
            let read = Background {
                let reader = container.newBackgroundContext()
                return try reader.performAndWait {
                    (try reader.item("A")?.get("i32", as: Int.self), try reader.count(for: request("Item")))
                }
            }
            let (value, count) = try #require(read.result(within: 60)).get()
            #expect(value == number)
            #expect(count == number + 1)
        }
    }

    @Test func aReadingConnectionTheServerEndedIsMadeAgainAndTheReadRunsAgain() throws {
        let store = try TestStore(.postgreSQL)
        _ = try store.savedItem("A", ["title": "before"])
        let container = store.container
        #expect(try Self.titles(container) == ["A": "before"])
        let killer = try Self.session(store)
        defer { killer.close() }
        try killer.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
        #expect(try Self.titles(container) == ["A": "before"])
        let context = container.newBackgroundContext()
        #expect(try context.performAndWait { try context.count(for: request("Item")) } == 1)
    }

    @Test func aFirstReadWhileTheServerIsDownFailsClearlyAndOneAfterItIsBackWorks() throws {
        let server = try PostgreSQLTestServer.startOwn()
        defer { try? server.stop(mode: "immediate") }
        let container = PersistentContainer(name: "Conformance", managedObjectModel: try ConformanceModel.load())
        container.persistentStoreDescriptions = [PersistentStoreDescription(postgresURL: server.url(database: try server.createDatabase()))]
        try container.loadPersistentStores()
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            try writer.insertItem("A", ["title": "saved"])
            try writer.save()
        }
        // No read ran yet: the store has no reading connection, and cannot make one now.
        try server.stop(mode: "fast")
        let error = try #require(throws: ObjectGraphError.self) { try Self.titles(container) }
        #expect(error.kind == .storeUnavailable)
        #expect(
            error.message.hasPrefix("Cannot read Item objects: cannot reach the PostgreSQL server at 127.0.0.1:\(server.port)"),
            "\(error.message)")
        try server.start()
        #expect(try Self.titles(container) == ["A": "saved"])
    }

    /// A relationship's rows are read in a transaction of their own: its failure to begin is
    /// explained as the reads inside it are.
    @Test func aRelationshipReadWhileTheServerIsDownFailsClearly() throws {
        let server = try PostgreSQLTestServer.startOwn()
        defer { try? server.stop(mode: "immediate") }
        let model = try ModelFixtures.load(GraphModel.json)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(with: PersistentStoreDescription(postgresURL: server.url(database: try server.createDatabase())))
        defer { coordinator.removePersistentStore() }
        let store = try coordinator.requireStore()
        let author = model.entity(named: "Author")!
        try server.stop(mode: "fast")
        let error = try #require(throws: ObjectGraphError.self) {
            try store.relatedSnapshots(of: author.relationship(named: "books")!, in: author, sources: [1])
        }
        #expect(error.kind == .storeUnavailable)
        #expect(error.message.hasPrefix("Cannot read the books of Author objects: cannot reach the PostgreSQL server"), "\(error.message)")
    }

    @Test func closingTheStoreWhileReadsRunNeitherHangsNorLetsLaterReadsThrough() throws {
        let store = try TestStore(.postgreSQL)
        _ = try store.savedItem("A", ["title": "stored"])
        let container = store.container
        let locker = try Self.session(store)
        defer { locker.close() }
        let observer = try Self.session(store)
        defer { observer.close() }
        try locker.execute("BEGIN")
        try locker.execute("LOCK TABLE \"Item\" IN ACCESS EXCLUSIVE MODE")
        let reads = (1...PostgreSQLReaderPool.capacity + 2).map { _ in Background { try Self.titles(container) } }
        try Self.wait(for: "a read on every reading connection") {
            try Self.sessionsWaitingForALock(seenBy: observer) == Int64(PostgreSQLReaderPool.capacity)
        }
        let persistentStore = try container.persistentStoreCoordinator.requireStore()
        let closing = Background { persistentStore.close() }
        let closed = closing.result(within: 60)
        try locker.execute("ROLLBACK")
        #expect(closed != nil, "closing the store waited for the reads")

        // The reads under way finish; those waiting for a reader find the store closed.
        var finished = 0
        for read in reads {
            switch try #require(read.result(within: 60)) {
            case .success(let titles):
                #expect(titles == ["A": "stored"])
                finished += 1
            case .failure(let error):
                let error = try #require(error as? ObjectGraphError)
                #expect(error.kind == .invalidOperation)
                #expect(error.message.contains("is closed"), "\(error.message)")
            }
        }
        #expect(finished == PostgreSQLReaderPool.capacity)
        let error = try #require(throws: ObjectGraphError.self) { try Self.titles(container) }
        #expect(error.kind == .invalidOperation)
        #expect(error.message.hasSuffix("is closed"), "\(error.message)")
        // Every connection of the store is closed.
        try Self.wait(for: "the store's sessions to end") { try Self.storeSessions(seenBy: observer, besides: locker) == 0 }
    }
}
