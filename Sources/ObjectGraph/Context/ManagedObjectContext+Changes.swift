import Foundation

extension ManagedObjectContext {
    /// Creates an object of the entity named `entityName` with its default values and inserts it.
    /// Throws `.unknownEntity` (suggesting the closest name) when the model has no such entity.
    /// The object is an instance of the class registered for the entity (see
    /// `ManagedObjectModel.register(_:)`).
    public func insertNewObject(forEntityName entityName: String) throws -> ManagedObject {
        let entity = try entityForInsertion(named: entityName)
        return makeInsertedObject(of: objectClass(for: entity), entity: entity)
    }

    /// A new object of `objectClass` for `entity`, inserted.
    func makeInsertedObject(of objectClass: ManagedObject.Type, entity: EntityDescription) -> ManagedObject {
        guard objectClass.insertsThroughRows else { return objectClass.init(entity: entity, insertInto: self) }
        let object = objectClass.init(row: newObjectRow(for: entity))
        insert(object)
        return object
    }

    /// The row `init(row:)` makes a new object of `entity` from, for inserting into this context.
    func newObjectRow(for entity: EntityDescription) -> ManagedObjectRow {
        ManagedObjectRow(newObjectIn: temporaryIDSpace(for: entity), for: self)
    }

    /// The entity a new object of `entityName` belongs to: in the model, and not abstract.
    func entityForInsertion(named entityName: String) throws -> EntityDescription {
        guard let model else {
            throw ObjectGraphError(.invalidOperation, "cannot insert a \(entityName): the context\(nameForMessages) has no coordinator")
        }
        let entity = try model.requireEntity(entityName)
        guard !entity.isAbstract else {
            throw ObjectGraphError(
                .invalidOperation, "cannot insert a \(entityName): the entity is abstract and has no instances of its own",
                entityName: entityName)
        }
        return entity
    }

    /// The entity for `Book(context:)`: as `entityForInsertion(named:)`, and `objectClass` must be
    /// the class the context makes for it, or fetches would return objects of another class.
    func entityForInsertion(of objectClass: ManagedObject.Type, named entityName: String) throws -> EntityDescription {
        let entity = try entityForInsertion(named: entityName)
        let registered = self.objectClass(for: entity)
        guard registered == objectClass else {
            throw ObjectGraphError(
                .typeMismatch,
                "the class of \(entityName) objects in this context's model is \(registered), not \(objectClass); register \(objectClass) with ManagedObjectModel.register(_:) before creating the container or coordinator",
                entityName: entityName)
        }
        return entity
    }

    /// Inserts a new object, created with `init(entity:insertInto: nil)`, into the context.
    public func insert(_ object: ManagedObject) {
        checkQueue("insert(_:) of a \(object.entity.name)")
        guard object.managedObjectContext == nil, !object.isInserted, object.objectID.isTemporaryID else { return }
        // A new object deleted and inserted again before its delete rules were followed: its
        // deletion is undone, so they are not to be followed.
        if object.marks.contains(.deletionPending) { pendingDeletions.removeAll { $0 === object } }
        object.managedObjectContext = self
        object.isInserted = true
        object.marks = .changed
        noteChangeInEvent()
        insertionOrder.append(object)
        insertedCount += 1
        object.awakeFromInsert()
    }

    /// Whether the context has unsaved inserts, updates or deletes.
    public var hasChanges: Bool { insertedCount > 0 || !updated.isEmpty || !deleted.isEmpty }

    /// The objects inserted since the last save.
    public var insertedObjects: Set<ManagedObject> { Set(pendingInserts) }
    /// The saved objects with unsaved changes.
    public var updatedObjects: Set<ManagedObject> { Set(updated) }
    /// The objects scheduled for deletion.
    public var deletedObjects: Set<ManagedObject> { Set(deleted) }
    /// Reports the changes made since the last report, as Core Data's `processPendingChanges()`
    /// does: an objects-did-change notification (and `changes(for: .objectsDidChange)` element)
    /// listing the objects inserted, updated and deleted in this event, so observers and fetched
    /// results controllers see them before a save. Each change is reported once: an object
    /// inserted and changed in the same event is reported as inserted; one changed after its
    /// insertion was reported, as updated; an unsaved insert deleted after it was reported, as
    /// deleted. Saves report what they write on their own, and start a new event. Nothing is
    /// posted when nothing changed since the last report. The context calls it itself at the end
    /// of every `perform` block, and a main-queue context at the end of the main queue's turn in
    /// which its objects changed, as Core Data does.
    ///
    /// First it follows the delete rules of the objects deleted in this event (unless
    /// `propagatesDeletesAtEndOfEvent` is `false`): the objects a cascade deletes and the
    /// neighbours that let go of deleted objects are reported with them.
    public func processPendingChanges() {
        checkQueue("processPendingChanges()")
        if propagatesDeletesAtEndOfEvent { propagateDeletes() }
        var inserted: [ManagedObjectID] = [], changed: [ManagedObjectID] = [], removed = deletedReportedInserts
        for object in pendingInserts where object.marks.contains(.changedInEvent) {
            if object.marks.contains(.insertReported) { changed.append(object.objectID) } else { inserted.append(object.objectID) }
            markReported(object)
        }
        for object in updated where object.marks.contains(.changedInEvent) {
            changed.append(object.objectID)
            markReported(object)
        }
        for object in deleted where object.marks.contains(.changedInEvent) {
            removed.append(object.objectID)
            markReported(object)
        }
        deletedReportedInserts = []
        guard !inserted.isEmpty || !changed.isEmpty || !removed.isEmpty else { return }
        post(ContextChanges(event: .objectsDidChange, inserted: inserted, updated: changed, deleted: removed))
    }

