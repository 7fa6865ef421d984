import Foundation
import Testing

@testable import ObjectGraph

/// One row, one object per context.
@Suite struct UniquingConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func sameRowIsTheSameInstanceWithinAContext(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let objectID = try store.withNewContext { context in
            try context.insertItem("A1")
            try context.insertItem("B2")
            try context.save()
            return try #require(try context.item("A1")).objectID
        }
        try store.withNewContext { context in
            let first = try #require(try context.item("A1"))
            let second = try #require(try context.objects("Item", sortedBy: ["-code"]).last)
            #expect(first === second)
            #expect(context.object(with: objectID) === first)
            #expect(try context.existingObject(with: objectID) === first)
            #expect(context.registeredObject(for: objectID) === first)
            // B2 was fetched too, but nothing holds it: unchanged objects are registered weakly.
            #expect(context.registeredObjects == [first])
        }
    }

    /// After a save, an inserted object the caller still holds (or another object holds) is the
    /// context's object for its new ID; one nothing held is released and comes back from the store.
    @Test(arguments: StoreKind.allCases)
    func savedInsertsKeepTheirIdentity(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let kept = try context.insertItem("K1")
            _ = try context.insertItem("D1")
            try context.save()
            #expect(!kept.objectID.isTemporaryID)
            #expect(context.registeredObject(for: kept.objectID) === kept)
            #expect(try context.existingObject(with: kept.objectID) === kept)
            #expect(context.registeredObjects == [kept])
            let dropped = try #require(try context.item("D1"))
            #expect(!dropped.objectID.isTemporaryID)
            #expect(try dropped.value(forKey: "code", as: String.self) == "D1")
            #expect(context.object(with: dropped.objectID) === dropped)
            #expect(try context.item("K1") === kept)
        }
    }

    /// Unchanged objects nobody references are released; changed ones stay until saved.
    @Test(arguments: StoreKind.allCases)
    func unchangedObjectsAreReleasedAndChangedOnesKept(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let codes = (1...50).map { "C\($0)" }
        try store.withNewContext { context in
            for code in codes { try context.insertItem(code) }
            try context.save()
            #expect(context.registeredObjects.isEmpty, "saved objects nobody holds are released")
        }
        try store.withNewContext { context in
            weak var released: ManagedObject?
            var changedID: ManagedObjectID?
            do {
                let items = try context.objects("Item", sortedBy: ["code"])
                #expect(context.registeredObjects.count == 50)
                released = items[1]
                try items[0].setValue("changed", forKey: "title")
                changedID = items[0].objectID
            }
            #expect(released == nil)
            #expect(context.registeredObjects.count == 1)
            let id = try #require(changedID)
            let changed = try #require(context.registeredObject(for: id))
            #expect(try changed.value(forKey: "title", as: String.self) == "changed")
            try context.save()
        }
        #expect(try store.storedCount("Item", "title == 'changed'") == 1)
    }

    /// A fault made by `object(with:)` is the instance later fetches return.
    @Test(arguments: StoreKind.allCases)
    func faultFromObjectWithIsReusedByFetch(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let objectID = try store.savedItem("A1", ["title": "t"])
        try store.withNewContext { context in
            let fault = context.object(with: objectID)
            #expect(fault.isFault)
            let fetched = try #require(try context.item("A1"))
            #expect(fetched === fault)
            #expect(!fault.isFault)
            #expect(try fault.get("title", as: String.self) == "t")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func differentContextsGetDifferentInstances(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            try context.insertItem("A1")
            try context.save()
        }
        let a = store.newContext()
        let b = store.newContext()
        try a.performAndWait {
            let inA = try #require(try a.item("A1"))
            try b.performAndWait {
                let inB = try #require(try b.item("A1"))
                #expect(inA !== inB)
                #expect(inA.objectID == inB.objectID)
                #expect(inB.managedObjectContext === b)
                #expect(b.object(with: inA.objectID) === inB)
            }
            #expect(inA.managedObjectContext === a)
        }
    }

    /// A saved insert keeps its instance: fetching it afterwards returns the inserted object.
    @Test(arguments: StoreKind.allCases)
    func savedInsertIsTheFetchedInstance(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("A1")
            try context.save()
            #expect(try context.item("A1") === item)
            #expect(try context.existingObject(with: item.objectID) === item)
        }
    }
}
