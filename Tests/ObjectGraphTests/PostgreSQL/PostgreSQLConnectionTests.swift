import Foundation
import Synchronization
import Testing

@testable import ObjectGraph
@testable import ObjectGraphPostgres

/// The PostgreSQL store's connection: a server restarted under a run of saves, reads after a
/// restart, the timeouts, TLS, and the URL parameters that set them.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "no PostgreSQL server for the tests"))
struct PostgreSQLConnectionTests {
    private static func open(_ url: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Conformance", managedObjectModel: try ConformanceModel.load())
        container.persistentStoreDescriptions = [PersistentStoreDescription(postgresURL: url)]
        try container.loadPersistentStores()
        return container
    }

    private static func error(opening url: URL) throws -> ObjectGraphError {
        do {
            try open(url).persistentStoreCoordinator.removePersistentStore()
        } catch let error as ObjectGraphError {
            return error
        }
        Issue.record("opening \(url) did not fail")
        throw CancellationError()
    }

    /// `url` with `query` appended.
    private static func url(_ url: URL, _ query: String) -> URL {
        URL(string: url.absoluteString + "?" + query)!
    }

    /// Waits until `condition` holds; fails the test after a minute.
    private static func wait(for what: String, until condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(60)
        while !condition() {
            guard Date() < deadline else {
                Issue.record("gave up waiting for \(what)")
                throw CancellationError()
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// One save of the run: its number and what it gave.
    private struct Outcome {
        let save: Int
        let error: ObjectGraphError?
    }

    @Test func aServerRestartedDuringARunOfSavesFailsThemClearlyAndLeavesNoSaveHalfDone() throws {
        let server = try PostgreSQLTestServer.startOwn()
        defer { try? server.stop(mode: "immediate") }
        let container = try Self.open(server.url(database: try server.createDatabase()))
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let outcomes = Locked<[Outcome]>([])
        let stop = Atomic<Bool>(false)
        let saver = DispatchGroup()
        DispatchQueue.global().async(group: saver) {
            var save = 0
            while !stop.load(ordering: .relaxed) {
                save += 1
                let context = container.newBackgroundContext()
                let error = context.performAndWait { () -> ObjectGraphError? in
                    do {
                        for number in 0..<20 { _ = try context.insertItem("S\(save)-\(number)", ["i32": save]) }
                        try context.save()
                        return nil
                    } catch let error as ObjectGraphError {
                        return error
                    } catch {
                        return ObjectGraphError(.invalidOperation, "not an ObjectGraphError: \(error)")
                    }
                }
                outcomes.withLock { $0.append(Outcome(save: save, error: error)) }
            }
        }
        let saved = { outcomes.withLock { $0.count { $0.error == nil } } }
        let failed = { outcomes.withLock { $0.count { $0.error != nil } } }
        try Self.wait(for: "saves before the restart") { saved() >= 10 }
        try server.stop(mode: "fast")
        try Self.wait(for: "saves failing while the server is down") { failed() >= 3 }
        try server.start()
        let savedBeforeRestart = saved()
        try Self.wait(for: "saves after the restart") { saved() >= savedBeforeRestart + 10 }
        stop.store(true, ordering: .relaxed)
        saver.wait()

        let reader = container.newBackgroundContext()
        let stored = try reader.performAndWait {
            try Dictionary(grouping: reader.fetch(FetchRequest<ManagedObject>(entityName: "Item")), by: { try $0.get("i32", as: Int.self) })
                .mapValues(\.count)
        }
        for outcome in outcomes.withLock({ $0 }) {
            let count = stored[outcome.save] ?? 0
            guard let error = outcome.error else {
                #expect(count == 20, "save \(outcome.save) succeeded, \(count) of its 20 objects are stored")
                continue
            }
            #expect(error.kind == .storeUnavailable, "\(error.message)")
            #expect(error.message.contains("PostgreSQL server at 127.0.0.1:\(server.port)"), "\(error.message)")
            #expect(!error.message.contains(PostgreSQLTestServer.password))
            if error.message.contains("lost while committing") {
                #expect(count == 0 || count == 20, "save \(outcome.save): \(count) of its 20 objects are stored")
            } else {
                #expect(
                    error.message.contains("cannot reach the PostgreSQL server") || error.message.contains("nothing was written"),
                    "\(error.message)")
                #expect(count == 0, "save \(outcome.save) failed, yet \(count) of its 20 objects are stored")
            }
        }
    }

    @Test func readsAndSavesAfterARestartConnectAgain() throws {
        let server = try PostgreSQLTestServer.startOwn()
        defer { try? server.stop(mode: "immediate") }
        let container = try Self.open(server.url(database: try server.createDatabase()))
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            _ = try context.insertItem("BEFORE", ["title": "before"])
            try context.save()
        }
        try server.stop(mode: "fast")
        try server.start()
        try context.performAndWait {
            #expect(try context.item("BEFORE")?.get("title", as: String.self) == "before")
            _ = try context.insertItem("AFTER", ["title": "after"])
            try context.save()
        }
        // As a crash: the connection is cut without a word from the server. (What was committed
        // since the last checkpoint may be gone: the test server runs with synchronous_commit=off.)
        try server.stop(mode: "immediate")
        try server.start()
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            #expect(try reader.item("BEFORE")?.get("title", as: String.self) == "before")
            _ = try reader.insertItem("CRASHED", ["title": "after a crash"])
            try reader.save()
            #expect(
                try reader.count(
                    for: FetchRequest<ManagedObject>(entityName: "Item", predicate: FetchPredicate(format: "code == %@", "CRASHED"))) == 1)
        }
    }

    @Test func aServerThatNeverAnswersIsGivenUpAfterTheConnectTimeout() throws {
        let listener = try PostgreSQLTestServer.silentListener()
        defer { close(listener.socket) }
        let url = URL(string: "postgres://\(PostgreSQLTestServer.user):secret@127.0.0.1:\(listener.port)/app?connect_timeout=1")!
        let error = try Self.error(opening: url)
        #expect(error.kind == .storeUnavailable)
        #expect(
            error.message.contains(
                "Cannot open the PostgreSQL store at postgres://\(PostgreSQLTestServer.user)@127.0.0.1:\(listener.port)/app"),
            "\(error.message)")
        #expect(error.message.contains("did not answer within 1 s (connect_timeout=1)"), "\(error.message)")
        #expect(!error.message.contains("secret"))
    }

    @Test func aStatementRunningLongerThanTheStatementTimeoutIsCancelled() throws {
        let server = try PostgreSQLTestServer.shared.get()
        let database = try server.createDatabase()
        defer { server.dropDatabase(database) }
        let container = try Self.open(Self.url(server.url(database: database), "statement_timeout=200ms"))
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        // Another session holds the table, so the store's read waits until the server gives up.
        let locker = try PostgreSQLConnection(PostgreSQLLocation(server.url(database: database)))
        defer { locker.close() }
        try locker.execute("BEGIN")
        try locker.execute("LOCK TABLE \"Item\" IN ACCESS EXCLUSIVE MODE")
        let context = container.newBackgroundContext()
        let error = context.performAndWait {
            #expect(throws: ObjectGraphError.self) { try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")) }
        }
        try locker.execute("ROLLBACK")
        #expect(error?.kind == .busy)
        #expect(
            error?.message.contains("ran longer than the store's statement_timeout (statement_timeout=200ms)") == true,
            "\(error?.message ?? "")")
        // Once the other session lets go, the same read works.
        let count = try context.performAndWait { try context.count(for: FetchRequest<ManagedObject>(entityName: "Item")) }
        #expect(count == 0)
    }

    @Test func requiringTLSOfAServerWithoutItSaysSo() throws {
        let server = try PostgreSQLTestServer.shared.get()
        let error = try Self.error(opening: Self.url(server.url(database: "postgres"), "sslmode=require"))
        #expect(error.kind == .storeUnavailable)
        #expect(
            error.message.contains(
                "Cannot open the PostgreSQL store at postgres://\(PostgreSQLTestServer.user)@127.0.0.1:\(server.port)/postgres"))
        #expect(error.message.contains("the server does not offer TLS, which sslmode=require asks for"), "\(error.message)")
    }

    @Test func aServerWithTLSIsReachedEncrypted() throws {
        let server = try PostgreSQLTestServer.startOwn(tls: true)
        defer { try? server.stop(mode: "immediate") }
        let database = try server.createDatabase()
        for query in ["sslmode=require", "sslmode=prefer", "sslmode=verify-ca&sslrootcert=\(server.certificate)"] {
            let url = Self.url(server.url(database: database), query)
            let connection = try PostgreSQLConnection(PostgreSQLLocation(url))
            defer { connection.close() }
            let encrypted = try connection.execute("SELECT 1 FROM pg_stat_ssl WHERE pid = pg_backend_pid() AND ssl").rows
            #expect(encrypted.count == 1, "\(query)")
        }
        let named = try #require(
            URL(string: "postgres://\(PostgreSQLTestServer.user):\(PostgreSQLTestServer.password)@localhost:\(server.port)/\(database)"))
        let container = try Self.open(Self.url(named, "sslmode=verify-full&sslrootcert=\(server.certificate)"))
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            _ = try context.insertItem("TLS", ["title": "encrypted"])
            try context.save()
            #expect(try context.item("TLS")?.get("title", as: String.self) == "encrypted")
        }
        // The system's authorities never signed the test server's own certificate.
        let untrusted = try Self.error(opening: Self.url(server.url(database: database), "sslmode=verify-ca"))
        #expect(untrusted.kind == .storeUnavailable)
        #expect(untrusted.message.contains("the TLS handshake failed"), "\(untrusted.message)")
    }

    @Test func unknownAndMalformedParametersAreRefused() throws {
        let base = URL(string: "postgres://someone:secret@127.0.0.1:5432/app")!
        let cases = [
            ("connect_timout=5", "has the parameter 'connect_timout', which the store does not know"),
            ("connect_timeout=soon", "sets connect_timeout to 'soon'; it takes a whole number of seconds"),
            ("sslmode=always", "sets sslmode to 'always'; it takes disable, prefer, require, verify-ca, verify-full"),
            (
                "sslmode=require&sslrootcert=/ca.pem",
                "sets sslrootcert to '/ca.pem'; it is used by sslmode=verify-ca and sslmode=verify-full only"
            ),
            ("sslmode=verify-full", "sslmode=verify-full checks that the server's certificate names the host")
        ]
        for (query, expected) in cases {
            let error = try Self.error(opening: Self.url(base, query))
            #expect(error.kind == .storeUnavailable)
            #expect(error.message.contains(expected), "\(error.message)")
            #expect(!error.message.contains("secret"))
        }
    }
}
