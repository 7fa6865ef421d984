import Foundation
import Testing

@testable import ObjectGraph

/// When delete rules are followed, as in Core Data: `delete(_:)` marks the object deleted at
/// once, and its rules are followed (calling `prepareForDeletion()`) when the event ends —
/// `processPendingChanges()`, the end of a `perform` block — or at the latest when the context
/// saves. The library is the one of `insertGraphLibrary()`: Ann wrote Dune (chapters c1, c2,
/// tag scifi, publisher Acme) and Emma; Bob wrote Ulysses. Author.books and Book.chapters
/// cascade; the other relationships nullify.
@Suite struct DeletePropagationTimingTests {
    @Test(arguments: StoreKind.allCases)
    func relationshipsStayReadableUntilTheEventEnds(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.insertGraphLibrary()
        try store.withNewContext { context in
            let ann = try context.one("Author", "name", "Ann")
            let emma = try context.one("Book", "title", "Emma")
            #expect(try ann.names("books", "title") == ["Dune", "Emma"])
            let dune = try context.one("Book", "title", "Dune")
            context.delete(emma)
            context.delete(dune)
            #expect(emma.isDeleted && dune.isDeleted)
            #expect(context.deletedObjects == [emma, dune])
            // Both sides still point at each other: loaded before the delete (Ann's books) and
            // loaded after it (the tag's books, a chapter's book).
            #expect(try emma.relatedName("author") == "Ann")
            #expect(try ann.names("books", "title") == ["Dune", "Emma"])
            #expect(try context.one("Tag", "name", "scifi").names("books", "title") == ["Dune"])
            #expect(try context.one("Chapter", "title", "c1").relatedObject(forKey: "book") === dune)
            #expect(context.updatedObjects.isEmpty)
            #expect(ann.changedValuesForCurrentEvent().isEmpty)

            context.processPendingChanges()
            #expect(try ann.names("books", "title").isEmpty)
            #expect(try context.one("Tag", "name", "scifi").names("books", "title").isEmpty)
            #expect(context.deletedObjects.count == 4, "Dune's chapters went with it")
            #expect(Set(try context.updatedObjects.map { try $0.value(forKey: "name", as: String.self) }) == ["Ann", "scifi", "Acme"])
            try context.save()
        }
        #expect(try store.storedCount("Book") == 1)
        #expect(try store.storedCount("Chapter") == 0)
    }

