import Foundation
import Testing

@testable import ObjectGraph

/// Delete rules are applied to the graph in memory when the event of the delete ends (as in Core
/// Data: `processPendingChanges()`, the end of a `perform` block, or a save), and the save writes
/// exactly that, on every store alike. These tests run inside `performAndWait`, which ends no
/// event, so they end it with `processPendingChanges()`. DeletePropagationTimingTests checks
/// the timing itself.
@Suite struct DeleteRuleConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func nullifyRemovesTheDeletedObjectFromItsNeighbours(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.insertGraphLibrary()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let emma = try context.one("Book", "title", "Emma")
            let ann = try context.one("Author", "name", "Ann")
            context.delete(emma)
            context.processPendingChanges()
            // Consistent before the save.
            #expect(try ann.names("books", "title") == ["Dune"])
            #expect(context.updatedObjects == [ann])
            try context.save()
        }
        try store.reopen()
        #expect(try store.storedCount("Book") == 2)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            #expect(try context.one("Author", "name", "Ann").names("books", "title") == ["Dune"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func cascadeDeletesDestinationsTransitively(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.insertGraphLibrary()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let acme = try context.one("Publisher", "name", "Acme")
            try acme.setValue(Set<ManagedObject>(), forKey: "catalog")
            context.delete(try context.one("Author", "name", "Ann"))
            context.processPendingChanges()
            // Ann's books and Dune's chapters go with her; the tag only loses Dune.
            #expect(context.deletedObjects.count == 5)
            #expect(try context.one("Tag", "name", "scifi").relatedObjects(forKey: "books").isEmpty)
            try context.save()
        }
        try store.reopen()
        #expect(try store.storedCount("Author") == 1)
        #expect(try store.storedCount("Book") == 1)
        #expect(try store.storedCount("Chapter") == 0)
        #expect(try store.storedCount("Tag") == 1)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            #expect(try context.one("Tag", "name", "scifi").relatedObjects(forKey: "books").isEmpty)
            #expect(try context.one("Author", "name", "Bob").names("books", "title") == ["Ulysses"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func denyRefusesTheSaveWhileTheRelationshipHoldsObjects(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.insertGraphLibrary()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let acme = try context.one("Publisher", "name", "Acme")
            context.delete(acme)
            let error = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(error?.kind == .validation)
            #expect(
                error?.message.contains(
                    "Publisher/p1, catalog: cannot be deleted while catalog holds 1 object (Book/p1); its delete rule is deny") == true)
            #expect(error?.validationFailures.first?.key == "catalog")
            #expect(acme.isDeleted, "a refused save keeps the context's changes")
            context.rollback()
            try acme.removeRelatedObject(try context.one("Book", "title", "Dune"), forKey: "catalog")
            context.delete(acme)
            try context.save()
        }
        #expect(try store.storedCount("Publisher") == 0)
        #expect(try store.storedCount("Book") == 3)
    }

    @Test(arguments: StoreKind.allCases)
    func noActionLeavesTheDestinationPointingAtTheDeletedObject(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let ann = try context.insert("Employee", ["name": "Ann"])
            let desk = try context.insert("Desk", ["number": 1])
            try desk.setValue(ann, forKey: "owner")
            try context.save()
            // Desk.owner is noAction: deleting the desk leaves Ann's desk pointing at it.
            context.delete(desk)
            #expect(try ann.relatedObject(forKey: "desk") === desk)
            try context.save()
        }
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let ann = try context.one("Employee", "name", "Ann")
            let error = #expect(throws: ObjectGraphError.self) { try ann.relatedObject(forKey: "desk")?.value(forKey: "number") }
            #expect(error?.kind == .objectNotFound)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func deletingANewObjectTakesItOutOfItsNeighbours(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.insertGraphLibrary()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let ann = try context.one("Author", "name", "Ann")
            let draft = try context.insert("Book", ["title": "Draft", "author": ann])
            let chapter = try context.insert("Chapter", ["title": "d1"])
            try draft.addRelatedObject(chapter, forKey: "chapters")
            context.delete(draft)
            context.processPendingChanges()
            #expect(try ann.names("books", "title") == ["Dune", "Emma"])
            #expect(context.insertedObjects.isEmpty, "the new chapter went with its new book (cascade)")
            try context.save()
        }
        #expect(try store.storedCount("Book") == 3)
        #expect(try store.storedCount("Chapter") == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func cascadeThroughAGraphWithCyclesDeletesExactlyWhatIsReachable(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        let count = 10_000
        try store.withNewContext { (context: ManagedObjectContext) throws in
            // Two trees of 5,000 nodes (each node's parent is node / 2 within its tree), with
            // links from every node to a node of its own tree that close cycles back up the tree.
            var nodes: [ManagedObject] = []
            nodes.reserveCapacity(count)
            for number in 0..<count { nodes.append(try context.insert("Node", ["number": Int64(number)])) }
            let half = count / 2
            for tree in 0..<2 {
                let base = tree * half
                for offset in 1..<half {
                    try nodes[base + offset].setValue(nodes[base + (offset - 1) / 2], forKey: "parent")
                    try nodes[base + offset].addRelatedObject(nodes[base + offset / 3], forKey: "links")
                }
            }
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            context.delete(try context.one("Node", "number", Int64(0)))
            context.processPendingChanges()
            #expect(context.deletedObjects.count == count / 2)
            try context.save()
        }
        #expect(try store.storedCount("Node") == count / 2)
        #expect(try store.storedCount("Node", "number < \(count / 2)") == 0)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let root = try context.one("Node", "number", Int64(count / 2))
            #expect(try root.relatedObjects(forKey: "children").count == 2)
            #expect(try root.relatedObjects(forKey: "linkedFrom").count == 2)
        }
    }

    /// Deleting objects one by one in a loop (the usual way) cascades each, while the cascaded
    /// memberships of the objects deleted are read in batches: on SQLite one statement for all
    /// of them, not one per deleted object, since the rules of every object deleted in the event
    /// are followed together when it ends (they used to be followed at each delete, reading the
    /// memberships of up to 1,000 registered neighbours at the first). The authors not deleted
    /// keep everything.
    @Test(arguments: StoreKind.allCases)
    func cascadingDeletesInALoopReadMembershipsInBatches(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            try context.insertAuthors(300) { _ in 3 }
            try context.save()
        }
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let authors = try context.fetch(
                FetchRequest<ManagedObject>(entityName: "Author", predicate: nil, sortDescriptors: [FetchSortDescriptor(key: "name")]))
            // Deleted from the highest key down: the batches reach both ways.
            let doomed = authors.filter { (try? $0.value(forKey: "name", as: String.self))?.hasSuffix("7") == false }
                .sorted { ($0.objectID.primaryKey ?? 0) > ($1.objectID.primaryKey ?? 0) }
            let executed = try store.statements {
                for author in doomed { context.delete(author) }
                context.processPendingChanges()
            }
            #expect(context.deletedObjects.count == doomed.count * 4)
            if kind == .sqlite {
                // The authors' books: one statement for the whole loop (the books' own
                // relationships are read per cascade, since their objects differ each time).
                let booksOfAuthors = executed.filter { $0.contains("FROM \"Book\" WHERE \"author\"") }
                #expect(booksOfAuthors.count == 1, "books of the authors read in batches: \(booksOfAuthors)")
            }
            try context.save()
        }
        #expect(try store.storedCount("Author") == 30)
        #expect(try store.storedCount("Book") == 90)
        #expect(try store.storedCount("Book", "author.name ENDSWITH '7'") == 90)
    }
}