    /// Records that an objects-did-change named `object` with its changes so far: its later
    /// changes belong to the next event.
    func markReported(_ object: ManagedObject) {
        object.marks.remove(.changedInEvent)
        if object.isInserted { object.marks.insert(.insertReported) }
        if !object.isDeleted { reportedValues[ObjectKey(object)] = object.values }
    }

    /// Starts a new event with nothing reported: after a save, a rollback or a reset, whose own
    /// reports (or lack of changes) leave nothing pending.
    func forgetReportedChanges() {
        reportedValues.removeAll()
        deletedReportedInserts.removeAll()
    }

    /// Every object the context currently knows.
    public var registeredObjects: Set<ManagedObject> { Set(registered.values.map { $0.takeUnretainedValue() }).union(pendingInserts) }

    /// The registered object with `objectID`, or `nil`; never touches the store.
    public func registeredObject(for objectID: ManagedObjectID) -> ManagedObject? {
        checkQueue("registeredObject(for: \(objectID.shortDescription))")
        processPendingMerges()
        if let object = liveObject(objectID) { return object }
        return objectID.isTemporaryID ? pendingInserts.first { $0.objectID == objectID } : nil
    }

    /// Removes an inserted object from the context (its deletion, or a rollback).
    func forgetInserted(_ object: ManagedObject) {
        object.isInserted = false
        object.marks = []
        object.managedObjectContext = nil
        // Only an ID obtained in advance is registered; temporary ones never are.
        if !object.objectID.isTemporaryID { registered[object.objectID] = nil }
    }

    /// Inserted objects still pending, in insertion order.
    var pendingInserts: [ManagedObject] {
        if insertionOrder.count != insertedCount {
            insertionOrder.removeAll { !$0.isInserted }
        }
        return insertionOrder
    }

    /// Keeps the updated set in step when an object gains its first or loses its last change.
    func objectUpdateStateChanged(_ object: ManagedObject) {
        if object.isUpdated { updated.insert(object) } else { updated.remove(object) }
    }

    /// Discards every unsaved change: inserted objects leave the context, deleted ones come back,
    /// changed values return to their last saved state. Changes already reported (by
    /// `processPendingChanges()`) are reported undone in an objects-did-change: inserts as
    /// deleted, deletions as inserted, updates as updated, so fetched results controllers follow.
    public func rollback() {
        checkQueue("rollback()")
        deletionFailure = nil
        forgetPendingDeletions()
        // What observers heard of (processPendingChanges) and now goes back: reported inserts
        // leave, reported deletions return, reported updates revert.
        let leaving = pendingInserts.filter { $0.marks.contains(.insertReported) }.map(\.objectID)
        let returning = deleted.filter { !$0.isInserted && !$0.marks.contains(.changedInEvent) }.map(\.objectID)
        let reverting = updated.filter { !$0.isDeleted && reportedValues[ObjectKey($0)] != nil }.map(\.objectID)
        for object in pendingInserts { forgetInserted(object) }
        insertionOrder.removeAll()
        insertedCount = 0
        for object in updated { object.discardChanges() }
        for object in deleted {
            object.isDeleted = false
            object.discardChanges()
        }
        updated.removeAll()
        deleted.removeAll()
        forgetReportedChanges()
        applyHeldBackMerges()
        if !leaving.isEmpty || !returning.isEmpty || !reverting.isEmpty {
            post(ContextChanges(event: .objectsDidChange, inserted: returning, updated: reverting, deleted: leaving))
        }
    }

    /// Forgets every registered object and every unsaved change. Objects fetched before are
    /// detached and must not be used; fetch again. Posts objects-did-change with
    /// `invalidatesAllObjects` and the IDs of the objects let go, as Core Data does.
    public func reset() {
        checkQueue("reset()")
        deletionFailure = nil
        forgetPendingDeletions()
        var invalidated = ContextChanges(event: .objectsDidChange)
        invalidated.invalidatesAllObjects = true
        invalidated.invalidatedObjectIDs = Set(registered.values.map { $0.takeUnretainedValue().objectID })
        for object in pendingInserts { forgetInserted(object) }
        for object in registered.values { object.takeUnretainedValue().managedObjectContext = nil }
        registered.removeAll()
        insertionOrder.removeAll()
        insertedCount = 0
        updated.removeAll()
        deleted.removeAll()
        heldBackMerges.removeAll()
        mergedInserts.removeAll()
        forgetReportedChanges()
        post(invalidated)
    }

