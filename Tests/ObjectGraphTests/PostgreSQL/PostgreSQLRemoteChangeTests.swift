import Foundation
import ObjectGraphPostgres
import Testing

@testable import ObjectGraph

/// What LISTEN/NOTIFY adds on PostgreSQL: catching up after the listening connection was lost,
/// a data generation the row cache can trust while the store listens, and two processes editing
/// the same object with nothing lost.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "no PostgreSQL server for the tests"))
struct PostgreSQLRemoteChangeTests {
    typealias SharedStore = RemoteChangeMergingTests.SharedStore

    @Test func savesMadeWhileTheListenerIsCutOffArriveOnceItListensAgain() throws {
        let store = try SharedStore(.postgreSQL)
        // A long interval: the listener waits a second before connecting again.
        let reader = try store.container { description in
            description.mergesRemoteChanges = true
            description.remoteChangePollInterval = 1
        }
        let writer = try store.container()
        let posted = RemoteChangeMergingTests.PostedTokens(of: reader.persistentStoreCoordinator)
        let context = reader.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        let item = try context.performAndWait {
            let item = try context.insertItem("A", ["title": "first"])
            try context.save()
            return item
        }

        // Ends the listener's connection from the server's side, as a server restart or a
        // network failure would; fails unless exactly one connection listens.
        try PostgreSQLTestServer.shared.get().runSQL(
            """
            DO $$ BEGIN
                IF (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%') <> 1 THEN
                    RAISE EXCEPTION 'not one listening connection';
                END IF;
                PERFORM pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%';
            END $$
            """, in: try #require(store.database))
        try writer.performBackgroundTaskAndWait { context in
            try #require(try context.item("A")).setValue("while cut off", forKey: "title")
            try context.save()
        }

        let caughtUp = try RemoteChangeMergingTests.eventually {
            try context.performAndWait { try item.get("title", as: String.self) } == "while cut off"
        }
        #expect(caughtUp, "the save made while nobody listened was read from the history once the listener was back")
        try writer.performBackgroundTaskAndWait { context in
            try #require(try context.item("A")).setValue("heard again", forKey: "title")
            try context.save()
        }
        #expect(
            try RemoteChangeMergingTests.eventually {
                try context.performAndWait { try item.get("title", as: String.self) } == "heard again"
            })
        Thread.sleep(forTimeInterval: 0.2)
        let tokens = posted.all
        #expect(tokens.count == 2, "each of the writer's saves once: \(tokens)")
        #expect(tokens == tokens.sorted())
    }

    @Test func theDataGenerationHoldsWhileListeningUntilAnotherStoreCommits() throws {
        let store = try SharedStore(.postgreSQL)
        // A period longer than the test: only announced commits move the generation.
        let listening = try store.container { description in
            description.mergesRemoteChanges = true
            description.remoteChangePollInterval = 600
        }
        let other = try store.container()
        let listeningStore = try listening.persistentStoreCoordinator.requireStore()
        let otherStore = try other.persistentStoreCoordinator.requireStore()

        #expect(otherStore.dataGeneration() != otherStore.dataGeneration(), "without a listener nothing is trusted")
        let before = listeningStore.dataGeneration()
        #expect(listeningStore.dataGeneration() == before, "no one committed")
        try other.performBackgroundTaskAndWait { context in
            _ = try context.insertItem("A")
            try context.save()
        }
        #expect(RemoteChangeMergingTests.eventually { listeningStore.dataGeneration() != before }, "the other store's commit was heard")
    }

    @Test func twoProcessesEditingOneObjectLoseNothing() throws {
        let store = try SharedStore(.postgreSQL)
        let container = try store.mergingContainer()
        let view = container.viewContext
        view.automaticallyMergesChangesFromParent = true
        let editor = container.newBackgroundContext()
        let item = try editor.performAndWait {
            let item = try editor.insertItem("A", ["title": "first"])
            try editor.save()
            return item
        }
        let viewed = try view.performAndWait { try #require(try view.item("A")) }

        // The other process changes the title of the object the editor holds.
        try store.runWriter(["retitle", "A", "theirs"])
        try editor.performAndWait {
            try item.setValue("ours", forKey: "note")
            let error = try #require(throws: ObjectGraphError.self) { try editor.save() }
            #expect(error.kind == .mergeConflict)
            #expect(error.mergeConflicts.first?.theirValue(forKey: "title") as? String == "theirs")
            editor.mergePolicy = .mergeByPropertyObjectTrump
            try editor.save()
        }

        let stored = try container.performBackgroundTaskAndWait { context in
            let item = try #require(try context.item("A"))
            return (try item.get("title", as: String.self), try item.get("note", as: String.self))
        }
        #expect(stored == ("theirs", "ours"), "their title and our note")
        let seen = try RemoteChangeMergingTests.eventually {
            try view.performAndWait {
                try viewed.get("title", as: String.self) == "theirs" && viewed.get("note", as: String.self) == "ours"
            }
        }
        #expect(seen, "the view context's object has both changes merged")
    }
}