    /// The event's objects-did-change reports the deletions once, with what their rules
    /// changed: the objects a cascade deleted, and the neighbours that let go, as updated.
    @Test(arguments: StoreKind.allCases)
    func deletesPropagateWhenPendingChangesAreProcessed(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.insertGraphLibrary()
        try store.withNewContext { context in
            let emma = try context.one("Book", "title", "Emma")
            let ann = try context.one("Author", "name", "Ann")
            let (_, whileDeleting) = recordChanges(of: context) { context.delete(emma) }
            #expect(whileDeleting.isEmpty)
            let (_, changes) = recordChanges(of: context) {
                context.processPendingChanges()
                context.processPendingChanges()
            }
            #expect(changes.count == 1)
            #expect(changes.first?.deletedObjectIDs == [emma.objectID])
            #expect(changes.first?.updatedObjectIDs == [ann.objectID])
            #expect(try ann.names("books", "title") == ["Dune"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func deletesPropagateAtTheEndOfAPerformBlock(kind: StoreKind) async throws {
        let store = try TestStore.graph(kind)
        try store.insertGraphLibrary()
        let context = store.newContext()
        let annID = try await context.perform { try context.one("Author", "name", "Ann").objectID }
        let namesInBlock = try await context.perform {
            context.delete(try context.one("Book", "title", "Emma"))
            return try context.existingObject(with: annID).names("books", "title")
        }
        #expect(namesInBlock == ["Dune", "Emma"])
        let namesAfter = try await context.perform { try context.existingObject(with: annID).names("books", "title") }
        #expect(namesAfter == ["Dune"])
    }

    @Test(arguments: StoreKind.allCases)
    @MainActor
    func theViewContextPropagatesDeletesAtTheEndOfTheMainQueuesTurn(kind: StoreKind) async throws {
        let store = try TestStore.graph(kind)
        try store.insertGraphLibrary()
        let context = store.container.viewContext
        let ann = try context.one("Author", "name", "Ann")
        context.delete(try context.one("Book", "title", "Emma"))
        #expect(try ann.names("books", "title") == ["Dune", "Emma"], "not before the turn ends")
        for _ in 0..<200 where try ann.names("books", "title").count > 1 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(try ann.names("books", "title") == ["Dune"])
    }

    /// What a fetched results controller's delegate heard: the title of each changed book.
    final class BookChanges: FetchedResultsControllerDelegate {
        var heard: [String] = []

        func controller(
            _ controller: FetchedResultsController<ManagedObject>, didChange object: ManagedObject, at indexPath: IndexPath?,
            for type: FetchedResultsChangeType, newIndexPath: IndexPath?
        ) {
            heard.append("\(type) \(((try? object.value(forKey: "title", as: String.self)) ?? nil) ?? "?")")
        }
    }

    /// A controller hears the deletions and what their rules changed when the event ends: the
    /// books a cascade deleted, and a book a deleted tag let go of as updated.
    @Test(arguments: StoreKind.allCases)
    func fetchedResultsControllersHearWhatTheRulesChangedWhenTheEventEnds(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.insertGraphLibrary()
        try store.withNewContext { context in
            let books = FetchRequest<ManagedObject>(
                entityName: "Book", predicate: nil, sortDescriptors: [FetchSortDescriptor(key: "title")])
            let controller = FetchedResultsController(fetchRequest: books, managedObjectContext: context)
            let changes = BookChanges()
            controller.delegate = changes
            try controller.performFetch()
            context.delete(try context.one("Tag", "name", "scifi"))
            context.delete(try context.one("Author", "name", "Bob"))
            #expect(changes.heard.isEmpty)
            context.processPendingChanges()
            #expect(changes.heard.sorted() == ["delete Ulysses", "update Dune"])
            #expect(controller.fetchedObjects?.count == 2)
        }
    }

    /// A save follows the rules first, so its will-save notification lists what the cascade
    /// deletes and what the nullified neighbours change, and the save writes all of it.
    @Test(arguments: StoreKind.allCases)
    func deletesPropagateAtSave(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.insertGraphLibrary()
        try store.withNewContext { context in
            context.delete(try context.one("Author", "name", "Ann"))
            #expect(context.deletedObjects.count == 1)
            let (_, willSave) = try recordChanges(of: context, .willSave) { try context.save() }
            #expect(willSave.first?.deletedObjectIDs.count == 5, "Ann, her two books and Dune's two chapters")
            let updated = try willSave.first?.updatedObjectIDs.map {
                try context.existingObject(with: $0).value(forKey: "name", as: String.self)
            }
            #expect(Set(updated ?? []) == ["scifi", "Acme"])
        }
        #expect(try store.storedCount("Author") == 1)
        #expect(try store.storedCount("Book") == 1)
        #expect(try store.storedCount("Chapter") == 0)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            #expect(try context.one("Tag", "name", "scifi").names("books", "title").isEmpty)
            #expect(try context.one("Publisher", "name", "Acme").names("catalog", "title").isEmpty)
        }
    }

    /// Core Data: "If false, the context propagates deletes only during a save operation."
    @Test(arguments: StoreKind.allCases)
    func withoutPropagationAtTheEndOfEventsDeletesWaitForTheSave(kind: StoreKind) async throws {
        let store = try TestStore.graph(kind)
        try store.insertGraphLibrary()
        let context = store.newContext()
        context.propagatesDeletesAtEndOfEvent = false
        let (annID, changes) = try await context.perform {
            let emma = try context.one("Book", "title", "Emma")
            return try recordChanges(of: context) {
                context.delete(emma)
                context.processPendingChanges()
                return try context.one("Author", "name", "Ann").objectID
            }
        }
        // The deletion is reported at the end of its event; Ann changes only at the save.
        #expect(changes.count == 1 && changes.first?.deletedObjectIDs.count == 1)
        #expect(changes.first?.updatedObjectIDs.isEmpty == true)
        let names = try await context.perform { try context.existingObject(with: annID).names("books", "title") }
        #expect(names == ["Dune", "Emma"])
        let (afterSave, saved) = try await context.perform {
            try recordChanges(of: context, .didSave) {
                try context.save()
                return try context.existingObject(with: annID).names("books", "title")
            }
        }
        #expect(afterSave == ["Dune"])
        #expect(saved.first?.updatedObjectIDs == [annID])
        #expect(try store.storedCount("Book") == 2)
    }

    /// A book that records what its `prepareForDeletion()` saw.
    final class WatchedBook: ManagedObject {
        /// One entry per call: whether the book was deleted, its author's name, whether the
        /// author still held it, and how many chapters it had.
        var preparations: [(isDeleted: Bool, author: String?, heldByAuthor: Bool, chapters: Int)] = []
        /// Whether `prepareForDeletion()` deletes the book's publisher too.
        var deletesPublisher = false

