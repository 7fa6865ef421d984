import Foundation
import Testing

@testable import ObjectGraph

/// Core Data's timing for reporting unsaved changes: at the end of every `perform` block, and for
/// the view context at the end of the main queue's turn, without the program calling
/// `processPendingChanges()`.
@Suite struct ChangeReportTimingTests {
    /// The objects-did-change change sets `context` posts from now on.
    final class Reports {
        let received = Locked<[ContextChanges]>([])
        private let observer: any NSObjectProtocol

        init(_ context: ManagedObjectContext) {
            let received = received
            observer = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.objectsDidChangeNotification, object: context, queue: nil
            ) { note in
                if let changes = ContextChanges(note) { received.withLock { $0.append(changes) } }
            }
        }

        deinit { NotificationCenter.default.removeObserver(observer) }

        /// Waits (up to `tries` × 10 ms) until `count` reports came.
        func wait(for count: Int, tries: Int = 200) async throws -> [ContextChanges] {
            for _ in 0..<tries where received.withLock({ $0.count }) < count { try await Task.sleep(for: .milliseconds(10)) }
            return received.withLock { $0 }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aPerformBlocksChangesAreReportedWhenItEnds(kind: StoreKind) async throws {
        let store = try TestStore(kind)
        let context = store.newContext()
        let reports = Reports(context)
        let inserted = try await context.perform { try context.insertItem("P1").objectID }
        let received = try await reports.wait(for: 1)
        #expect(received.count == 1)
        #expect(received.first?.insertedObjectIDs == [inserted])
        // A block that changes nothing reports nothing.
        try await context.perform { _ = try context.objects("Item") }
        #expect(try await reports.wait(for: 2, tries: 20).count == 1)
    }

    @Test(arguments: StoreKind.allCases)
    @MainActor
    func theViewContextReportsItsChangesAtTheEndOfTheMainQueuesTurn(kind: StoreKind) async throws {
        let store = try TestStore(kind)
        let context = store.container.viewContext
        let reports = Reports(context)
        let item = try context.insertItem("V1")
        try item.setValue("first", forKey: "title")
        #expect(reports.received.withLock { $0.isEmpty }, "not before the turn ends")
        let received = try await reports.wait(for: 1)
        #expect(received.count == 1, "one report for the turn's changes")
        #expect(received.first?.insertedObjectIDs == [item.objectID])
    }
}
