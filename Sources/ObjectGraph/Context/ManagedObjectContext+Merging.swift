import Foundation
import Synchronization

extension ManagedObjectContext {
    /// Whether the context merges, on its own queue, every save made to its parent: to the
    /// store by other contexts of the coordinator (for a context without a parent), or into its
    /// parent context by the parent itself or by sibling children. `false` by default, as in
    /// Core Data.
    ///
    /// A merge runs as soon as the context's queue is free, and in any case before the next
    /// fetch, count, object lookup, save or `perform` on the context, so a save that has returned
    /// is always visible to the next use of the context. Objects the other save deleted are
    /// marked deleted (`isDeleted`, their last values readable, nothing to save); updated objects take the new values and keep the context's own unsaved
    /// edits on top; new objects are found by fetches. An object whose unsaved edits the other
    /// save changed too is not merged: the conflict is left to the merge policy at the next save
    /// (`.error` throws it), where Core Data would let the unsaved value win silently.
    public var automaticallyMergesChangesFromParent: Bool {
        get { mergesAutomatically.load(ordering: .relaxed) }
        set {
            mergesAutomatically.store(newValue, ordering: .relaxed)
            updateMergeRegistration()
        }
    }

    /// Brings the context up to date with the save a did-save notification reports, the way
    /// automatic merging does. Call it on the context's queue.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        guard let changes = ContextChanges(notification) else { return }
        mergeChanges(changes)
    }

    /// Brings the context up to date with `changes` (usually another context's did-save change
    /// set): deleted objects are marked deleted (they stay registered with their last values
    /// readable, and fetches no longer find them), updated ones are refreshed keeping the context's
    /// own unsaved edits (or left for the save's merge policy when the same properties changed
    /// on both sides). Posts objects-did-change and passes the changes on to child contexts
    /// that merge automatically. Call it on the context's queue.
    public func mergeChanges(_ changes: ContextChanges) {
        checkQueue("mergeChanges(_:)")
        var didChange = ContextChanges(event: .objectsDidChange, insertedObjectIDs: changes.insertedObjectIDs)
        registerObjects(insertedElsewhere: changes.insertedObjectIDs)
        didChange.deletedObjectIDs = markObjects(deletedElsewhere: changes.deletedObjectIDs)
        didChange.refreshedObjectIDs = refreshObjects(updatedElsewhere: changes.updatedObjectIDs)
        // Updated objects the context does not hold (never fetched, or let go) are reported too:
        // a fetched results controller must hear that an object it did not show may now match
        // (Core Data leaves them out, and its controllers miss them).
        didChange.updatedObjectIDs = changes.updatedObjectIDs.subtracting(didChange.refreshedObjectIDs)
        if !didChange.isEmpty { post(didChange) }
        childMergeTargets.deliver(changes, except: nil)
    }

    /// Registers the context with the source of its automatic merges (or leaves it), after
    /// `automaticallyMergesChangesFromParent`, `parent` or the coordinator changed.
    func updateMergeRegistration() {
        registeredMergeSource?.remove(self)
        registeredMergeSource = nil
        guard automaticallyMergesChangesFromParent else { return }
        let source = parent?.childMergeTargets ?? persistentStoreCoordinator?.mergeTargets
        source?.add(self)
        registeredMergeSource = source
    }

    /// Queues `changes` for merging on the context's queue (called from any thread).
    func enqueueMerge(_ changes: ContextChanges) {
        mergeInbox.add(changes)
        queue.async { [weak self] in self?.processPendingMerges() }
    }

    /// Merges whatever other contexts have sent since the last time; cheap when nothing is waiting.
    @inline(__always)
    func processPendingMerges() {
        guard mergeInbox.hasPending else { return }
        for changes in mergeInbox.takeAll() { mergeChanges(changes) }
    }

    /// Registers a fault for each object another save inserted into this context's store, as Core
    /// Data registers merged inserts; they are held until the next merge (see `mergedInserts`).
    func registerObjects(insertedElsewhere insertedIDs: Set<ManagedObjectID>) {
        guard let store = try? requireStore() else { return }
        mergedInserts = insertedIDs.compactMap { objectID in
            objectID.isTemporaryID || objectID.storeIdentifier != store.identifier ? nil : registeredFault(for: objectID)
        }
    }

    /// Marks the objects another save deleted as deleted, as Core Data does: they stay registered
    /// with their last values readable, refuse changes, have nothing to save, and leave the loaded
    /// relationships that held them (fetches no longer find their rows). Returns the IDs of those
    /// the context held.
    func markObjects(deletedElsewhere deletedIDs: Set<ManagedObjectID>) -> Set<ManagedObjectID> {
        guard !deletedIDs.isEmpty else { return [] }
        for object in registered.values.map({ $0.takeUnretainedValue() }) {
            // Loaded to-manys that held a deleted object load again when next used.
            for (position, related) in object.loadedToMany.enumerated()
            where related?.objects.contains(where: { deletedIDs.contains($0.objectID) }) == true {
                if related?.isChanged == false {
                    object.observingChange(of: object.entity.rowWidth + position) { object.loadedToMany[position] = nil }
                }
            }
            // Resolved destinations are let go (they may be gone); unsaved ones stay held.
            if !object.hasChanges { object.relationshipHold.releaseToOnes() }
        }
        var marked = Set<ManagedObjectID>()
        for objectID in deletedIDs {
            heldBackMerges[objectID] = nil
            guard let object = liveObject(objectID) else { continue }
            updated.remove(object)
            deleted.remove(object)
            reportedValues[ObjectKey(object)] = nil
            object.isDeleted = true
            object.marks = .deletedElsewhere
            marked.insert(objectID)
        }
        return marked
    }

    /// Gives the objects whose merge was held back (their unsaved edits clashed with it) the
    /// newest row merged for them, once their edits are gone: called after a rollback, so the
    /// next read sees what the other saves wrote.
    func applyHeldBackMerges() {
        for (objectID, row) in heldBackMerges {
            guard let object = liveObject(objectID), !object.hasChanges else { continue }
            merge(storedRow: row, into: object)
        }
        heldBackMerges.removeAll()
    }

    /// Reloads the stored values of the registered, loaded objects among `updatedIDs` (one store
    /// request per entity), keeping each object's own unsaved changes on top; returns the IDs
    /// of the objects refreshed. An object whose row cannot be read keeps its values, and so does
    /// one whose unsaved edits the other save changed too (its save meets the conflict).
    func refreshObjects(updatedElsewhere updatedIDs: Set<ManagedObjectID>) -> Set<ManagedObjectID> {
        var byEntity: [ObjectIdentifier: [ManagedObject]] = [:]
        for objectID in updatedIDs {
            guard let object = liveObject(objectID), !object.values.isEmpty, !object.isInserted else { continue }
            byEntity[ObjectIdentifier(object.entity), default: []].append(object)
        }
        guard !byEntity.isEmpty, let store = try? requireStore() else { return [] }
        var refreshed = Set<ManagedObjectID>()
        for objects in byEntity.values {
            guard let rows = try? store.snapshots(of: objects[0].entity, primaryKeys: objects.compactMap(\.objectID.primaryKey)) else {
                continue
            }
            for object in objects {
                guard let primaryKey = object.objectID.primaryKey, let row = rows[primaryKey] else { continue }
                // Merged in, the other save would vanish under our edit (the object would take the
                // new row version, so the save could no longer see a conflict): a lost update. The
                // object is left as it was and the merge policy decides at save, unlike Core Data,
                // where the unsaved value silently wins.
                guard !object.hasUnsavedEdits(clashingWith: row) else {
                    heldBackMerges[object.objectID] = row
                    continue
                }
                merge(storedRow: row, into: object)
                refreshed.insert(object.objectID)
            }
        }
        return refreshed
    }
}

extension ManagedObject {
    /// Whether `row`, saved elsewhere, changed a stored property that this object has changed and
    /// not saved: merging it would hide one of the two changes.
    func hasUnsavedEdits(clashingWith row: Snapshot) -> Bool {
        guard !changedAttributes.isEmpty, row.version != rowVersion, row.values.count == entity.rowWidth else { return false }
        let original = committed
        let attributes = entity.attributes
        return changedAttributes.slots(below: entity.rowWidth).contains { slot in
            (slot >= attributes.count || !attributes[slot].isTransient) && !row.values[slot].isStoredEqual(to: original[slot])
        }
    }
}
