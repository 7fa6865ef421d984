import Foundation
import Testing

@testable import ObjectGraph

/// Optimistic locking: a save that would overwrite a row changed elsewhere since the context read
/// it is a conflict, listed with ours/theirs/original values, or resolved by the merge policy —
/// and uniqueness clashes with stored rows are conflicts too (object trump is an upsert). On
/// every store.
@Suite struct MergePolicyConformanceTests {
    /// A saved item read by two contexts: `ours` and `theirs`.
    private struct Race {
        let store: TestStore
        let id: ManagedObjectID
        let ours: ManagedObjectContext
        let ourItem: ManagedObject
        let theirs: ManagedObjectContext

        init(_ kind: StoreKind) throws {
            store = try TestStore(kind)
            id = try store.savedItem("RACE", ["title": "original", "note": "original note"])
            ours = store.newContext(name: "ours")
            theirs = store.newContext(name: "theirs")
            let (ours, id) = (ours, id)
            ourItem = try ours.performAndWait { try ours.existingObject(with: id) }
        }

        /// The other context changes `values` of the item and saves.
        func theySave(_ values: [String: String]) throws {
            try theirs.performAndWait {
                let item = try theirs.existingObject(with: id)
                for (key, value) in values { try item.setValue(value, forKey: key) }
                try theirs.save()
            }
        }

        /// This context changes `values` of its copy (read before their save) and saves with `policy`.
        func weSave(_ values: [String: String], policy: MergePolicy) throws {
            try ours.performAndWait {
                ours.mergePolicy = policy
                for (key, value) in values { try ourItem.setValue(value, forKey: key) }
                try ours.save()
            }
        }

