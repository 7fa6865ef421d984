import Foundation
import Testing

@testable import ObjectGraph

/// `FetchedResultsController`: sections and index paths, and the delegate's account of saves
/// and merges, on every store.
@Suite struct FetchedResultsControllerConformanceTests {
    /// Books (title, genre, pages) by genre, then title.
    static let json = """
        { "name": "Shelf", "version": 1, "entities": [ { "name": "Book", "attributes": [
            { "name": "title", "type": "string" }, { "name": "genre", "type": "string", "optional": true },
            { "name": "pages", "type": "integer32", "default": 100 } ] } ] }
        """

    /// What a delegate heard, one line per call.
    final class Recorder: FetchedResultsControllerDelegate {
        var calls: [String] = []

        func controllerWillChangeContent(_ controller: FetchedResultsController<ManagedObject>) { calls.append("will") }

        func controller(
            _ controller: FetchedResultsController<ManagedObject>, didChange object: ManagedObject, at indexPath: IndexPath?,
            for type: FetchedResultsChangeType, newIndexPath: IndexPath?
        ) {
            let title = (try? object.value(forKey: "title", as: String.self)) ?? nil
            calls.append("\(type) \(title ?? "?") \(indexPath.map(Self.text) ?? "-") \(newIndexPath.map(Self.text) ?? "-")")
        }

        func controller(
            _ controller: FetchedResultsController<ManagedObject>, didChange section: FetchedResultsSection<ManagedObject>,
            atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType
        ) {
            calls.append("section \(type) \(section.name) \(sectionIndex)")
        }

        func controllerDidChangeContent(_ controller: FetchedResultsController<ManagedObject>) { calls.append("did") }

        static func text(_ path: IndexPath) -> String { "\(path.section).\(path.item)" }

        /// The calls since the last take.
        func take() -> [String] {
            defer { calls = [] }
            return calls
        }
    }

    private static func store(_ kind: StoreKind) throws -> TestStore {
        let store = try TestStore(kind, model: { try ManagedObjectModel(data: Data(json.utf8)) })
        try store.withNewContext { context throws in
            for (title, genre) in [("Dune", "sf"), ("Emma", "novel"), ("Hyperion", "sf"), ("Ulysses", "novel")] {
                try context.insertBook(title, genre)
            }
            try context.save()
        }
        try store.reopen()
        return store
    }

    private static func request() -> FetchRequest<ManagedObject> {
        FetchRequest(
            entityName: "Book", predicate: nil, sortDescriptors: [FetchSortDescriptor(key: "genre"), FetchSortDescriptor(key: "title")])
    }

    /// A fetched controller of the books by genre in `context`, and the recorder it tells (the
    /// caller holds it: the delegate is weak).
    private static func watchedBooks(in context: ManagedObjectContext) throws -> (FetchedResultsController<ManagedObject>, Recorder) {
        let recorder = Recorder()
        let controller = FetchedResultsController(fetchRequest: request(), managedObjectContext: context, sectionNameKeyPath: "genre")
        controller.delegate = recorder
        try controller.performFetch()
        return (controller, recorder)
    }

