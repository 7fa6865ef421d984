import Foundation
import Testing

@testable import ObjectGraph

/// The concurrency debug switch (`OBJECTGRAPH_CONCURRENCY_DEBUG=1`) stops a process that uses a
/// context or its objects off the context's queue, with a message naming the context and the
/// call; without it, the same program runs. The misuse happens in a child process, since the
/// switch ends the process it catches.
@Suite struct ConcurrencyDebugTests {
    private static let debug = ["OBJECTGRAPH_CONCURRENCY_DEBUG": "1"]

    private func storeWithItem() throws -> TestStore {
        let store = try TestStore(.sqlite)
        try store.withNewContext { context in
            try context.insertItem("A", ["title": "first"])
            try context.save()
        }
        return store
    }

    @Test func aFetchOffTheContextsQueueStopsTheProcess() throws {
        let store = try storeWithItem()
        let outcome = try TestWriterProcess.run(["fetch-off-queue", "A", "-"], on: store, environment: Self.debug)
        #expect(outcome.status != 0)
        #expect(
            outcome.errors.contains(
                "ObjectGraph concurrency violation: fetch(_:) of Item was called on context 'TestWriter' (its private queue)"),
            "\(outcome.errors)")
        #expect(outcome.errors.contains("perform"))
    }

    @Test func readingAnObjectOffItsContextsQueueStopsTheProcess() throws {
        let store = try storeWithItem()
        let outcome = try TestWriterProcess.run(["read-off-queue", "A", "-"], on: store, environment: Self.debug)
        #expect(outcome.status != 0)
        #expect(
            outcome.errors.contains("ObjectGraph concurrency violation: reading title of Item/p1 was called on context 'TestWriter'"),
            "\(outcome.errors)")
        #expect(outcome.output.isEmpty)
    }

    @Test func withoutTheSwitchTheSameProgramRuns() throws {
        let store = try storeWithItem()
        let outcome = try TestWriterProcess.run(
            ["read-off-queue", "A", "-"], on: store, environment: ["OBJECTGRAPH_CONCURRENCY_DEBUG": "0"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output == "first\n")
    }

    @Test func useOnTheQueuePassesTheChecks() throws {
        let store = try storeWithItem()
        let outcome = try TestWriterProcess.run(["retitle", "A", "second"], on: store, environment: Self.debug)
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(try store.storedCount("Item", "title == 'second'") == 1)
    }
}