        override func prepareForDeletion() {
            let author = try? relatedObject(forKey: "author")
            preparations.append(
                (
                    isDeleted, try? author?.value(forKey: "name", as: String.self),
                    (try? author?.relatedObjects(forKey: "books").contains(self)) == true,
                    (try? relatedObjects(forKey: "chapters").count) ?? -1
                ))
            if deletesPublisher, let publisher = try? relatedObject(forKey: "publisher") {
                managedObjectContext?.delete(publisher)
            }
        }
    }

    /// Ann's two books, as `WatchedBook`s (Dune with two chapters, published by Acme), saved.
    private func insertWatchedBooks(in context: ManagedObjectContext) throws -> (ann: ManagedObject, dune: WatchedBook, emma: WatchedBook) {
        let ann = try context.insert("Author", ["name": "Ann"])
        let dune = try context.insert(WatchedBook.self, entity: "Book")
        let emma = try context.insert(WatchedBook.self, entity: "Book")
        for (book, title) in [(dune, "Dune"), (emma, "Emma")] {
            try book.setValue(title, forKey: "title")
            try book.setValue(ann, forKey: "author")
        }
        try dune.addRelatedObjects(
            [try context.insert("Chapter", ["title": "c1"]), try context.insert("Chapter", ["title": "c2"])], forKey: "chapters")
        try context.insert("Publisher", ["name": "Acme", "catalog": Set<ManagedObject>([dune])])
        try context.save()
        return (ann, dune, emma)
    }

    /// `prepareForDeletion()` runs once per deleted object, when its rules are followed (for the
    /// objects a cascade reaches too), while the object is deleted and its relationships, and
    /// its neighbours' relationships to it, are still intact.
    @Test(arguments: StoreKind.allCases)
    func prepareForDeletionRunsOnceWhenTheRulesAreFollowed(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { context in
            let (ann, dune, emma) = try insertWatchedBooks(in: context)
            context.delete(ann)
            #expect(dune.preparations.isEmpty && emma.preparations.isEmpty)
            context.processPendingChanges()
            #expect(dune.preparations.count == 1 && emma.preparations.count == 1)
            #expect(dune.preparations.first.map { $0.isDeleted && $0.author == "Ann" && $0.heldByAuthor && $0.chapters == 2 } == true)
            #expect(emma.preparations.first.map { $0.isDeleted && $0.author == "Ann" && $0.heldByAuthor && $0.chapters == 0 } == true)
            context.processPendingChanges()
            try context.save()
            #expect(dune.preparations.count == 1 && emma.preparations.count == 1)
        }
        #expect(try store.storedCount("Book") == 0)
    }

    /// A new object deleted leaves the context at once (it has nothing to delete in the store),
    /// and its neighbours when the event ends, calling its `prepareForDeletion()` then.
    @Test(arguments: StoreKind.allCases)
    func aNewObjectDeletedLeavesItsNeighboursWhenTheEventEnds(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { context in
            let (ann, _, _) = try insertWatchedBooks(in: context)
            let draft = try context.insert(WatchedBook.self, entity: "Book")
            try draft.setValue("Draft", forKey: "title")
            try draft.setValue(ann, forKey: "author")
            context.delete(draft)
            #expect(!draft.isInserted && context.insertedObjects.isEmpty)
            #expect(try ann.names("books", "title") == ["Draft", "Dune", "Emma"])
            #expect(draft.preparations.isEmpty)
            context.processPendingChanges()
            #expect(try ann.names("books", "title") == ["Dune", "Emma"])
            #expect(draft.preparations.count == 1)
            try context.save()
        }
        #expect(try store.storedCount("Book") == 2)
    }