        func stored(_ key: String) throws -> String? {
            try store.withNewContext { try $0.existingObject(with: id).get(key, as: String.self) }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aLostUpdateIsAConflictListingOursTheirsAndOriginal(kind: StoreKind) throws {
        let race = try Race(kind)
        try race.theySave(["title": "theirs"])
        let error = try #require(throws: ObjectGraphError.self) { try race.weSave(["title": "ours"], policy: .error) }
        #expect(error.kind == .mergeConflict)
        #expect(error.objectID == race.id)
        let conflict = try #require(error.mergeConflicts.first)
        #expect(error.mergeConflicts.count == 1)
        #expect(conflict.kind == .changedInStore)
        #expect(conflict.keys == ["title"])
        #expect(conflict.ourValue(forKey: "title") as? String == "ours")
        #expect(conflict.theirValue(forKey: "title") as? String == "theirs")
        #expect(conflict.originalValue(forKey: "title") as? String == "original")
        #expect(conflict.objectVersion == Snapshot.firstVersion && conflict.storeVersion == Snapshot.firstVersion + 1)
        #expect(error.message.contains("title: ours \"ours\", theirs \"theirs\", original \"original\""))
        #expect(error.message.contains("nothing was written"))
        #expect(try race.stored("title") == "theirs")
        try race.ours.performAndWait { () throws in #expect(race.ours.hasChanges) }
        // Core Data's three snapshots and version numbers, transients left out.
        #expect(conflict.objectSnapshot["title"] as? String == "ours")
        #expect(conflict.cachedSnapshot?["title"] as? String == "original")
        #expect(conflict.persistedSnapshot?["title"] as? String == "theirs")
        #expect(conflict.persistedSnapshot?["note"] as? String == "original note")
        #expect(conflict.objectSnapshot.keys.contains("scratch") == false)
        #expect(conflict.objectSnapshot.count == race.ourItem.entity.attributes.count - 1)
        #expect(conflict.oldVersionNumber == Snapshot.firstVersion && conflict.newVersionNumber == Snapshot.firstVersion + 1)
    }

    /// Core Data's `detectConflicts(for:)`: an object the save depends on without changing it.
    @Test(arguments: StoreKind.allCases)
    func anUnchangedObjectMarkedForConflictDetectionConflicts(kind: StoreKind) throws {
        let race = try Race(kind)
        try race.theySave(["title": "theirs"])
        try race.ours.performAndWait { () throws in
            try race.ours.detectConflicts(for: race.ourItem)
            #expect(race.ours.updatedObjects == [race.ourItem] && !race.ourItem.isUpdated)
            try race.ours.insertItem("OTHER")
            let error = #expect(throws: ObjectGraphError.self) { try race.ours.save() }
            #expect(error?.mergeConflicts.map(\.objectID) == [race.id])
            #expect(error?.mergeConflicts.first?.keys == ["title"])
            // Resolved by taking the stored row, the check passes and the save goes through.
            race.ours.mergePolicy = .mergeByPropertyStoreTrump
            try race.ours.save()
            #expect(try race.ourItem.get("title", as: String.self) == "theirs")
            #expect(!race.ours.hasChanges)
        }
        #expect(try race.store.storedCount("Item") == 2)
        #expect(try race.stored("title") == "theirs")
    }

    /// Keeps the longer of the two titles, then lets `basePolicy` finish.
    final class KeepLongerTitle: ConflictResolver {
        let basePolicy: MergePolicy
        let seen = Locked<[MergeConflict.Kind]>([])

        init(basePolicy: MergePolicy) {
            self.basePolicy = basePolicy
        }

        func resolve(_ conflicts: [MergeConflict], in context: ManagedObjectContext) throws {
            seen.withLock { $0 += conflicts.map(\.kind) }
            for conflict in conflicts {
                let ours = conflict.ourValue(forKey: "title") as? String ?? ""
                let theirs = conflict.theirValue(forKey: "title") as? String ?? ""
                if theirs.count > ours.count { try context.registeredObject(for: conflict.objectID)?.setValue(theirs, forKey: "title") }
            }
        }
    }

    struct Refused: Error, Equatable {}

    /// Refuses every conflict with an error of its own.
    final class RefuseAll: ConflictResolver {
        let basePolicy = MergePolicy.mergeByPropertyObjectTrump
        func resolve(_ conflicts: [MergeConflict], in context: ManagedObjectContext) throws { throw Refused() }
    }

    @Test(arguments: StoreKind.allCases)
    func aCustomPolicyResolvesFirstAndItsBasePolicyFinishes(kind: StoreKind) throws {
        let race = try Race(kind)
        try race.theySave(["title": "theirs is longer", "note": "their note"])
        let policy = KeepLongerTitle(basePolicy: .mergeByPropertyObjectTrump)
        try race.weSave(["title": "ours"], policy: .custom(policy))
        #expect(policy.seen.withLock { $0 } == [.changedInStore])
        #expect(try race.stored("title") == "theirs is longer")
        #expect(try race.stored("note") == "their note")
        #expect(MergePolicy.custom(policy) == .custom(policy) && MergePolicy.custom(policy) != .mergeByPropertyObjectTrump)
    }

    @Test(arguments: StoreKind.allCases)
    func aCustomPolicyCanFailTheSaveWithItsOwnError(kind: StoreKind) throws {
        let race = try Race(kind)
        try race.theySave(["title": "theirs"])
        #expect(throws: Refused()) { try race.weSave(["title": "ours"], policy: .custom(RefuseAll())) }
        #expect(try race.stored("title") == "theirs")
        // With `.error` as its base, what the resolver leaves is the usual merge conflict.
        let error = try #require(throws: ObjectGraphError.self) {
            try race.weSave([:], policy: .custom(KeepLongerTitle(basePolicy: .error)))
        }
        #expect(error.kind == .mergeConflict)
        #expect(error.message.contains("the merge policy is .custom(KeepLongerTitle, base .error)"), "\(error.message)")
    }

    @Test(arguments: StoreKind.allCases)
    func storeTrumpKeepsTheirPropertiesAndOurOthers(kind: StoreKind) throws {
        let race = try Race(kind)
        try race.theySave(["title": "theirs"])
        try race.weSave(["title": "ours", "note": "our note"], policy: .mergeByPropertyStoreTrump)
        #expect(try race.stored("title") == "theirs")
        #expect(try race.stored("note") == "our note")
        try race.ours.performAndWait { () throws in
            #expect(!race.ours.hasChanges)
            #expect(try race.ourItem.get("title", as: String.self) == "theirs")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func objectTrumpKeepsOurPropertiesAndTheirOthers(kind: StoreKind) throws {
        let race = try Race(kind)
        try race.theySave(["title": "theirs", "note": "their note"])
        try race.weSave(["title": "ours"], policy: .mergeByPropertyObjectTrump)
        #expect(try race.stored("title") == "ours")
        #expect(try race.stored("note") == "their note")
        // The object now holds the merged row and the new version: a second save is no conflict.
        try race.ours.performAndWait {
            #expect(try race.ourItem.get("note", as: String.self) == "their note")
            race.ours.mergePolicy = .error
            try race.ourItem.setValue("again", forKey: "title")
            try race.ours.save()
        }
        #expect(try race.stored("title") == "again")
    }

    @Test(arguments: StoreKind.allCases)
    func overwriteWritesTheWholeObject(kind: StoreKind) throws {
        let race = try Race(kind)
        try race.theySave(["note": "their note"])
        try race.weSave(["title": "ours"], policy: .overwrite)
        #expect(try race.stored("title") == "ours")
        #expect(try race.stored("note") == "original note")
    }

    @Test(arguments: StoreKind.allCases)
    func rollbackDropsOurConflictingChanges(kind: StoreKind) throws {
        let race = try Race(kind)
        try race.theySave(["title": "theirs"])
        try race.weSave(["title": "ours", "note": "our note"], policy: .rollback)
        #expect(try race.stored("title") == "theirs")
        #expect(try race.stored("note") == "original note")
        try race.ours.performAndWait { () throws in
            #expect(!race.ours.hasChanges)
            #expect(try race.ourItem.get("note", as: String.self) == "original note")
        }
    }

    /// Deleting a run of consecutive rows (written as one key range) still checks each row's
    /// version: one changed elsewhere is a conflict, and nothing is deleted.
    @Test(arguments: StoreKind.allCases)
    func deletingARunOfRowsOneChangedElsewhereIsAConflict(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let (ids, ours, objects) = try store.runWithOneRowChangedElsewhere(title: "changed")
        let error = try #require(throws: ObjectGraphError.self) {
            try ours.performAndWait {
                for object in objects { ours.delete(object) }
                try ours.save()
            }
        }
        #expect(error.mergeConflicts.map(\.objectID) == [ids[17]])
        #expect(try store.storedCount("Item") == 40)
        // Store trump keeps the row changed elsewhere, as it was changed; the rest are deleted.
        ours.mergePolicy = .mergeByPropertyStoreTrump
        try ours.performAndWait { try ours.save() }
        #expect(try store.storedCount("Item") == 1)
        #expect(try store.storedCount("Item", "code == 'R18' AND title == 'changed'") == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func anUpdateOfARowDeletedElsewhereIsAConflict(kind: StoreKind) throws {
        let race = try Race(kind)
        try race.theirs.performAndWait {
            race.theirs.delete(try race.theirs.existingObject(with: race.id))
            try race.theirs.save()
        }
        let error = try #require(throws: ObjectGraphError.self) { try race.weSave(["title": "ours"], policy: .error) }
        #expect(error.mergeConflicts.map(\.kind) == [.deletedInStore])
        #expect(error.message.contains("deleted elsewhere"))
        // Any other policy accepts the deletion: the object is marked deleted, as a merged
        // deletion is (it used to leave the context), with nothing left to save.
        try race.weSave([:], policy: .mergeByPropertyObjectTrump)
        try race.ours.performAndWait { () throws in
            #expect(race.ourItem.managedObjectContext === race.ours)
            #expect(race.ourItem.isDeleted && !race.ourItem.hasChanges)
            #expect(!race.ours.hasChanges)
        }
        #expect(try race.store.storedCount("Item") == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func deletingARowChangedElsewhereIsAConflict(kind: StoreKind) throws {
        let race = try Race(kind)
        try race.theySave(["title": "theirs"])
        try race.ours.performAndWait {
            race.ours.delete(race.ourItem)
            let error = try #require(throws: ObjectGraphError.self) { try race.ours.save() }
            #expect(error.mergeConflicts.map(\.kind) == [.changedInStore])
            // Store trump: their update wins, the deletion is undone.
            race.ours.mergePolicy = .mergeByPropertyStoreTrump
            try race.ours.save()
            #expect(!race.ourItem.isDeleted)
            #expect(try race.ourItem.get("title", as: String.self) == "theirs")
        }
        #expect(try race.store.storedCount("Item") == 1)
        // Object trump: our deletion wins over a later change of theirs.
        try race.theySave(["title": "theirs again"])
        try race.ours.performAndWait {
            race.ours.mergePolicy = .mergeByPropertyObjectTrump
            race.ours.delete(race.ourItem)
            try race.ours.save()
        }
        #expect(try race.store.storedCount("Item") == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func savingTwiceAndChangingUnrelatedObjectsIsNoConflict(kind: StoreKind) throws {
        let race = try Race(kind)
        try race.ours.performAndWait {
            try race.ourItem.setValue("first", forKey: "title")
            try race.ours.save()
            try race.ourItem.setValue("second", forKey: "title")
            try race.ours.save()
        }
        try race.theySave(["title": "theirs"])
        try race.ours.performAndWait {
            try race.ours.insertItem("OTHER")
            try race.ours.save()
        }
        #expect(try race.stored("title") == "theirs")
    }

    @Test(arguments: StoreKind.allCases)
    func movingABookDoesNotMakeItsAuthorsConflict(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { context in
            let ann = try context.insert("Author", ["name": "Ann"])
            try context.insert("Author", ["name": "Bob"])
            try context.insert("Book", ["title": "Dune"]).setValue(ann, forKey: "author")
            try context.save()
            // The authors' to-manys change through the book's row only: their rows are untouched.
            try context.one("Book", "title", "Dune").setValue(try context.one("Author", "name", "Bob"), forKey: "author")
            try context.save()
            try context.one("Author", "name", "Ann").setValue("Ann B.", forKey: "name")
            try context.save()
        }
        #expect(try store.storedCount("Author", "name == 'Ann B.'") == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func insertingADuplicateUpsertsUnderObjectTrump(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let storedID = try store.savedItem("DUP", ["title": "stored", "note": "stored note"])
        try store.withNewContext { context in
            let duplicate = try context.insertItem("DUP", ["title": "inserted"])
            // Under `.error` the clash with the stored row is a merge conflict (it was a bare
            // constraint violation before, without the conflict the documentation promises).
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.kind == .mergeConflict)
            context.mergePolicy = .mergeByPropertyObjectTrump
            try context.save()
            #expect(duplicate.objectID == storedID)
            #expect(!duplicate.isInserted && !duplicate.hasChanges)
            #expect(context.registeredObject(for: storedID) === duplicate)
        }
        #expect(try store.storedCount("Item") == 1)
        try store.withNewContext { context in
            let item = try context.existingObject(with: storedID)
            #expect(try item.get("title", as: String.self) == "inserted")
            // The inserted object's values win, defaults included.
            #expect(try item.get("note", as: String.self) == "none")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func uniquenessClashWithAStoredRowIsAMergeConflictUnderErrorPolicy(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let firstID = try store.savedItem("DUP", ["title": "stored"])
        let secondID = try store.savedItem("TWIN", ["title": "stored twin"])
        try store.withNewContext { context in
            let duplicate = try context.insertItem("DUP", ["title": "inserted"])
            let twin = try context.insertItem("TWIN")
            try context.insertItem("FRESH")
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.kind == .mergeConflict)
            #expect(
                error.message.hasPrefix(
                    "Cannot save: 2 inserted objects with the uniqueness-constrained values of a stored object, and the merge policy is .error; nothing was written."
                ))
            #expect(error.key == "code")
            let conflicts = error.mergeConflicts.sorted {
                $0.conflictingObjectID?.primaryKey ?? 0 < $1.conflictingObjectID?.primaryKey ?? 0
            }
            #expect(conflicts.map(\.kind) == [.uniqueness(keys: ["code"]), .uniqueness(keys: ["code"])])
            #expect(conflicts.map(\.objectID) == [duplicate.objectID, twin.objectID])
            #expect(conflicts.map(\.conflictingObjectID) == [firstID, secondID])
            #expect(conflicts[0].theirValue(forKey: "title") as? String == "stored")
            #expect(conflicts[0].ourValue(forKey: "title") as? String == "inserted")
            #expect(conflicts[1].theirValue(forKey: "title") as? String == "stored twin")
            #expect(
                conflicts[0].description
                    == "\(duplicate.objectID.shortDescription) has the same code as the stored \(firstID.shortDescription) (code = \"DUP\"; uniqueness constraint on code)"
            )
            // Nothing was written, and the context keeps its inserts.
            #expect(context.insertedObjects.count == 3)
        }
        #expect(try store.storedCount("Item") == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func insertingADuplicateKeepsTheStoredObjectUnderStoreTrump(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let storedID = try store.savedItem("DUP", ["title": "stored"])
        try store.withNewContext { context in
            let registered = try context.existingObject(with: storedID)
            let duplicate = try context.insertItem("DUP", ["title": "inserted"])
            context.mergePolicy = .mergeByPropertyStoreTrump
            try context.save()
            #expect(duplicate.objectID == storedID)
            #expect(try duplicate.get("title", as: String.self) == "stored")
            // The object that stood for the stored row stepped aside for the inserted one.
            #expect(registered.managedObjectContext == nil)
            #expect(context.registeredObject(for: storedID) === duplicate)
        }
        #expect(try store.storedCount("Item", "title == 'stored'") == 1)
        #expect(try store.storedCount("Item") == 1)
    }
}
