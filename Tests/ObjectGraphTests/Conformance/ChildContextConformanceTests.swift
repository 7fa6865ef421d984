import Foundation
import Testing

@testable import ObjectGraph

/// Child contexts: a child reads through its parent (unsaved changes included), its save goes
/// into the parent only, and the parent's save writes it — inserts, updates, deletes and
/// relationships alike, on every store.
@Suite struct ChildContextConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func aChildSaveReachesTheParentOnlyAndTheParentSaveWritesIt(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let parent = store.newContext(name: "parent")
        let child = parent.newChildContext()
        #expect(child.parent === parent)
        #expect(child.persistentStoreCoordinator === parent.persistentStoreCoordinator)

        let childID = try child.performAndWait {
            let item = try child.insertItem("CHILD", ["title": "from the child"])
            #expect(item.objectID.isTemporaryID)
            try child.save()
            #expect(!child.hasChanges)
            #expect(!item.objectID.isTemporaryID)
            return item.objectID
        }
        #expect(try store.storedCount("Item") == 0)
        try parent.performAndWait {
            #expect(parent.hasChanges)
            let item = try #require(try parent.item("CHILD"))
            #expect(item.isInserted)
            #expect(item.objectID == childID)
            #expect(try parent.existingObject(with: childID) === item)
            #expect(try item.get("title", as: String.self) == "from the child")
            try parent.save()
        }
        try store.reopen()
        try store.withNewContext { context in
            let item = try #require(try context.item("CHILD"))
            #expect(item.objectID.uriRepresentation() == childID.uriRepresentation())
            #expect(try item.get("title", as: String.self) == "from the child")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aChildSeesItsParentsUnsavedChanges(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            try context.insertItem("SAVED", ["title": "old"])
            try context.insertItem("GONE")
            try context.save()
        }
        let parent = store.newContext()
        try parent.performAndWait {
            try parent.insertItem("NEW", ["title": "unsaved"])
            try #require(try parent.item("SAVED")).setValue("changed", forKey: "title")
            parent.delete(try #require(try parent.item("GONE")))
        }
        let child = parent.newChildContext()
        try child.performAndWait {
            let items = try child.objects("Item", sortedBy: ["code"])
            #expect(items.map(\.label) == ["NEW", "SAVED"])
            #expect(try items.map { try $0.get("title", as: String.self) } == ["unsaved", "changed"])
            #expect(try child.count(for: request("Item", where: "title == 'changed'")) == 1)
            #expect(!child.hasChanges)
            // The child edits the parent's unsaved object and saves it back.
            try items[0].setValue("edited in child", forKey: "title")
            try child.save()
        }
        try parent.performAndWait {
            #expect(try parent.item("NEW")?.get("title", as: String.self) == "edited in child")
            try parent.save()
        }
        #expect(try store.storedCount("Item") == 2)
        #expect(try store.storedCount("Item", "title == 'edited in child'") == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func updatesAndDeletesSurviveTheTripThroughTheParent(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            try context.insertItem("KEEP", ["title": "before"])
            try context.insertItem("DROP")
            try context.save()
        }
        let parent = store.newContext()
        let child = parent.newChildContext()
        try child.performAndWait {
            try #require(try child.item("KEEP")).setValue("after", forKey: "title")
            child.delete(try #require(try child.item("DROP")))
            try child.save()
        }
        try parent.performAndWait {
            let keep = try #require(try parent.item("KEEP"))
            #expect(keep.isUpdated)
            #expect(try keep.get("title", as: String.self) == "after")
            #expect(try parent.item("DROP") == nil)
            #expect(parent.deletedObjects.map(\.label) == ["DROP"])
        }
        #expect(try store.storedCount("Item") == 2)
        try parent.performAndWait { try parent.save() }
        #expect(try store.storedCount("Item") == 1)
        #expect(try store.storedCount("Item", "title == 'after'") == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func aChildsRollbackLeavesTheParentUntouched(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let parent = store.newContext()
        let child = parent.newChildContext()
        try child.performAndWait {
            try child.insertItem("SCRATCH")
            child.rollback()
            try child.save()
        }
        try parent.performAndWait { () throws in
            #expect(!parent.hasChanges)
            #expect(try parent.item("SCRATCH") == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func relationshipsMadeInAChildSurviveBothSaves(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        let parent = store.newContext()
        try parent.performAndWait {
            let tag = try parent.insert("Tag", ["name": "classic"])
            try parent.save()
            _ = tag
        }
        let child = parent.newChildContext()
        try child.performAndWait {
            let author = try child.insert("Author", ["name": "Ann"])
            let tag = try child.one("Tag", "name", "classic")
            for title in ["Dune", "Emma"] {
                let book = try child.insert("Book", ["title": title])
                try book.setValue(author, forKey: "author")
                try book.addRelatedObject(tag, forKey: "tags")
                for chapter in ["one", "two", "three"] {
                    let page = try child.insert("Chapter", ["title": "\(title) \(chapter)"])
                    try page.setValue(book, forKey: "book")
                }
            }
            try child.save()
        }
        try parent.performAndWait {
            let ann = try parent.one("Author", "name", "Ann")
            #expect(try ann.names("books", "title") == ["Dune", "Emma"])
            #expect(try parent.one("Tag", "name", "classic").names("books", "title") == ["Dune", "Emma"])
            #expect(try parent.one("Book", "title", "Emma").orderedNames("chapters") == ["Emma one", "Emma two", "Emma three"])
            try parent.save()
        }
        try store.reopen()
        try store.withNewContext { context in
            let dune = try context.one("Book", "title", "Dune")
            #expect(try dune.relatedName("author") == "Ann")
            #expect(try dune.orderedNames("chapters") == ["Dune one", "Dune two", "Dune three"])
            #expect(try dune.names("tags") == ["classic"])
            #expect(try context.one("Author", "name", "Ann").names("books", "title") == ["Dune", "Emma"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aDeleteInAChildFollowsTheDeleteRulesInTheParent(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { context in
            let author = try context.insert("Author", ["name": "Ann"])
            for title in ["Dune", "Emma"] { try context.insert("Book", ["title": title]).setValue(author, forKey: "author") }
            try context.save()
        }
        let parent = store.newContext()
        let child = parent.newChildContext()
        try child.performAndWait {
            child.delete(try child.one("Author", "name", "Ann"))
            try child.save()
        }
        try parent.performAndWait {
            #expect(try parent.objects("Author").isEmpty)
            #expect(try parent.objects("Book").isEmpty)
            try parent.save()
        }
        #expect(try store.storedCount("Book") == 0)
        #expect(try store.storedCount("Author") == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func grandchildrenSaveThroughEveryLevel(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let parent = store.newContext()
        let child = parent.newChildContext()
        let grandchild = child.newChildContext()
        try grandchild.performAndWait {
            try grandchild.insertItem("DEEP", ["title": "three levels"])
            try grandchild.save()
        }
        try child.performAndWait {
            #expect(try child.item("DEEP") != nil)
            try child.save()
        }
        try parent.performAndWait { try parent.save() }
        #expect(try store.storedCount("Item", "title == 'three levels'") == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func aChildsInvalidObjectIsRefusedAtItsOwnSave(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let parent = store.newContext()
        let child = parent.newChildContext()
        try child.performAndWait {
            try child.insertItem("lowercase")
            let error = try #require(throws: ObjectGraphError.self) { try child.save() }
            #expect(error.kind == .validation)
            #expect(child.hasChanges)
        }
        try parent.performAndWait { () throws in #expect(!parent.hasChanges) }
    }
}