    /// Brings `object` up to date with the store. With `mergeChanges: false` unsaved changes are
    /// discarded and the object becomes a fault, its values released until next used. With
    /// `mergeChanges: true` the stored values are reloaded and the object's unsaved changes are
    /// applied on top of them.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) throws {
        checkQueue("refresh(_:mergeChanges:) of \(object.objectID.shortDescription)")
        guard object.isManaged(by: self), !object.isInserted else { return }
        guard mergeChanges else {
            updated.remove(object)
            reportedValues[ObjectKey(object)] = nil
            if object.isDeleted {
                // Its delete rules are no longer to be followed.
                if object.marks.contains(.deletionPending) { pendingDeletions.removeAll { $0 === object } }
                object.isDeleted = false
                deleted.remove(object)
            }
            object.marks = []
            object.turnIntoFault()
            heldBackMerges[object.objectID] = nil
            return
        }
        // Read the row first: if it is gone, the object keeps its values and changes untouched.
        merge(storedRow: try storedSnapshot(of: object.objectID, fresh: true), into: object)
    }

    /// Brings every registered object up to date with the store, as Core Data's
    /// `refreshAllObjects()`: objects with unsaved changes reload their stored values and keep
    /// their changes on top; the others become faults, their values released until next used.
    public func refreshAllObjects() throws {
        checkQueue("refreshAllObjects()")
        processPendingMerges()
        for object in registered.values.map({ $0.takeUnretainedValue() }) where !object.isInserted {
            try refresh(object, mergeChanges: object.hasChanges)
        }
    }

    /// Gives `object` the stored `row`, with the object's unsaved changes applied on top of it:
    /// changed attributes and to-ones keep their values (only the slots `kept` accepts, when
    /// given), changed to-manys their changes, and unchanged to-manys load again when next used.
    func merge(storedRow row: Snapshot, into object: ManagedObject, keeping kept: ((Int) -> Bool)? = nil) {
        let entity = object.entity
        let keptSlots = object.isFault ? [] : (0..<entity.rowWidth).filter(kept ?? object.changedAttributes.contains)
        let localChanges = keptSlots.map { ($0, object.values[$0]) }
        let changedToMany = entity.toManyRelationships.enumerated()
            .filter { position, _ in position < object.loadedToMany.count && object.loadedToMany[position]?.isChanged == true }
            .map(\.element.slot)
        // Destinations set since the last save stay held: an unsaved one is reachable only so.
        let held = object.heldToOne
        // The row merged now is at least as new as any held back for the object.
        if !heldBackMerges.isEmpty { heldBackMerges[object.objectID] = nil }
        object.observingChanges {
            object.changedAttributes.removeAll()
            object.fill(from: row)
            for (slot, value) in localChanges where !value.isStoredEqual(to: object.values[slot]) {
                object.savedValues.keep(slot, of: object.values)
                object.values[slot] = value
                object.changedAttributes.insert(slot)
            }
            if held.contains(where: { $0 != nil }) {
                object.heldToOne = HeldDestinations(
                    held.enumerated().map { position, destination in
                        object.changedAttributes.contains(entity.toOneRelationships[position].slot) ? destination : nil
                    })
            }
            for slot in changedToMany { object.changedAttributes.insert(slot) }
            for (position, related) in object.loadedToMany.enumerated() where related?.isChanged == false {
                object.loadedToMany[position] = nil
            }
        }
        objectUpdateStateChanged(object)
    }
}

extension ManagedObject {
    /// Returns the object to its last saved values and relationships.
    func discardChanges() {
        observingChanges {
            savedValues.restore(&values)
            savedValues = SavedValues()
            marks.subtract([.changedInEvent, .detectsConflicts])
            changedAttributes.removeAll()
            relationshipHold.releaseToOnes()
            for position in loadedToMany.indices { loadedToMany[position]?.revert() }
        }
    }

    /// Drops the object's values and loaded relationships; the next access loads them again.
    /// Calls `willTurnIntoFault()` before and `didTurnIntoFault()` after, as Core Data does.
    func turnIntoFault() {
        let runsHooks = runsLifecycleCode
        if runsHooks { willTurnIntoFault() }
        defer { if runsHooks { didTurnIntoFault() } }
        observingChanges {
            values = []
            savedValues = SavedValues()
            changedAttributes.removeAll()
            relationshipHold.releaseToOnes()
            loadedToMany = []
            isFault = true
        }
    }
}
