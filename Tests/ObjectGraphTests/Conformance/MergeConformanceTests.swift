import Foundation
import Testing

@testable import ObjectGraph

/// Several contexts on one store: did-save notifications, merging them by hand and
/// automatically, and what a merge does to objects with unsaved edits — on every store.
@Suite struct MergeConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func saveNotificationsCarryTheChangedObjectIDs(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let context = store.newContext(name: "writer")
        let (keep, drop) = try context.performAndWait {
            let keep = try context.insertItem("KEEP")
            let drop = try context.insertItem("DROP")
            try context.save()
            return (keep.objectID, drop.objectID)
        }
        let received = Received()
        let observers = ContextEvent.allCases.map { event in
            NotificationCenter.default.addObserver(forName: event.notificationName, object: context, queue: nil) { notification in
                received.append(ContextChanges(notification)!)
            }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        let added = try context.performAndWait {
            try context.existingObject(with: keep).setValue("new title", forKey: "title")
            context.delete(try context.existingObject(with: drop))
            let added = try context.insertItem("ADDED")
            try context.save()
            return added.objectID
        }
        let events = received.all
        #expect(events.map(\.event) == [.willSave, .didSave])
        let didSave = try #require(events.last)
        #expect(didSave.insertedObjectIDs == [added])
        #expect(didSave.updatedObjectIDs == [keep])
        #expect(didSave.deletedObjectIDs == [drop])
        #expect(!added.isTemporaryID)
        #expect(events[0].insertedObjectIDs.count == 1 && events[0].insertedObjectIDs.first!.isTemporaryID)
    }

    @Test(arguments: StoreKind.allCases)
    func didSaveChangesArriveAsAnAsyncSequence(kind: StoreKind) async throws {
        let store = try TestStore(kind)
        let context = store.newContext()
        let stream = context.changes(for: .didSave)
        let saved = try await context.perform {
            let item = try context.insertItem("STREAM")
            try context.save()
            return item.objectID
        }
        var iterator = stream.makeAsyncIterator()
        let changes = try #require(await iterator.next())
        #expect(changes.event == .didSave)
        #expect(changes.insertedObjectIDs == [saved])
    }

    @Test(arguments: StoreKind.allCases)
    func mergingADidSaveNotificationRefreshesValuesButKeepsLocalEdits(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let id = try store.savedItem("SHARED", ["title": "original", "note": "original note"])
        let reader = store.newContext(name: "reader")
        let writer = store.newContext(name: "writer")
        try reader.performAndWait {
            let item = try reader.existingObject(with: id)
            try item.setValue("reader's note", forKey: "note")
        }
        let received = Received()
        let observer = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveNotification, object: writer, queue: nil)
        { received.append(ContextChanges($0)!) }
        defer { NotificationCenter.default.removeObserver(observer) }
        try writer.performAndWait {
            let item = try writer.existingObject(with: id)
            try item.setValue("writer's title", forKey: "title")
            try writer.save()
        }
        let didSave = try #require(received.all.first)
        try reader.performAndWait {
            let item = try reader.existingObject(with: id)
            #expect(try item.get("title", as: String.self) == "original")
            reader.mergeChanges(didSave)
            #expect(try item.get("title", as: String.self) == "writer's title")
            #expect(try item.get("note", as: String.self) == "reader's note")
            #expect(item.isUpdated)
            #expect(item.changedValues().keys.sorted() == ["note"])
            // The merge took the writer's row version: saving the local edit is not a conflict.
            try reader.save()
        }
        try store.withNewContext { context in
            let item = try context.existingObject(with: id)
            #expect(try item.get("title", as: String.self) == "writer's title")
            #expect(try item.get("note", as: String.self) == "reader's note")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func automaticMergingShowsAnotherContextsSaveAtTheNextUse(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let (changedID, deletedID) = try store.withNewContext { context in
            let changed = try context.insertItem("CHANGED", ["title": "old"])
            let deleted = try context.insertItem("DELETED")
            try context.save()
            return (changed.objectID, deleted.objectID)
        }
        let viewer = store.newContext(name: "viewer")
        viewer.automaticallyMergesChangesFromParent = true
        #expect(viewer.automaticallyMergesChangesFromParent)
        let (changed, deleted) = try viewer.performAndWait {
            (try viewer.existingObject(with: changedID), try viewer.existingObject(with: deletedID))
        }
        let background = store.newContext(name: "background")
        let insertedID = try background.performAndWait {
            try background.existingObject(with: changedID).setValue("new", forKey: "title")
            background.delete(try background.existingObject(with: deletedID))
            let inserted = try background.insertItem("INSERTED")
            try background.save()
            return inserted.objectID
        }
        try viewer.performAndWait { () throws in
            // A merged insert is registered, as Core Data registers it: a fault until used.
            let inserted = try #require(viewer.registeredObject(for: insertedID))
            #expect(inserted.isFault && !inserted.hasChanges)
            #expect(try inserted.get("code", as: String.self) == "INSERTED")
            #expect(try changed.get("title", as: String.self) == "new")
            #expect(!changed.hasChanges)
            // As in Core Data (it used to leave the context): registered, deleted, readable.
            #expect(deleted.managedObjectContext === viewer)
            #expect(deleted.isDeleted && !deleted.hasChanges)
            #expect(viewer.registeredObject(for: deletedID) === deleted)
            #expect(try deleted.get("code", as: String.self) == "DELETED")
            #expect(try viewer.objects("Item", sortedBy: ["code"]).map(\.label) == ["CHANGED", "INSERTED"])
            #expect(try viewer.existingObject(with: insertedID).label == "INSERTED")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func automaticMergingPostsObjectsDidChange(kind: StoreKind) async throws {
        let store = try TestStore(kind)
        let id = try store.savedItem("WATCHED", ["title": "old"])
        let viewer = store.newContext()
        viewer.automaticallyMergesChangesFromParent = true
        let changes = viewer.changes(for: .objectsDidChange)
        // Held, so the viewer keeps it registered (unchanged objects nothing holds are released).
        let watched = try viewer.performAndWait { try viewer.existingObject(with: id) }
        let background = store.newContext()
        try await background.perform {
            try background.existingObject(with: id).setValue("new", forKey: "title")
            try background.save()
        }
        // Nobody uses the viewer: the merge runs on its queue by itself.
        var iterator = changes.makeAsyncIterator()
        let didChange = try #require(await iterator.next())
        #expect(didChange.refreshedObjectIDs == [id])
        try viewer.performAndWait { () throws in #expect(try watched.get("title", as: String.self) == "new") }
    }

    @Test(arguments: StoreKind.allCases)
    func contextsThatDoNotMergeKeepTheirValuesUntilRefreshed(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let id = try store.savedItem("STALE", ["title": "old"])
        let viewer = store.newContext()
        let item = try viewer.performAndWait { try viewer.existingObject(with: id) }
        try store.withNewContext { context in
            try context.existingObject(with: id).setValue("new", forKey: "title")
            try context.save()
        }
        try viewer.performAndWait {
            #expect(try item.get("title", as: String.self) == "old")
            try viewer.refresh(item, mergeChanges: true)
            #expect(try item.get("title", as: String.self) == "new")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func refreshAllObjectsReloadsKeepingUnsavedChanges(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let (plainID, editedID) = try store.withNewContext { context in
            let plain = try context.insertItem("PLAIN", ["title": "old"])
            let edited = try context.insertItem("EDITED", ["title": "old"])
            try context.save()
            return (plain.objectID, edited.objectID)
        }
        let viewer = store.newContext()
        let (plain, edited) = try viewer.performAndWait { () throws in
            let edited = try viewer.existingObject(with: editedID)
            try edited.setValue("local note", forKey: "note")
            return (try viewer.existingObject(with: plainID), edited)
        }
        try store.withNewContext { context in
            for id in [plainID, editedID] { try context.existingObject(with: id).setValue("new", forKey: "title") }
            try context.save()
        }
        try viewer.performAndWait { () throws in
            try viewer.refreshAllObjects()
            #expect(plain.isFault)
            #expect(try plain.get("title", as: String.self) == "new")
            #expect(try edited.get("title", as: String.self) == "new")
            #expect(try edited.get("note", as: String.self) == "local note")
            #expect(edited.isUpdated)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func siblingChildrenMergeWhatAnotherChildSavedIntoTheirParent(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let id = try store.savedItem("FAMILY", ["title": "old"])
        let parent = store.newContext()
        let editor = parent.newChildContext()
        let viewer = parent.newChildContext()
        viewer.automaticallyMergesChangesFromParent = true
        let item = try viewer.performAndWait { try viewer.existingObject(with: id) }
        try editor.performAndWait {
            try editor.existingObject(with: id).setValue("from the editor", forKey: "title")
            try editor.save()
        }
        try viewer.performAndWait { () throws in
            #expect(try item.get("title", as: String.self) == "from the editor")
        }
    }
}

/// Change sets collected by notification observers, which may run on any thread.
final class Received: Sendable {
    private let changes = Locked<[ContextChanges]>([])
    func append(_ change: ContextChanges) { changes.withLock { $0.append(change) } }
    var all: [ContextChanges] { changes.withLock { $0 } }
}