    /// Deleting an object from `prepareForDeletion()` deletes it in the same pass, with its own
    /// rules followed.
    @Test(arguments: StoreKind.allCases)
    func deletionsMadeByPrepareForDeletionPropagateInTheSamePass(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { context in
            let (_, dune, emma) = try insertWatchedBooks(in: context)
            let acme = try context.one("Publisher", "name", "Acme")
            dune.deletesPublisher = true
            context.delete(dune)
            context.processPendingChanges()
            #expect(acme.isDeleted)
            #expect(context.deletedObjects.count == 4, "Dune, its chapters and Acme")
            #expect(emma.preparations.isEmpty)
            try context.save()
        }
        #expect(try store.storedCount("Publisher") == 0)
        #expect(try store.storedCount("Book") == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func cascadeChainsAreFollowedToTheEndInOnePass(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { context in
            var parent: ManagedObject?
            for number in 0..<6 {
                let node = try context.insert("Node", ["number": Int64(number), "parent": parent])
                parent = node
            }
            try context.save()
        }
        try store.withNewContext { context in
            let root = try context.one("Node", "number", Int64(0))
            let leaf = try context.one("Node", "number", Int64(5))
            context.delete(root)
            #expect(context.deletedObjects == [root])
            #expect(!leaf.isDeleted)
            context.processPendingChanges()
            #expect(context.deletedObjects.count == 6)
            #expect(leaf.isDeleted)
            try context.save()
        }
        #expect(try store.storedCount("Node") == 0)
    }

    /// Deleted objects are deleted at once: fetches and counts leave them out, and they refuse
    /// changes, while their values and relationships stay readable, before and after the event
    /// ends.
    @Test(arguments: StoreKind.allCases)
    func aDeletedObjectReadsInTheSameEvent(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.insertGraphLibrary()
        try store.withNewContext { context in
            let emma = try context.one("Book", "title", "Emma")
            context.delete(emma)
            #expect(try context.existingObject(with: emma.objectID) === emma)
            #expect(try emma.value(forKey: "title", as: String.self) == "Emma")
            #expect(try context.objects("Book", where: "author.name == 'Ann'").count == 1)
            #expect(try context.count(for: request("Book")) == 2)
            #expect(throws: ObjectGraphError.self) { try emma.setValue("Emma 2", forKey: "title") }
            #expect(throws: ObjectGraphError.self) { try emma.setValue(try context.one("Author", "name", "Bob"), forKey: "author") }
            context.processPendingChanges()
            #expect(try emma.value(forKey: "title", as: String.self) == "Emma")
            #expect(try context.objects("Book").count == 2)
        }
    }

    /// As in Core Data, whose inverse maintenance changes the deleted object too: a book moved
    /// to another author before the event ends is no longer in the deleted author's books, so
    /// the cascade does not reach it.
    @Test(arguments: StoreKind.allCases)
    func aBookMovedAwayBeforeTheEventEndsEscapesTheCascade(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.insertGraphLibrary()
        try store.withNewContext { context in
            let ann = try context.one("Author", "name", "Ann")
            let bob = try context.one("Author", "name", "Bob")
            let emma = try context.one("Book", "title", "Emma")
            context.delete(ann)
            try emma.setValue(bob, forKey: "author")
            #expect(try ann.names("books", "title") == ["Dune"])
            context.processPendingChanges()
            #expect(!emma.isDeleted)
            #expect(try bob.names("books", "title") == ["Emma", "Ulysses"])
            try context.save()
        }
        #expect(try store.storedCount("Book") == 2)
        #expect(try store.storedCount("Book", "author.name == 'Bob'") == 2)
    }

    /// A rollback or a reset before the event ends undoes the deletion: no rule is followed.
    @Test(arguments: StoreKind.allCases)
    func rollbackAndResetBeforeTheEventEndsFollowNoRules(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.insertGraphLibrary()
        try store.withNewContext { context in
            let ann = try context.one("Author", "name", "Ann")
            context.delete(ann)
            context.rollback()
            let (_, changes) = recordChanges(of: context) { context.processPendingChanges() }
            #expect(changes.isEmpty)
            #expect(!ann.isDeleted && !context.hasChanges)
            #expect(try ann.names("books", "title") == ["Dune", "Emma"])

            context.delete(try context.one("Book", "title", "Emma"))
            context.reset()
            context.processPendingChanges()
            #expect(!context.hasChanges)
            #expect(try context.one("Author", "name", "Ann").names("books", "title") == ["Dune", "Emma"])
        }
        #expect(try store.storedCount("Book") == 3)
    }

    /// A child reads the parent's graph with the parent's deletions followed, and the parent
    /// follows the rules of a child's deletions as it takes the child's save (the child followed
    /// them before saving).
    @Test(arguments: StoreKind.allCases)
    func childContextsSeeDeletionsWithTheirRulesFollowed(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.insertGraphLibrary()
        let parent = store.newContext()
        let child = parent.newChildContext()
        try parent.performAndWait {
            #expect(try parent.one("Author", "name", "Ann").names("books", "title") == ["Dune", "Emma"])
            parent.delete(try parent.one("Book", "title", "Emma"))
        }
        try child.performAndWait {
            #expect(try child.one("Author", "name", "Ann").names("books", "title") == ["Dune"])
            child.delete(try child.one("Book", "title", "Dune"))
            try child.save()
        }
        try parent.performAndWait {
            #expect(try parent.one("Author", "name", "Ann").names("books", "title").isEmpty)
            #expect(try parent.objects("Chapter").isEmpty)
            try parent.save()
        }
        #expect(try store.storedCount("Book") == 1)
        #expect(try store.storedCount("Chapter") == 0)
    }
}
