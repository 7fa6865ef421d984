import Foundation
import Testing

@testable import ObjectGraph

/// `refresh(_:mergeChanges:)`: bringing an object up to date with rows other contexts changed.
@Suite struct RefreshConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func refreshWithoutMergeDiscardsChangesAndReloads(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("A1", ["title": "stored"])
            try context.save()
            try item.setValue("local", forKey: "title")

            // Another context changes the row meanwhile.
            try store.withNewContext { other in
                try other.item("A1")?.setValue("elsewhere", forKey: "title")
                try other.save()
            }

            try context.refresh(item, mergeChanges: false)
            #expect(item.isFault)
            #expect(!item.isUpdated)
            #expect(!context.hasChanges)
            // The fault reloads on first use, with the store's current values.
            #expect(try item.get("title", as: String.self) == "elsewhere")
            #expect(!item.isFault)
            #expect(item.managedObjectContext === context)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func refreshWithMergeKeepsLocalChangesOnTopOfStoredValues(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("A1", ["title": "stored", "i64": 1, "rating": 1])
            try context.save()
            try item.setValue("local", forKey: "title")

            try store.withNewContext { other in
                let same = try #require(try other.item("A1"))
                try same.setValue(Int64(2), forKey: "i64")
                try same.setValue(4, forKey: "rating")
                try other.save()
            }
            // Until refreshed, the context keeps what it loaded.
            #expect(try item.get("i64", as: Int64.self) == 1)

            try context.refresh(item, mergeChanges: true)
            #expect(try item.get("title", as: String.self) == "local")
            #expect(try item.get("i64", as: Int64.self) == 2)
            #expect(try item.get("rating", as: Int16.self) == 4)
            #expect(item.isUpdated)
            #expect(context.updatedObjects == [item])
            #expect(Set(item.changedValues().keys) == ["title"])
            #expect(try item.committedValues(forKeys: ["i64"])["i64"] as? Int64 == 2)

            try context.save()
        }
        try store.withNewContext { context in
            let item = try #require(try context.item("A1"))
            #expect(try item.get("title", as: String.self) == "local")
            #expect(try item.get("i64", as: Int64.self) == 2)
            #expect(try item.get("rating", as: Int16.self) == 4)
        }
    }

    /// A local change that the store now holds too is no change any more after a merge.
    @Test(arguments: StoreKind.allCases)
    func refreshWithMergeDropsChangesTheStoreAlreadyHas(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("A1", ["title": "stored"])
            try context.save()
            try item.setValue("agreed", forKey: "title")
            try store.withNewContext { other in
                try other.item("A1")?.setValue("agreed", forKey: "title")
                try other.save()
            }
            try context.refresh(item, mergeChanges: true)
            #expect(try item.get("title", as: String.self) == "agreed")
            #expect(!item.isUpdated)
            #expect(context.updatedObjects.isEmpty)
            #expect(!context.hasChanges)
        }
    }

    /// Refreshing an object that is scheduled for deletion keeps it scheduled, even with merged
    /// changes.
    @Test(arguments: StoreKind.allCases)
    func refreshWithMergeOfADeletedObjectKeepsTheDeletion(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("A1")
            try context.save()
            try item.setValue("changed", forKey: "title")
            context.delete(item)
            try context.refresh(item, mergeChanges: true)
            #expect(item.isDeleted)
            #expect(context.deletedObjects == [item])
            try context.save()
        }
        #expect(try store.storedCount("Item") == 0)
    }

    /// Refreshing with merge an object whose row another context deleted throws, and leaves the
    /// context consistent: the next save reports the missing row instead of writing (or crashing).
    @Test(arguments: StoreKind.allCases)
    func refreshWithMergeOfARowDeletedElsewhere(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            try context.insertItem("A1")
            try context.save()
        }
        let context = store.newContext()
        try context.performAndWait {
            let item = try #require(try context.item("A1"))
            try item.setValue("local", forKey: "title")
            try store.withNewContext { other in
                other.delete(try #require(try other.item("A1")))
                try other.save()
            }
            let refreshError = #expect(throws: ObjectGraphError.self) { try context.refresh(item, mergeChanges: true) }
            #expect(refreshError?.kind == .objectNotFound)
            #expect(context.updatedObjects.contains(item) == item.isUpdated)
            // Saving the change of a row deleted elsewhere is a conflict (optimistic locking).
            let saveError = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(saveError?.kind == .mergeConflict)
            #expect(saveError?.objectID == item.objectID)
            #expect(saveError?.mergeConflicts.map(\.kind) == [.deletedInStore])
        }
        #expect(try store.storedCount("Item") == 0)
    }
}
