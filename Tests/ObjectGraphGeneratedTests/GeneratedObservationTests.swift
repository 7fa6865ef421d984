import Foundation
import ObjectGraph
import Observation
import Testing

/// Generated classes in Swift's Observation: their properties are seen by
/// `withObservationTracking`, on the view context, which tracks observation by default.
@Suite struct GeneratedObservationTests {
    final class ChangeCount: Sendable {
        private let count = Locked(0)
        var value: Int { count.withLock { $0 } }
        func add() { count.withLock { $0 += 1 } }
    }

    @Test(arguments: StoreKind.allCases)
    func generatedPropertiesAreObserved(_ kind: StoreKind) throws {
        let store = try CatalogStore(kind)
        let context = store.context
        let author = Author(context: context)
        author.id = UUID()
        author.name = "Ursula K. Le Guin"
        let book = CatalogBook(context: context)
        book.title = "The Dispossessed"
        try context.save()

        let titleChanges = ChangeCount()
        let title = withObservationTracking {
            book.title
        } onChange: {
            titleChanges.add()
        }
        let booksChanges = ChangeCount()
        _ = withObservationTracking {
            author.books
        } onChange: {
            booksChanges.add()
        }
        #expect(title == "The Dispossessed")

        book.author = author  // the to-many on the other end changes too
        #expect(titleChanges.value == 0)
        #expect(booksChanges.value == 1)
        book.title = "The Left Hand of Darkness"
        book.title = "Lavinia"
        #expect(titleChanges.value == 1)
    }

    /// Swift's `Observations` sequence over a generated property of a view-context object: the
    /// current value, then each new one.
    ///
    /// No time limit: a limit counts from the test case's start, and under ThreadSanitizer on two
    /// cores the main actor's queue of other tests' work alone once took more than a minute.
    @Test(arguments: StoreKind.allCases) @MainActor
    func observationsYieldsEachNewValue(_ kind: StoreKind) async throws {
        let store = try CatalogStore(kind)
        let book = CatalogBook(context: store.context)
        book.title = "The Lathe of Heaven"
        var titles = Observations { book.title }.makeAsyncIterator()
        #expect(await titles.next() == "The Lathe of Heaven")
        book.title = "The Word for World Is Forest"
        #expect(await titles.next() == "The Word for World Is Forest")
    }
}