    private static func titles(_ controller: FetchedResultsController<ManagedObject>) -> [[String]] {
        (controller.sections ?? []).map { section in
            section.objects.map { ((try? $0.value(forKey: "title", as: String.self)) ?? nil) ?? "?" }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func sectionsAndIndexPaths(kind: StoreKind) throws {
        let store = try Self.store(kind)
        try store.withNewContext { context throws in
            let controller = FetchedResultsController(
                fetchRequest: Self.request(), managedObjectContext: context, sectionNameKeyPath: "genre")
            #expect(controller.fetchedObjects == nil)
            try controller.performFetch()
            #expect(controller.sections?.map(\.name) == ["novel", "sf"])
            #expect(controller.sections?.map(\.numberOfObjects) == [2, 2])
            #expect(Self.titles(controller) == [["Emma", "Ulysses"], ["Dune", "Hyperion"]])
            #expect(controller.fetchedObjects?.count == 4)
            let hyperion = try controller.object(at: IndexPath(item: 1, section: 1))
            #expect(try hyperion.value(forKey: "title", as: String.self) == "Hyperion")
            #expect(controller.indexPath(forObject: hyperion) == IndexPath(row: 1, section: 1))
            let outside = #expect(throws: ObjectGraphError.self) { try controller.object(at: IndexPath(item: 2, section: 1)) }
            #expect(outside?.message.contains("no object at [1, 2]") == true, "\(outside?.message ?? "")")

            let whole = FetchedResultsController(fetchRequest: Self.request(), managedObjectContext: context)
            try whole.performFetch()
            #expect(whole.sections?.map(\.name) == [""])
            #expect(Self.titles(whole) == [["Emma", "Ulysses", "Dune", "Hyperion"]])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func requestsItCannotFollowAreRefused(kind: StoreKind) throws {
        let store = try Self.store(kind)
        try store.withNewContext { context throws in
            let unsorted = FetchedResultsController(
                fetchRequest: FetchRequest<ManagedObject>(entityName: "Book"), managedObjectContext: context)
            let none = #expect(throws: ObjectGraphError.self) { try unsorted.performFetch() }
            #expect(
                none?.message
                    == "a FetchedResultsController needs a fetch request with sort descriptors: they order its sections and objects")
            let byTitle = FetchRequest<ManagedObject>(
                entityName: "Book", predicate: nil, sortDescriptors: [FetchSortDescriptor(key: "title")])
            let mismatched = FetchedResultsController(fetchRequest: byTitle, managedObjectContext: context, sectionNameKeyPath: "genre")
            let error = #expect(throws: ObjectGraphError.self) { try mismatched.performFetch() }
            #expect(error?.kind == .invalidOperation)
            #expect(error?.message.contains("must sort by its section key path 'genre' (found 'title')") == true)
            let notYet = #expect(throws: ObjectGraphError.self) { try mismatched.object(at: IndexPath(item: 0, section: 0)) }
            #expect(notYet?.message.contains("call performFetch() first") == true)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theDelegateHearsEachSave(kind: StoreKind) throws {
        let store = try Self.store(kind)
        try store.withNewContext { context throws in
            let (controller, recorder) = try Self.watchedBooks(in: context)

            try context.insertBook("Anathem", "sf")
            try context.save()
            #expect(recorder.take() == ["will", "insert Anathem - 1.0", "did"])
            #expect(Self.titles(controller) == [["Emma", "Ulysses"], ["Anathem", "Dune", "Hyperion"]])

            let dune = try controller.object(at: IndexPath(item: 1, section: 1))
            try dune.setValue(412, forKey: "pages")
            try context.save()
            #expect(recorder.take() == ["will", "update Dune 1.1 1.1", "did"])

            try dune.setValue("Zorba", forKey: "title")  // sorts last now
            try context.save()
            #expect(recorder.take() == ["will", "move Zorba 1.1 1.2", "did"])

            let emma = try controller.object(at: IndexPath(item: 0, section: 0))
            try emma.setValue("poetry", forKey: "genre")  // a new section between novel and sf
            try context.save()
            #expect(recorder.take() == ["will", "section insert poetry 1", "move Emma 0.0 1.0", "did"])
            #expect(controller.sections?.map(\.name) == ["novel", "poetry", "sf"])

            context.delete(emma)
            try context.save()
            #expect(recorder.take() == ["will", "section delete poetry 1", "delete Emma 1.0 -", "did"])

            try context.insertBook("Untitled", nil)  // nil sorts first: a section named ""
            try context.save()
            #expect(recorder.take() == ["will", "section insert  0", "insert Untitled - 0.0", "did"])
            #expect(controller.sections?.map(\.name) == ["", "novel", "sf"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anUnsavedObjectStaysTheSameObjectWhenSaved(kind: StoreKind) throws {
        let store = try Self.store(kind)
        try store.withNewContext { context throws in
            let draft = try context.insertBook("Anathem", "sf")
            let (controller, recorder) = try Self.watchedBooks(in: context)
            #expect(controller.indexPath(forObject: draft) == IndexPath(item: 0, section: 1))
            try context.save()  // its ID becomes permanent; it is the same object in the same place
            #expect(recorder.take().isEmpty)
            #expect(controller.indexPath(forObject: draft) == IndexPath(item: 0, section: 1))
        }
    }

    /// `NSFetchedResultsChangeType`'s raw values, for code that stores or compares them.
    @Test func changeTypesHaveCoreDataRawValues() {
        #expect([FetchedResultsChangeType.insert, .delete, .move, .update].map(\.rawValue) == [1, 2, 3, 4])
        #expect(FetchedResultsChangeType(rawValue: 3) == .move)
        #expect(FetchedResultsChangeType(rawValue: 0) == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func unsavedChangesAreHeardWhenProcessed(kind: StoreKind) throws {
        let store = try Self.store(kind)
        try store.withNewContext { context throws in
            let (controller, recorder) = try Self.watchedBooks(in: context)
            context.processPendingChanges()  // nothing unsaved: nothing said
            let anathem = try context.insertBook("Anathem", "sf")
            #expect(recorder.take().isEmpty)
            context.processPendingChanges()
            #expect(recorder.take() == ["will", "insert Anathem - 1.0", "did"])
            #expect(controller.indexPath(forObject: anathem) == IndexPath(item: 0, section: 1))
            try context.save()
            #expect(recorder.take().isEmpty)
            // One edit is reported once, however often changes are processed (it was reported
            // again at each call before).
            try anathem.setValue("Anathem II", forKey: "title")
            context.processPendingChanges()
            #expect(recorder.take() == ["will", "update Anathem II 1.0 1.0", "did"])
            context.processPendingChanges()
            #expect(recorder.take().isEmpty)
            try context.save()
            #expect(recorder.take().isEmpty)
            let emma = try controller.object(at: IndexPath(item: 0, section: 0))
            context.delete(emma)
            context.processPendingChanges()
            #expect(recorder.take() == ["will", "delete Emma 0.0 -", "did"])
            context.rollback()
            try controller.performFetch()
            #expect(Self.titles(controller) == [["Emma", "Ulysses"], ["Anathem II", "Dune", "Hyperion"]])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func mergedSavesOfOtherContextsAreHeard(kind: StoreKind) throws {
        let store = try Self.store(kind)
        let viewing = store.newContext(name: "viewing")
        viewing.automaticallyMergesChangesFromParent = true
        let (controller, recorder) = try viewing.performAndWait { try Self.watchedBooks(in: viewing) }
        try store.withNewContext { other throws in
            try other.insertBook("Beloved", "novel")
            let ulysses = try #require(try other.objects("Book", where: "title == 'Ulysses'").first)
            other.delete(ulysses)
            try other.save()
        }
        viewing.performAndWait {
            #expect(recorder.take() == ["will", "delete Ulysses 0.1 -", "insert Beloved - 0.0", "did"])
            #expect(Self.titles(controller) == [["Beloved", "Emma"], ["Dune", "Hyperion"]])
        }
    }

    @Test func anInsertOrDeleteElsewhereMovesNothing() {
        typealias Diff = FetchedResultsDiff<Int>
        let old = Diff.Layout(sections: [("", [1, 2, 3, 4])])
        let new = Diff.Layout(sections: [("", [5, 1, 3, 4, 2])])
        // 2 changed and moved to the end; 3 changed in place; 5 is new; 1 and 4 only shifted.
        let diff = Diff(from: old, to: new, updated: [2, 3])
        #expect(diff.objectChanges.map(\.type) == [.update, .move, .insert])
        #expect(diff.objectChanges.map(\.key) == [3, 2, 5])
        #expect(diff.objectChanges[0].indexPath == IndexPath(item: 2, section: 0))
        #expect(diff.objectChanges[0].newIndexPath == IndexPath(item: 2, section: 0))
        #expect(diff.objectChanges[1].newIndexPath == IndexPath(item: 4, section: 0))
        #expect(Diff.longestIncreasingRun([3, 1, 2, 5, 4]).count == 3)
        // An unchanged object out of order (its sort key lives elsewhere) moves too.
        #expect(Diff(from: old, to: Diff.Layout(sections: [("", [2, 1, 3, 4])]), updated: []).objectChanges.map(\.type) == [.move])
    }
}

extension ManagedObjectContext {
    @discardableResult
    fileprivate func insertBook(_ title: String, _ genre: String?) throws -> ManagedObject {
        let book = try insertNewObject(forEntityName: "Book")
        try book.setValue(title, forKey: "title")
        try book.setValue(genre, forKey: "genre")
        return book
    }
}
