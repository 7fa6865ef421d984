import Foundation
import Testing

@testable import ObjectGraph

/// What a context knows about its unsaved changes, and how it discards them.
@Suite struct ChangeTrackingConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func changeSetsAtEachStep(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            #expect(!context.hasChanges)
            let a = try context.insertItem("A1")
            let b = try context.insertItem("B2")
            #expect(context.hasChanges)
            #expect(context.insertedObjects == [a, b])
            #expect(context.updatedObjects.isEmpty && context.deletedObjects.isEmpty)
            #expect(a.isInserted && a.hasChanges && !a.isUpdated)
            try a.setValue("x", forKey: "title")
            #expect(!a.isUpdated)  // inserted objects are inserted, not updated
            #expect(context.updatedObjects.isEmpty)

            try context.save()
            #expect(!context.hasChanges)
            #expect(context.insertedObjects.isEmpty)
            #expect(!a.isInserted && !a.hasChanges)
            #expect(context.registeredObjects == [a, b])

            try a.setValue("y", forKey: "title")
            #expect(a.isUpdated && a.hasChanges)
            #expect(context.updatedObjects == [a])
            #expect(context.hasChanges)
            context.delete(b)
            #expect(context.deletedObjects == [b])
            #expect(b.isDeleted && b.hasChanges && !b.isUpdated)
            #expect(context.updatedObjects == [a])

            // Deleting an updated object moves it from updated to deleted.
            context.delete(a)
            #expect(context.updatedObjects.isEmpty)
            #expect(context.deletedObjects == [a, b])

            try context.save()
            #expect(!context.hasChanges)
            #expect(context.registeredObjects.isEmpty)
        }
        #expect(try store.storedCount("Item") == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func changedAndCommittedValues(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("A1", ["title": "one", "i64": 10])
            // Unsaved objects have no committed values; every stored value counts as changed (the
            // transient `scratch` never does: Core Data lists persistent properties only).
            #expect(try item.committedValues(forKeys: nil).isEmpty)
            #expect(item.changedValues().count == item.entity.attributes.count - 1)
            #expect(item.changedValues()["scratch"] == nil)
            #expect(item.changedValues()["title"] as? String == "one")
            try context.save()
            #expect(item.changedValues().isEmpty)

            try item.setValue("two", forKey: "title")
            try item.setValue(nil, forKey: "i64")
            let changed = item.changedValues()
            #expect(Set(changed.keys) == ["title", "i64"])
            #expect(changed["title"] as? String == "two")
            #expect(changed["i64"].map { $0 == nil } == true)  // present, and nil

            let committed = try item.committedValues(forKeys: ["title", "i64", "note"])
            #expect(Set(committed.keys) == ["title", "i64", "note"])
            #expect(committed["title"] as? String == "one")
            #expect(committed["i64"] as? Int64 == 10)
            #expect(committed["note"] as? String == "none")
            #expect(try item.committedValues(forKeys: nil).count == item.entity.attributes.count - 1)
            #expect(throws: ObjectGraphError.self) { try item.committedValues(forKeys: ["nope"]) }

            try context.save()
            #expect(try item.committedValues(forKeys: ["title"])["title"] as? String == "two")
        }
    }

    /// As in Core Data, any set marks a saved object updated, even of the value it has or back to
    /// its saved value (both used to leave it unchanged); `changedValues()` and
    /// `hasPersistentChangedValues` compare the values.
    @Test(arguments: StoreKind.allCases)
    func settingAValueMarksTheObjectUpdatedEvenWhenUnchanged(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("A1", ["title": "one", "dec": Decimal(string: "1.50")!, "i16": 5])
            let other = try context.insertItem("B2")
            try context.save()
            try other.setValue(Decimal(string: "1.5")!, forKey: "dec")
            try other.setValue(nil, forKey: "dec")
            #expect(other.isUpdated && !other.hasPersistentChangedValues)
            try item.setValue("two", forKey: "title")
            try item.setValue(6, forKey: "i16")
            #expect(context.updatedObjects == [item, other])
            #expect(Set(item.changedValues().keys) == ["title", "i16"] && item.hasPersistentChangedValues)
            try item.setValue("one", forKey: "title")
            try item.setValue(Int64(5), forKey: "i16")
            #expect(item.isUpdated && context.hasChanges)
            #expect(item.changedValues().isEmpty && !item.hasPersistentChangedValues)
            // The same value in another spelling: still no value differs.
            try item.setValue(Decimal(string: "1.5")!, forKey: "dec")
            #expect(item.changedValues().isEmpty)
            try context.save()
            #expect(!item.isUpdated && !other.isUpdated && !context.hasChanges)
        }
        try store.withNewContext { context throws in
            #expect(try context.item("A1")?.get("title", as: String.self) == "one")
            #expect(try context.item("B2")?.value(forKey: "dec") == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func rollbackDiscardsEveryChange(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let kept = try context.insertItem("A1", ["title": "kept"])
            let doomed = try context.insertItem("B2")
            try context.save()

            try kept.setValue("changed", forKey: "title")
            context.delete(doomed)
            let inserted = try context.insertItem("C3")
            context.rollback()

            #expect(!context.hasChanges)
            #expect(context.insertedObjects.isEmpty && context.updatedObjects.isEmpty && context.deletedObjects.isEmpty)
            #expect(try kept.get("title", as: String.self) == "kept")
            #expect(!kept.isUpdated)
            #expect(!doomed.isDeleted)
            #expect(doomed.managedObjectContext === context)
            #expect(!inserted.isInserted)
            #expect(inserted.managedObjectContext == nil)
            #expect(context.registeredObjects == [kept, doomed])
            #expect(try context.objects("Item", sortedBy: ["code"]) == [kept, doomed])

            // Nothing to save after a rollback; the stored data is as before.
            try context.save()
        }
        try store.withNewContext { context throws in
            #expect(try context.objects("Item", sortedBy: ["code"]).map(\.label) == ["A1", "B2"])
            #expect(try context.item("A1")?.get("title", as: String.self) == "kept")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func resetForgetsEverything(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let saved = try context.insertItem("A1")
            try context.save()
            try saved.setValue("unsaved", forKey: "title")
            let inserted = try context.insertItem("B2")
            let (_, posted) = recordChanges(of: context) { context.reset() }
            // Core Data posts objects-did-change with the invalidated objects.
            #expect(posted.count == 1)
            #expect(posted.first?.invalidatesAllObjects == true)
            #expect(posted.first?.invalidatedObjectIDs == [saved.objectID])
            #expect(posted.first?.insertedObjectIDs.isEmpty == true)
            #expect(!context.hasChanges)
            #expect(context.registeredObjects.isEmpty)
            #expect(context.insertedObjects.isEmpty)
            #expect(saved.managedObjectContext == nil)
            #expect(inserted.managedObjectContext == nil)

            // Fetching again gives a new instance with the stored values.
            let again = try #require(try context.item("A1"))
            #expect(again !== saved)
            #expect(again.objectID == saved.objectID)
            #expect(try again.value(forKey: "title") == nil)
            try context.save()
        }
        #expect(try store.storedCount("Item") == 1)
    }

    /// Objects detached by `reset()` can be read but not changed.

    @Test(arguments: StoreKind.allCases)
    func detachedObjectsRefuseChanges(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("A1", ["title": "t"])
            try context.save()
            context.reset()
            #expect(try item.get("title", as: String.self) == "t")
            let error = #expect(throws: ObjectGraphError.self) { try item.setValue("x", forKey: "title") }
            #expect(error?.kind == .invalidOperation)
            #expect(error?.message.contains("no longer belongs to a context") == true, "\(error?.message ?? "")")
        }
    }

    /// Objects hold their context weakly, as in Core Data: a context nothing else holds goes
    /// away under its objects, which then have no context and refuse changes.
    @Test(arguments: StoreKind.allCases)
    func objectsDoNotKeepTheirContextAlive(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            _ = try context.insertItem("KEPT")
            try context.save()
        }
        var context: ManagedObjectContext? = store.newContext()
        weak let released = context
        let (fetched, inserted) = try context!.performAndWait { [context] in
            (try context!.fetch(FetchRequest<ManagedObject>(entityName: "Item")), try context!.insertItem("NEW"))
        }
        #expect(fetched.count == 1 && fetched[0].managedObjectContext === context && inserted.managedObjectContext === context)
        context = nil
        #expect(released == nil)
        #expect(fetched[0].managedObjectContext == nil && inserted.managedObjectContext == nil)
        #expect(try fetched[0].get("code", as: String.self) == "KEPT")
        let error = #expect(throws: ObjectGraphError.self) { try fetched[0].setValue("x", forKey: "title") }
        #expect(error?.message.contains("no longer belongs to a context") == true, "\(error?.message ?? "")")
    }

    /// An object made without a context takes values, then joins one with `insert(_:)`.

    @Test(arguments: StoreKind.allCases)
    func objectCreatedWithoutAContextCanBeInserted(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let entity = try #require(store.container.managedObjectModel.entity(named: "Item"))
            let item = ManagedObject(entity: entity, insertInto: nil)
            #expect(item.managedObjectContext == nil)
            #expect(!item.isInserted)
            try item.setValue("LOOSE", forKey: "code")
            #expect(try item.get("i32", as: Int32.self) == 7)
            #expect(!context.hasChanges)
            context.insert(item)
            #expect(context.insertedObjects == [item])
            try context.save()
        }
        #expect(try store.storedCount("Item", "code == 'LOOSE'") == 1)
    }

    /// Changing only a transient marks the object updated, and saving it writes nothing.

    @Test(arguments: StoreKind.allCases)
    func transientOnlyChangeSaves(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("A1")
            try context.save()
            try item.setValue("memo", forKey: "scratch")
            #expect(item.isUpdated)
            try context.save()
            #expect(!context.hasChanges)
            #expect(try item.get("scratch", as: String.self) == "memo")
        }
        try store.withNewContext { context throws in
            #expect(try context.item("A1")?.value(forKey: "scratch") == nil)
        }
    }

    /// `processPendingChanges()` posts the unsaved changes as objects-did-change, as Core Data's does.
    @Test(arguments: StoreKind.allCases)
    func processingPendingChangesReportsThem(kind: StoreKind) async throws {
        let store = try TestStore(kind)
        let savedID = try store.savedItem("SAVED")
        let gone = try store.savedItem("GONE")
        let context = store.newContext()
        let stream = context.changes(for: .objectsDidChange)
        let insertedID = try context.performAndWait {
            context.processPendingChanges()  // nothing to report: nothing posted
            try context.existingObject(with: savedID).setValue("changed", forKey: "title")
            context.delete(try context.existingObject(with: gone))
            let item = try context.insertItem("NEW")
            context.processPendingChanges()
            return item.objectID
        }
        var changes = stream.makeAsyncIterator()
        let reported = try #require(await changes.next())
        #expect(reported.insertedObjectIDs == [insertedID])
        #expect(reported.updatedObjectIDs == [savedID])
        #expect(reported.deletedObjectIDs == [gone])
        #expect(context.performAndWait { context.hasChanges })
    }

    /// Each change is reported once per event, as Core Data's `processPendingChanges()` does
    /// (every unsaved change was reported again at each call before).
    @Test(arguments: StoreKind.allCases)
    func eachChangeIsReportedOncePerEvent(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let savedID = try store.savedItem("SAVED")
        try store.withNewContext { context in
            let saved = try context.existingObject(with: savedID)
            let (_, first) = try recordChanges(of: context) {
                let fresh = try context.insertItem("FRESH")
                try fresh.setValue("set in the same event", forKey: "title")
                try saved.setValue("one", forKey: "title")
                context.processPendingChanges()
                context.processPendingChanges()
                return fresh
            }
            #expect(first.count == 1)
            #expect(first.first?.insertedObjectIDs.count == 1, "inserted and changed in one event: inserted")
            #expect(first.first?.updatedObjectIDs == [savedID])
            let fresh = try #require(context.insertedObjects.first)

            let (_, second) = try recordChanges(of: context) {
                try fresh.setValue("changed after its insertion was reported", forKey: "title")
                context.processPendingChanges()
                context.delete(fresh)
                context.delete(saved)
                context.processPendingChanges()
                context.processPendingChanges()
            }
            #expect(second.map(\.insertedObjectIDs.isEmpty) == [true, true])
            #expect(second.map(\.updatedObjectIDs) == [[fresh.objectID], []])
            // Deleting an unsaved insert whose insertion was reported is reported too.
            #expect(second.map(\.deletedObjectIDs) == [[], [fresh.objectID, savedID]])
        }
    }

    /// A child's save is reported in its parent by the objects-did-change it posts, once: the
    /// parent's next `processPendingChanges()` does not report it again.
    @Test(arguments: StoreKind.allCases)
    func aChildsSaveIsReportedOnceInItsParent(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let savedID = try store.savedItem("SAVED")
        try store.withNewContext { parent in
            let child = parent.newChildContext()
            let (_, posted) = try recordChanges(of: parent) {
                try child.performAndWait {
                    try child.existingObject(with: savedID).setValue("from the child", forKey: "title")
                    try child.insertItem("NEW")
                    try child.save()
                }
                parent.processPendingChanges()
            }
            #expect(posted.count == 1)
            #expect(posted.first?.updatedObjectIDs == [savedID])
            #expect(posted.first?.insertedObjectIDs.count == 1)
            #expect(parent.hasChanges)
        }
    }

    /// `changedValuesForCurrentEvent()` gives the old values of the properties changed since
    /// the last objects-did-change.
    @Test(arguments: StoreKind.allCases)
    func changedValuesForCurrentEventGiveTheValuesBeforeTheEvent(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let savedID = try store.savedItem("SAVED", ["title": "stored", "i64": 1])
        try store.withNewContext { context in
            let item = try context.existingObject(with: savedID)
            #expect(item.changedValuesForCurrentEvent().isEmpty)
            try item.setValue("first", forKey: "title")
            try item.setValue("scratch", forKey: "scratch")
            #expect(item.changedValuesForCurrentEvent().mapValues { $0 as? String } == ["title": "stored"])
            context.processPendingChanges()
            #expect(item.changedValuesForCurrentEvent().isEmpty)
            try item.setValue(2, forKey: "i64")
            try item.setValue("second", forKey: "title")
            let current = item.changedValuesForCurrentEvent()
            #expect(Set(current.keys) == ["title", "i64"])
            #expect(current["title"] as? String == "first")
            #expect(current["i64"] as? Int == 1)
            // changedValues() compares with the saved values, and gives the new ones.
            #expect(item.changedValues()["title"] as? String == "second")
            try context.save()
            #expect(item.changedValuesForCurrentEvent().isEmpty)
        }
    }

    /// Primitive sets are not tracked: the object is not marked updated, nothing is reported,
    /// and they are saved only with the object's tracked changes.
    @Test(arguments: StoreKind.allCases)
    func primitiveValuesAreNotTrackedButSavedWithTheObject(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let savedID = try store.savedItem("SAVED", ["title": "stored"])
        try store.withNewContext { context in
            let item = try context.existingObject(with: savedID)
            let (_, reported) = try recordChanges(of: context) {
                try item.setPrimitiveValue("primitive", forKey: "title")
                context.processPendingChanges()
            }
            #expect(reported.isEmpty)
            #expect(try item.primitiveValue(forKey: "title") as? String == "primitive")
            #expect(!item.isUpdated && !context.hasChanges)
            #expect(try item.committedValues(forKeys: ["title"])["title"] as? String == "stored")
            let typeError = #expect(throws: ObjectGraphError.self) { try item.setPrimitiveValue(5, forKey: "title") }
            #expect(typeError?.kind == .typeMismatch)
            try context.save()  // nothing to save
        }
        #expect(try store.storedCount("Item", "title == 'stored'") == 1)
        try store.withNewContext { context in
            let item = try context.existingObject(with: savedID)
            try item.setPrimitiveValue("primitive", forKey: "title")
            try item.setValue(3, forKey: "i64")
            try context.save()
        }
        #expect(try store.storedCount("Item", "title == 'primitive' AND i64 == 3") == 1)
    }
}
