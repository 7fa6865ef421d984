import Foundation
import Observation
import Testing

@testable import ObjectGraph

/// Swift's Observation on managed objects: `withObservationTracking` sees the properties read and
/// is told once of a change to one of them — set locally, merged from another context's save,
/// refreshed, rolled back — and of nothing else.
@Suite struct ObservationConformanceTests {
    /// How many times an `onChange` ran.
    final class ChangeCount: Sendable {
        private let count = Locked(0)
        var value: Int { count.withLock { $0 } }
        func add() { count.withLock { $0 += 1 } }
    }

    /// Tracks what `read` reads; the returned count goes up each time `onChange` runs.
    static func track(_ read: () throws -> Void) throws -> ChangeCount {
        let changes = ChangeCount()
        let result = withObservationTracking {
            Result { try read() }
        } onChange: {
            changes.add()
        }
        try result.get()
        return changes
    }

    /// A private-queue context that tracks observation (private contexts do not by default).
    static func observedContext(_ store: TestStore) -> ManagedObjectContext {
        let context = store.newContext()
        context.performAndWait { context.tracksObservation = true }
        return context
    }

    @Test func mainQueueContextsTrackObservationAndPrivateOnesDoNot() throws {
        let store = try TestStore(.inMemory)
        #expect(store.container.viewContext.tracksObservation)
        let context = store.newContext()
        let tracks = context.performAndWait { context.tracksObservation }
        #expect(!tracks)
    }

    @Test(arguments: StoreKind.allCases)
    func aLocalWriteIsToldOnceAndOtherPropertiesAreNot(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let context = Self.observedContext(store)
        try context.performAndWait {
            let item = try context.insertItem("A1", ["title": "first"])
            let other = try context.insertItem("B1")
            try context.save()
            let changes = try Self.track { _ = try item.value(forKey: "title") }
            try item.setValue("note", forKey: "note")
            try other.setValue("other", forKey: "title")
            #expect(changes.value == 0, "another property or object changed")
            try item.setValue("second", forKey: "title")
            try item.setValue("third", forKey: "title")
            #expect(changes.value == 1)
            #expect(try item.get("title", as: String.self) == "third")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func typedReadsAndKeyPathsAreSeen(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let context = Self.observedContext(store)
        try context.performAndWait {
            let item = try context.insertItem("A1", ["i32": 1])
            let byType = try Self.track { _ = try item.value(forKey: "i32", as: Int.self) }
            let byPath = try Self.track { _ = try item.value(forKeyPath: "i32") }
            try item.setValue(2, forKey: "i32")
            #expect(byType.value == 1)
            #expect(byPath.value == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func contextsThatDoNotTrackTellNoOne(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("A1")
            let changes = try Self.track { _ = try item.value(forKey: "title") }
            try item.setValue("changed", forKey: "title")
            #expect(changes.value == 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aMergedRemoteWriteIsToldOnce(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let itemID = try store.savedItem("A1", ["title": "before"])
        let context = Self.observedContext(store)
        context.automaticallyMergesChangesFromParent = true
        let (item, changes, untouched) = try context.performAndWait {
            let item = try context.existingObject(with: itemID)
            return (item, try Self.track { _ = try item.value(forKey: "title") }, try Self.track { _ = try item.value(forKey: "note") })
        }
        try store.withNewContext { writer in
            try writer.existingObject(with: itemID).setValue("after", forKey: "title")
            try writer.save()
        }
        try context.performAndWait { () throws in
            #expect(changes.value == 1)
            #expect(untouched.value == 0, "the merge did not change note")
            #expect(try item.get("title", as: String.self) == "after")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func refreshAndRollbackAreTold(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let itemID = try store.savedItem("A1", ["title": "saved"])
        let context = Self.observedContext(store)
        try context.performAndWait {
            let item = try context.existingObject(with: itemID)
            let refreshed = try Self.track { _ = try item.value(forKey: "title") }
            try context.refresh(item, mergeChanges: false)
            #expect(refreshed.value == 1)

            try item.setValue("edited", forKey: "title")
            let rolledBack = try Self.track { _ = try item.value(forKey: "title") }
            context.rollback()
            #expect(rolledBack.value == 1)
            #expect(try item.get("title", as: String.self) == "saved")

            let unchanged = try Self.track { _ = try item.value(forKey: "note") }
            try item.setValue("edited again", forKey: "title")
            context.rollback()
            #expect(unchanged.value == 0, "rolling back title leaves note's observers alone")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func relationshipChangesTellBothEnds(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        let context = Self.observedContext(store)
        try context.performAndWait {
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue("Le Guin", forKey: "name")
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue("The Dispossessed", forKey: "title")
            try context.save()
            let books = try Self.track { _ = try author.relatedObjects(forKey: "books") }
            let bookAuthor = try Self.track { _ = try book.relatedObject(forKey: "author") }
            try author.addRelatedObject(book, forKey: "books")
            #expect(books.value == 1)
            #expect(bookAuthor.value == 1, "the inverse changed too")
            #expect(try book.relatedObject(forKey: "author") === author)

            let count = try Self.track { _ = try author.mutableSetValue(forKey: "books").count() }
            try book.setValue(nil, forKey: "author")
            #expect(count.value == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anObjectThatLeavesTheContextTellsNoOneLater(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let itemID = try store.savedItem("A1")
        let context = Self.observedContext(store)
        try context.performAndWait {
            let changes = try Self.track { _ = try context.existingObject(with: itemID).value(forKey: "title") }
            context.reset()
            // The next object for the row is another object, with observers of its own.
            try context.existingObject(with: itemID).setValue("new", forKey: "title")
            #expect(changes.value == 0)
        }
    }

    @Test func turningTrackingOffStopsTellingObservers() throws {
        let store = try TestStore(.inMemory)
        let context = Self.observedContext(store)
        try context.performAndWait {
            let item = try context.insertItem("A1")
            let changes = try Self.track { _ = try item.value(forKey: "title") }
            context.tracksObservation = false
            try item.setValue("changed", forKey: "title")
            #expect(changes.value == 0)
        }
    }
}
