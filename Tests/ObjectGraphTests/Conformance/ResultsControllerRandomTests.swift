import Foundation
import Testing

@testable import ObjectGraph

/// A fetched results controller under random work: inserts, deletes, and edits of its section
/// key, sort key, predicate key and of a key it does not use, some saved by the controller's own
/// context, some by another context and merged, some shown unsaved and rolled back. After each step, the changes the delegate heard,
/// applied to the sections it had before, give exactly the sections it has now.
@Suite struct ResultsControllerRandomTests {
    /// The controller's sections as names and object IDs, changed by what the delegate hears.
    final class Replica: FetchedResultsControllerDelegate {
        typealias Result = ManagedObject
        var sections: [(name: String, objects: [ManagedObjectID])] = []
        private var deletedObjects: [IndexPath] = []
        private var insertedObjects: [(IndexPath, ManagedObjectID)] = []
        private var deletedSections: [Int] = []
        private var insertedSections: [(Int, String)] = []

        func controller(
            _ controller: FetchedResultsController<ManagedObject>, didChange object: ManagedObject, at indexPath: IndexPath?,
            for type: FetchedResultsChangeType, newIndexPath: IndexPath?
        ) {
            switch type {
            case .insert: insertedObjects.append((newIndexPath!, object.objectID))
            case .delete: deletedObjects.append(indexPath!)
            case .move:
                deletedObjects.append(indexPath!)
                insertedObjects.append((newIndexPath!, object.objectID))
            case .update: break
            }
        }

        func controller(
            _ controller: FetchedResultsController<ManagedObject>, didChange section: FetchedResultsSection<ManagedObject>,
            atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType
        ) {
            if type == .insert { insertedSections.append((sectionIndex, section.name)) } else { deletedSections.append(sectionIndex) }
        }

        /// Applies what it heard as Core Data's delegate contract says: deletions at old index
        /// paths (objects, then sections, last first), then insertions at new ones (sections,
        /// then objects, first first).
        func controllerDidChangeContent(_ controller: FetchedResultsController<ManagedObject>) {
            for path in deletedObjects.sorted(by: >) { sections[path.section].objects.remove(at: path.item) }
            for index in deletedSections.sorted(by: >) { sections.remove(at: index) }
            for (index, name) in insertedSections.sorted(by: { $0.0 < $1.0 }) { sections.insert((name, []), at: index) }
            for (path, id) in insertedObjects.sorted(by: { $0.0 < $1.0 }) { sections[path.section].objects.insert(id, at: path.item) }
            deletedObjects = []
            insertedObjects = []
            deletedSections = []
            insertedSections = []
        }
    }

    @Test(arguments: StoreKind.allCases, [1, 2, 3])
    func reportedChangesRebuildTheSectionsExactly(kind: StoreKind, seed: UInt64) throws {
        let store = try TestStore(kind)
        let context = store.newContext(name: "watched")
        context.automaticallyMergesChangesFromParent = true
        let other = store.newContext(name: "other")
        var request = FetchRequest<ManagedObject>(entityName: "Item")
        request.predicate = try FetchPredicate(format: "flag == YES")
        request.sortDescriptors = [FetchSortDescriptor(key: "rating"), FetchSortDescriptor(key: "i64"), FetchSortDescriptor(key: "code")]
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "rating")
        let replica = Replica()
        var random = SplitMix(seed: seed)
        var next = 0
        try context.performAndWait {
            controller.delegate = replica
            try controller.performFetch()
            replica.sections = (controller.sections ?? []).map { ($0.name, $0.objects.map(\.objectID)) }
        }
        for step in 0..<80 {
            let actor = random.next(3) == 0 ? other : context
            try actor.performAndWait {
                let items = try actor.objects("Item")
                switch items.isEmpty ? 0 : random.next(6) {
                case 0:
                    next += 1
                    _ = try actor.insertItem(
                        "I\(next)", ["flag": random.next(4) != 0, "rating": Int16(random.next(4)), "i64": Int64(random.next(10))])
                case 1:
                    actor.delete(items[random.next(items.count)])
                case 2:
                    try items[random.next(items.count)].setValue(Int16(random.next(4)), forKey: "rating")
                case 3:
                    try items[random.next(items.count)].setValue(Int64(random.next(10)), forKey: "i64")
                case 4:
                    try items[random.next(items.count)].setValue(random.next(2) == 0, forKey: "flag")
                default:
                    try items[random.next(items.count)].setValue("note \(step)", forKey: "note")
                }
                // Now and then the watched context shows the change unsaved, then undoes it.
                if actor === context, random.next(5) == 0 {
                    context.processPendingChanges()
                    context.rollback()
                } else {
                    try actor.save()
                }
            }
            try context.performAndWait {
                // A fetch first: it merges what the other context saved, if that has not run yet.
                let fetched = try context.fetch(request).map(\.objectID)
                let expected = (controller.sections ?? []).map {
                    $0.name + ": " + $0.objects.map { "\($0.objectID)" }.joined(separator: ",")
                }
                let rebuilt = replica.sections.map { $0.name + ": " + $0.objects.map { "\($0)" }.joined(separator: ",") }
                #expect(rebuilt == expected, "seed \(seed), step \(step)")
                // Keep going from the truth, so one wrong step is reported once.
                replica.sections = (controller.sections ?? []).map { ($0.name, $0.objects.map(\.objectID)) }
                #expect(
                    controller.fetchedObjects?.map(\.objectID) == fetched,
                    "seed \(seed), step \(step): the controller holds what a fetch returns")
            }
        }
    }
}

extension ResultsControllerRandomTests {
    @Test(arguments: StoreKind.allCases)
    func theSectionIndexListsEachSectionsFirstLetterOnce(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let context = store.newContext()
        try context.performAndWait {
            for (code, title) in [("A1", "apple"), ("A2", "avocado"), ("B1", "banana"), ("C1", "cherry")] {
                _ = try context.insertItem(code, ["title": title])
            }
            try context.save()
            var request = FetchRequest<ManagedObject>(entityName: "Item")
            request.sortDescriptors = [FetchSortDescriptor(key: "title")]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "title")
            #expect(controller.sectionIndexTitles.isEmpty)
            try controller.performFetch()
            #expect(controller.sections?.map(\.name) == ["apple", "avocado", "banana", "cherry"])
            #expect(controller.sectionIndexTitles == ["A", "B", "C"])
            #expect(controller.section(forSectionIndexTitle: "B", at: 1) == 2)
            #expect(controller.section(forSectionIndexTitle: "Z", at: 0) == nil)
        }
    }
}

extension ResultsControllerRandomTests {
    @Test(arguments: StoreKind.allCases)
    func aRollbackIsFollowedByTheController(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let context = store.newContext()
        try context.performAndWait {
            _ = try context.insertItem("A")
            _ = try context.insertItem("B")
            try context.save()
            var request = FetchRequest<ManagedObject>(entityName: "Item")
            request.sortDescriptors = [FetchSortDescriptor(key: "code")]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context)
            try controller.performFetch()
            func codes() throws -> [String] { try (controller.fetchedObjects ?? []).map { try $0.value(forKey: "code") as? String ?? "?" } }

            _ = try context.insertItem("C")
            context.delete(try #require(try context.item("A")))
            context.processPendingChanges()
            #expect(try codes() == ["B", "C"])
            context.rollback()
            #expect(try codes() == ["A", "B"], "the reported insert left and the reported deletion came back")
        }
    }
}
