import Foundation
import Testing

@testable import ObjectGraph

/// Insert, save, fetch, update and delete, on every store.
@Suite struct CRUDConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func insertAppliesDefaults(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("A1")
            #expect(try item.get("note", as: String.self) == "none")
            #expect(try item.get("i32", as: Int32.self) == 7)
            #expect(try item.get("rating", as: Int16.self) == 3)
            #expect(try item.get("price", as: Double.self) == 9.5)
            #expect(try item.get("flag", as: Bool.self) == true)
            #expect(try item.value(forKey: "title") == nil)
            #expect(try item.value(forKey: "dec") == nil)
            #expect(item.isInserted)
            #expect(item.objectID.isTemporaryID)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func insertSaveFetchBack(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            try context.insertItem("A1", ["title": "first", "i64": 42])
            try context.insertItem("B2", ["title": "second"])
            try context.save()
            #expect(!context.hasChanges)
        }
        #expect(try store.storedCount("Item") == 2)
        try store.withNewContext { context in
            let items = try context.objects("Item", sortedBy: ["code"])
            #expect(items.map(\.label) == ["A1", "B2"])
            #expect(try items[0].get("title", as: String.self) == "first")
            #expect(try items[0].get("i64", as: Int64.self) == 42)
            #expect(try items[0].get("note", as: String.self) == "none")
            #expect(try items[0].get("i32", as: Int32.self) == 7)
            #expect(try items[1].get("i64", as: Int64.self) == nil)
            #expect(items.allSatisfy { !$0.hasChanges && !$0.objectID.isTemporaryID })
        }
    }

    @Test(arguments: StoreKind.allCases)
    func updateAndSave(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            try context.insertItem("A1", ["title": "before", "rating": 1])
            try context.save()
        }
        try store.withNewContext { context in
            let item = try #require(try context.item("A1"))
            try item.setValue("after", forKey: "title")
            try item.setValue(Int16(5), forKey: "rating")
            try item.setValue(nil, forKey: "i64")
            #expect(item.isUpdated)
            try context.save()
            #expect(!item.isUpdated)
            #expect(!context.hasChanges)
        }
        try store.withNewContext { context in
            let item = try #require(try context.item("A1"))
            #expect(try item.get("title", as: String.self) == "after")
            #expect(try item.get("rating", as: Int16.self) == 5)
            #expect(try item.get("note", as: String.self) == "none")
        }
        #expect(try store.storedCount("Item") == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func deleteAndSave(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            for code in ["A1", "B2", "C3"] { try context.insertItem(code) }
            try context.save()
        }
        try store.withNewContext { context in
            let item = try #require(try context.item("B2"))
            context.delete(item)
            #expect(item.isDeleted)
            #expect(context.deletedObjects == [item])
            try context.save()
            #expect(item.managedObjectContext == nil)
            #expect(context.deletedObjects.isEmpty)
            // As in Core Data, a saved deletion is no longer pending: neither deleted nor changed.
            #expect(!item.isDeleted && !item.hasChanges)
            #expect(try item.get("code", as: String.self) == "B2", "its last values stay readable")
        }
        #expect(try store.storedCount("Item") == 2)
        try store.withNewContext { context throws in
            #expect(try context.objects("Item", sortedBy: ["code"]).map(\.label) == ["A1", "C3"])
            #expect(try context.item("B2") == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func countForRequests(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            for (index, code) in ["A1", "B2", "C3", "D4"].enumerated() { try context.insertItem(code, ["rating": index]) }
            try context.save()
            #expect(try context.count(for: request("Item")) == 4)
            #expect(try context.count(for: request("Item", where: "rating >= 2")) == 2)
            #expect(try context.count(for: request("Item", where: "rating > 5")) == 0)
            #expect(try context.count(for: request("Item", limit: 3)) == 3)
            #expect(try context.count(for: request("Item", limit: 3, offset: 2)) == 2)
            #expect(try context.count(for: request("Person")) == 0)
        }
    }

    /// Deleting an unsaved object and inserting it again must save it once.
    @Test(arguments: StoreKind.allCases)
    func deleteThenReinsertUnsavedObjectSavesOnce(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("A1")
            context.delete(item)
            #expect(context.insertedObjects.isEmpty)
            #expect(!context.hasChanges)
            context.insert(item)
            #expect(context.insertedObjects == [item])
            try context.save()
            #expect(!item.objectID.isTemporaryID)
        }
        #expect(try store.storedCount("Item") == 1)
    }

    /// Deletes are applied before inserts, so a save may replace a row by one with the same
    /// unique value.
    @Test(arguments: StoreKind.allCases)
    func deleteAndInsertSameUniqueValueInOneSave(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            try context.insertItem("A1", ["title": "old"])
            try context.save()
            context.delete(try #require(try context.item("A1")))
            try context.insertItem("A1", ["title": "new"])
            try context.save()
        }
        try store.withNewContext { context in
            let items = try context.objects("Item")
            #expect(items.count == 1)
            #expect(try items.first?.get("title", as: String.self) == "new")
        }
    }

    /// Deleting a row that another context already deleted is not an error: the row is gone
    /// either way, and the rest of the save is written.
    @Test(arguments: StoreKind.allCases)
    func deletingARowDeletedElsewhereSucceeds(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            try context.insertItem("A1")
            try context.save()
        }
        let context = store.newContext()
        try context.performAndWait {
            let item = try #require(try context.item("A1"))
            try store.withNewContext { other in
                other.delete(try #require(try other.item("A1")))
                try other.save()
            }
            context.delete(item)
            try context.insertItem("B2")
            try context.save()
            #expect(!context.hasChanges)
        }
        #expect(try store.storedCount("Item") == 1)
        #expect(try store.storedCount("Item", "code == 'B2'") == 1)
    }

    /// A transient value lives in memory only: it is never stored.
    @Test(arguments: StoreKind.allCases)
    func transientIsNotStored(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("A1", ["scratch": "temporary"])
            try context.save()
            #expect(try item.get("scratch", as: String.self) == "temporary")
        }
        try store.withNewContext { context in
            let item = try #require(try context.item("A1"))
            #expect(try item.value(forKey: "scratch") == nil)
        }
    }
}
