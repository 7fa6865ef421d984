import Foundation
import Testing

@testable import ObjectGraph

/// A merge that would change a property the context has changed and not saved: it is held back
/// and the save meets the conflict under the context's merge policy, so no acknowledged save is
/// lost (Core Data lets the unsaved value win silently here). On every store.
@Suite struct MergeClashConformanceTests {
    /// A counter read by two contexts; `merging` merges automatically with the default `.error` policy.
    private struct Counter {
        let store: TestStore
        let id: ManagedObjectID
        let merging: ManagedObjectContext
        let other: ManagedObjectContext

        init(_ kind: StoreKind) throws {
            store = try TestStore(kind)
            id = try store.savedItem("COUNTER", ["i64": 0])
            merging = store.newContext(name: "merging")
            merging.automaticallyMergesChangesFromParent = true
            other = store.newContext(name: "other")
        }

        /// Reads the counter in `context` and adds one to it, without saving.
        func increment(in context: ManagedObjectContext) throws {
            try context.performAndWait {
                let item = try context.existingObject(with: id)
                try item.setValue((try item.get("i64", as: Int.self) ?? 0) + 1, forKey: "i64")
            }
        }

        func otherIncrementsAndSaves() throws {
            try increment(in: other)
            try other.performAndWait { try other.save() }
        }

        var stored: Int? {
            get throws { try store.withNewContext { try $0.existingObject(with: id).get("i64", as: Int.self) } }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anAutomaticMergeDoesNotHideAConflictingSave(kind: StoreKind) throws {
        let counter = try Counter(kind)
        try counter.increment(in: counter.merging)
        try counter.otherIncrementsAndSaves()
        let error = try #require(throws: ObjectGraphError.self) { try counter.merging.performAndWait { try counter.merging.save() } }
        #expect(error.kind == .mergeConflict)
        let conflict = try #require(error.mergeConflicts.first)
        #expect(conflict.keys == ["i64"])
        #expect(conflict.ourValue(forKey: "i64") as? Int == 1)
        #expect(conflict.theirValue(forKey: "i64") as? Int == 1)
        #expect(conflict.originalValue(forKey: "i64") as? Int == 0)
        #expect(try counter.stored == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func readAndWriteInOneBlockAcrossTheOtherSave(kind: StoreKind) throws {
        let counter = try Counter(kind)
        let (merging, id) = (counter.merging, counter.id)
        let error = try #require(throws: ObjectGraphError.self) {
            try merging.performAndWait {
                let item = try merging.existingObject(with: id)
                let read = try item.get("i64", as: Int.self) ?? 0
                try counter.otherIncrementsAndSaves()
                try item.setValue(read + 1, forKey: "i64")
                // The save merges the other context's save first: the clash must survive it.
                try merging.save()
            }
        }
        #expect(error.kind == .mergeConflict)
        #expect(try counter.stored == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func afterARollbackTheHeldBackMergeIsSeenAndTheRetryCounts(kind: StoreKind) throws {
        let counter = try Counter(kind)
        try counter.increment(in: counter.merging)
        try counter.otherIncrementsAndSaves()
        let (merging, id) = (counter.merging, counter.id)
        try merging.performAndWait {
            let item = try merging.existingObject(with: id)
            // Until the save, the context's own edit is what it sees.
            #expect(try item.get("i64", as: Int.self) == 1)
            #expect(throws: ObjectGraphError.self) { try merging.save() }
            merging.rollback()
            #expect(try item.get("i64", as: Int.self) == 1)
            #expect(!item.hasChanges)
            try item.setValue(try item.get("i64", as: Int.self)! + 1, forKey: "i64")
            try merging.save()
        }
        #expect(try counter.stored == 2)
    }

    @Test(arguments: StoreKind.allCases, [MergePolicy.mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump])
    func theTrumpPoliciesDecideTheClash(kind: StoreKind, policy: MergePolicy) throws {
        let counter = try Counter(kind)
        let (merging, id) = (counter.merging, counter.id)
        try merging.performAndWait {
            merging.mergePolicy = policy
            let item = try merging.existingObject(with: id)
            try item.setValue(41, forKey: "i64")
            try item.setValue("ours", forKey: "title")
        }
        try counter.otherIncrementsAndSaves()
        try merging.performAndWait { try merging.save() }
        #expect(try counter.stored == (policy == .mergeByPropertyObjectTrump ? 41 : 1))
        #expect(try counter.store.withNewContext { try $0.existingObject(with: id).get("title", as: String.self) } == "ours")
    }

    @Test(arguments: StoreKind.allCases)
    func editsOfOtherPropertiesStillMergeAndSave(kind: StoreKind) throws {
        let counter = try Counter(kind)
        let (merging, id) = (counter.merging, counter.id)
        try merging.performAndWait { try merging.existingObject(with: id).setValue("ours", forKey: "title") }
        try counter.otherIncrementsAndSaves()
        try merging.performAndWait {
            let item = try merging.existingObject(with: id)
            #expect(try item.get("i64", as: Int.self) == 1)
            #expect(item.changedValues().keys.sorted() == ["title"])
            try merging.save()
        }
        #expect(try counter.stored == 1)
        #expect(try counter.store.withNewContext { try $0.existingObject(with: id).get("title", as: String.self) } == "ours")
    }

    /// Setting the value back is still a change, as in Core Data (it used to undo the clash):
    /// the save meets the conflict, and a rollback takes the held-back merge.
    @Test(arguments: StoreKind.allCases)
    func aClashSetBackToTheValueReadStillConflictsUntilRolledBack(kind: StoreKind) throws {
        let counter = try Counter(kind)
        let (merging, id) = (counter.merging, counter.id)
        let item = try merging.performAndWait {
            let item = try merging.existingObject(with: id)
            try item.setValue(5, forKey: "i64")
            return item
        }
        try counter.otherIncrementsAndSaves()
        try merging.performAndWait {
            try item.setValue(0, forKey: "i64")
            #expect(item.hasChanges && !item.hasPersistentChangedValues)
            let error = #expect(throws: ObjectGraphError.self) { try merging.save() }
            #expect(error?.kind == .mergeConflict)
            merging.rollback()
            #expect(try item.get("i64", as: Int.self) == 1)
        }
        #expect(try counter.stored == 1)
    }
}
