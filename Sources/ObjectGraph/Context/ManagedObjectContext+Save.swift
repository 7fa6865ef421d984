import Foundation

extension ManagedObjectContext {
    /// Writes every unsaved change to the store in one transaction, on the store's background
    /// queue, and returns when it is committed.
    ///
    /// Every object is validated first; a failure throws one `.validation` error listing each
    /// object, key and reason. If validation or the store fails, nothing is written and the
    /// context keeps all its changes, so the caller can fix them and save again.
    ///
    /// Posts `willSaveNotification` before and `didSaveNotification` after (see `ContextChanges`);
    /// contexts that merge automatically receive the did-save changes.
    public func save() throws {
        checkQueue("save()")
        processPendingMerges()
        // Deletions propagate first, so the will-save notification and `willSave()` see what the
        // save writes (a child's save hands the propagated graph to its parent).
        propagateDeletes()
        guard hasChanges else { return }
        let store = try requireStore()
        // A child hands its new objects to its parent under their lasting IDs (see ParentContextStore).
        if parent != nil { try obtainPermanentIDs(for: pendingInserts.filter(\.objectID.isTemporaryID)) }
        // One pass over each kind of change gathers the objects' IDs and the objects whose class
        // has save hooks, which run after the notification.
        var hooked: [ManagedObject] = []
        func gather<Objects: Sequence<ManagedObject>>(_ objects: Objects) -> [ManagedObjectID] {
            var ids: [ManagedObjectID] = []
            ids.reserveCapacity(objects.underestimatedCount)
            for object in objects {
                ids.append(object.objectID)
                if object.runsLifecycleCode { hooked.append(object) }
            }
            return ids
        }
        let insertedIDs = gather(pendingInserts)
        post(ContextChanges(event: .willSave, inserted: insertedIDs, updated: gather(updated), deleted: gather(deleted)))
        if !hooked.isEmpty { try callWillSave(hooked) }
        let (changes, reportedUpdates): (ContextChanges, [ManagedObjectID])
        // A scope of its own: the saved objects that nothing else holds are released when it
        // ends, before the notification's ID sets are made, not on top of them.
        do {
            guard var saved = try writeResolvingConflicts(to: store) else { return }
            // The rows are written: letting the request's copies go now leaves each object the only
            // holder of its row, so the permanent IDs `didSave` writes into rows change them in place.
            saved.plan.request.inserts = []
            saved.plan.request.updates = []
            saved.plan.request.committedValues = []
            sharedRowCache?.removeAll()
            (changes, reportedUpdates) = didSave(&saved.plan, assignedKeys: saved.assignedKeys, store: store)
            for object in saved.plan.hooked { object.didSave() }
            // Deleted for good, as in Core Data: no longer "to be deleted at the next save" (a
            // `didSave()` could still tell a deleted object by it).
            for object in saved.plan.deleted { object.isDeleted = false }
        }
        post(changes, reportedUpdates: reportedUpdates)
        if parent == nil {
            persistentStoreCoordinator?.mergeTargets.deliver(changes, except: self)
            persistentStoreCoordinator?.noteSave()
        }
        childMergeTargets.deliver(changes, except: nil)
    }

    /// Saves like `save()`, suspending instead of blocking while the store commits.
    public func save() async throws {
        try await perform { try self.save() }
    }

    /// How many rounds of `willSave()` a save makes at most before it gives up (Core Data's bound).
    static let willSaveRounds = 100

    /// Calls `willSave()` on `objects`, then again, as Core Data does, on each object with save
    /// hooks that the last round changed or brought into the save, until a round changes none.
    /// Throws `.invalidOperation` when the changes go on for `willSaveRounds` rounds.
    private func callWillSave(_ objects: [ManagedObject]) throws {
        var round = objects
        var called = Set<ObjectKey>()
        for _ in 0..<Self.willSaveRounds {
            for object in round {
                object.marks.remove(.changedSinceWillSave)
                called.insert(ObjectKey(object))
            }
            for object in round { object.willSave() }
            // Objects a `willSave()` deleted, and what their cascades delete, get theirs next round.
            propagateDeletes()
            round = (pendingInserts + Array(updated) + Array(deleted)).filter { object in
                object.runsLifecycleCode && (object.marks.contains(.changedSinceWillSave) || !called.contains(ObjectKey(object)))
            }
            if round.isEmpty { return }
        }
        throw ObjectGraphError(
            .invalidOperation,
            "Cannot save\(nameForMessages): willSave() was still changing \(round.count) object\(round.count == 1 ? "" : "s") (\(round.prefix(3).map(\.objectID.shortDescription).joined(separator: ", "))) after \(Self.willSaveRounds) rounds; a willSave() that sets a value on every call never lets the save start (compare before setting, or use setPrimitiveValue(_:forKey:)); nothing was written.",
            entityName: round.first?.entity.name, objectID: round.first?.objectID)
    }

    /// Writes the changes; on conflicts with changes saved elsewhere, resolves them by the merge
    /// policy and tries again (a few times at most), or throws `.mergeConflict`. Returns the plan
    /// written and the keys the store assigned, or `nil` when resolving left nothing to save.
    private func writeResolvingConflicts(to store: any PersistentStore) throws -> (plan: SavePlan, assignedKeys: [Int64])? {
        var attempt = 1
        while true {
            let plan = try makeSavePlan(for: store)
            do {
                return (plan, try store.save(plan.request))
            } catch let conflicts as VersionConflicts {
                let found = mergeConflicts(conflicts)
                try resolveByCustomPolicy(found)
                guard mergePolicy.basePolicy != .error, attempt < Self.conflictAttempts else {
                    throw conflictError(found, attempts: attempt)
                }
                resolve(found)
            } catch let error as ObjectGraphError where error.kind == .constraintViolation {
                // A clash among this save's own inserts has no stored object to merge with: it
                // stays a constraint violation.
                let found = try uniquenessConflicts()
                guard !found.isEmpty else { throw error }
                try resolveByCustomPolicy(found.map(\.conflict))
                guard mergePolicy.basePolicy != .error, attempt < Self.conflictAttempts else {
                    throw conflictError(found.map(\.conflict), attempts: attempt)
                }
                let unresolved = resolve(uniquenessConflicts: found)
                guard unresolved.isEmpty else { throw conflictError(unresolved, attempts: attempt) }
            }
            attempt += 1
            guard hasChanges else { return nil }
        }
    }

    /// The objects and value rows of one save, in the order the store applies them.
    struct SavePlan {
        var request = SaveRequest()
        var inserted: [ManagedObject] = []
        var updated: [ManagedObject] = []
        var deleted: [ManagedObject] = []
        /// Updated objects with nothing to write to their own rows (only transient attributes, or
        /// to-manys stored in the other side's rows): their row versions stay as they are.
        var unwritten: Set<ObjectKey> = []
        /// The saved objects whose class has save hooks (`ManagedObject.hasCustomLifecycle`): their
        /// `didSave()` runs once the whole context is up to date.
        var hooked: [ManagedObject] = []
    }

    private func makeSavePlan(for store: any PersistentStore) throws -> SavePlan {
        // Deleted by an observer of the will-save notification, or while resolving conflicts.
        propagateDeletes()
        if let deletionFailure { throw deletionFailure }
        var plan = SavePlan()
        plan.request.contextName = name
        plan.request.author = transactionAuthor
        plan.inserted = pendingInserts
        // Rows are written in table and key order: B-tree pages are then visited once each, in
        // sequence, instead of at random (several times faster for large saves).
        plan.updated = Self.inStorageOrder(updated)
        plan.deleted = Self.inStorageOrder(deleted)
        let customRules = persistentStoreCoordinator?.customValidationRules ?? ValidationRules()
        let model = store.model
        var failures: [ValidationFailure] = []
        var customFailures: [ValidationFailure] = []
        // One pass over the new objects validates each and brings its row up to date: a large
        // insert's objects are mostly out of the processor's caches, and each pass over them
        // costs a miss per object. The store reads the rows from the objects themselves.
        for object in plan.inserted {
            ObjectValidator.appendFailures(of: object, to: &failures)
            customRules.appendFailures(of: object, phase: .insert, model: model, to: &customFailures)
            if object.relationshipHold.holdsToOne { object.refreshHeldReferences() }
            if !object.loadedToMany.isEmpty { plan.request.relationshipChanges += object.relationshipChanges() }
        }
        plan.request.inserts = SaveRequest.Inserts(objects: plan.inserted)
        var savedCustomFailures: [ValidationFailure] = []
        for object in plan.updated {
            ObjectValidator.appendFailures(of: object, to: &failures)
            customRules.appendFailures(of: object, phase: .update, model: model, to: &savedCustomFailures)
        }
        failures += try denyFailures(of: plan.deleted)
        for object in plan.deleted { customRules.appendFailures(of: object, phase: .delete, model: model, to: &savedCustomFailures) }
        failures += customFailures
        failures += savedCustomFailures
        if !failures.isEmpty { throw ObjectValidator.error(for: failures) }

        plan.request.deletes = plan.deleted.map(\.objectID)
        // Only rows the context read have a version to hold them to (a deleted fault has none).
        if plan.deleted.contains(where: { $0.rowVersion > 0 }) { plan.request.deleteVersions = plan.deleted.map(\.rowVersion) }
        var columns: [Int] = []
        // Reserved: a large request grown by doubling would hold its old and new storage at once.
        plan.request.updates.reserveCapacity(plan.updated.count)
        for object in plan.updated {
            object.refreshHeldReferences()
            let changes = object.relationshipChanges()
            columns = object.savedColumns(sameAs: columns)
            // A change of to-many relationships only still bumps the row's version, and so does the
            // version check `detectConflicts(for:)` asked for.
            guard !columns.isEmpty || !changes.isEmpty || object.marks.contains(.detectsConflicts) else {
                plan.unwritten.insert(ObjectKey(object))
                continue
            }
            plan.request.updates.append(
                SaveRequest.Update(
                    objectID: object.objectID, changedAttributes: columns, values: object.values,
                    expectedVersion: object.rowVersion > 0 ? object.rowVersion : nil))
            if parent != nil { plan.request.committedValues.append(object.committed) }
            plan.request.relationshipChanges += changes
        }
        return plan
    }

    /// `objects` by entity, then primary key. Keys are dense in practice (tables count from 1), so
    /// each entity's objects are placed by key in one pass, without comparisons; sparse keys are
    /// sorted. The passes hold the objects unretained (`objects` keeps them alive): a retain and a
    /// release per object per pass cost more than the placing.
    private static func inStorageOrder(_ objects: ObjectSet) -> [ManagedObject] {
        typealias Entry = (key: Int64, object: Unmanaged<ManagedObject>)
        var byEntity: [[Entry]] = []
        for object in objects {
            let entity = object.entity.index
            if entity >= byEntity.count { byEntity += Array(repeating: [], count: entity + 1 - byEntity.count) }
            byEntity[entity].append((object.objectID.primaryKey ?? 0, Unmanaged.passUnretained(object)))
        }
        var ordered: [ManagedObject] = []
        ordered.reserveCapacity(objects.count)
        for entries in byEntity where !entries.isEmpty {
            if let placed = placedByKey(entries) {
                for case let object? in placed { ordered.append(object.takeUnretainedValue()) }
            } else {
                for entry in entries.sorted(by: { $0.key < $1.key }) { ordered.append(entry.object.takeUnretainedValue()) }
            }
        }
        return withExtendedLifetime(objects) { ordered }
    }

    /// `entries` in key order, placed by key (with gaps), or `nil` when their keys are too sparse
    /// for that (or repeat).
    private static func placedByKey(_ entries: [(key: Int64, object: Unmanaged<ManagedObject>)]) -> [Unmanaged<ManagedObject>?]? {
        var low = Int64.max
        var high = Int64.min
        for entry in entries {
            low = min(low, entry.key)
            high = max(high, entry.key)
        }
        guard keysFitDenseArray(span: UInt64(high - low), count: entries.count) else { return nil }
        var slots = [Unmanaged<ManagedObject>?](repeating: nil, count: Int(high - low) + 1)
        for (key, object) in entries {
            guard slots[Int(key - low)] == nil else { return nil }
            slots[Int(key - low)] = object
        }
        return slots
    }

    /// Makes the context match the store after a committed save: inserted objects get permanent
    /// IDs, committed values move forward, deleted objects leave the context. Returns the
    /// did-save change set and the updated objects whose changes an objects-did-change reported
    /// already, and fills `plan.hooked`.
    ///
    /// A saved insert that nothing but the plan holds any more — no variable of the caller, no
    /// other object — is not registered: it is released with the plan, before the did-save
    /// notification, as it would be right after registering it, and `object(with:)` makes a
    /// fault for its ID if it is wanted again. A bulk insert then costs no registry entries at all.
    private func didSave(
        _ plan: inout SavePlan, assignedKeys: [Int64], store: any PersistentStore
    ) -> (ContextChanges, reportedUpdates: [ManagedObjectID]) {
        var keys = assignedKeys.makeIterator()
        // The plan holds the inserted objects from here on (`insertionOrder` is usually the same
        // array), so a reference count of one means nothing else does.
        insertionOrder = []
        insertedCount = 0
        var insertedIDs: [ManagedObjectID] = []
        insertedIDs.reserveCapacity(plan.inserted.count)
        // Objects whose relationships are committed once every new object has its permanent ID.
        var committing: [ManagedObject] = []
        for index in plan.inserted.indices {
            let isHeldElsewhere = !isKnownUniquelyReferenced(&plan.inserted[index])
            let object = plan.inserted[index]
            // A hook may keep its object, so objects with hooks are registered whatever holds them.
            let runsHooks = object.runsLifecycleCode
            if object.objectID.isTemporaryID, let key = keys.next() {
                object.objectID = ManagedObjectID(space: store.idSpaces[object.entity.index], primaryKey: key)
                if isHeldElsewhere || runsHooks { register(object) } else { object.isLeftUnregistered = true }
            }
            object.isInserted = false
            object.isNew = false
            object.marks = []
            object.savedValues = SavedValues()
            object.rowVersion = Snapshot.firstVersion
            insertedIDs.append(object.objectID)
            if !object.relationshipHold.isEmpty { committing.append(object) }
            if runsHooks { plan.hooked.append(object) }
        }
        var reportedUpdates: [ManagedObjectID] = []
        for object in plan.updated {
            if !object.marks.contains(.changedInEvent) { reportedUpdates.append(object.objectID) }
            object.savedValues = SavedValues()
            object.marks = []
            object.changedAttributes.removeAll()
            if !plan.unwritten.contains(ObjectKey(object)) { object.rowVersion += 1 }
            if !object.relationshipHold.isEmpty { committing.append(object) }
            if object.runsLifecycleCode { plan.hooked.append(object) }
        }
        // Destinations saved by this save have permanent IDs only now.
        for object in committing { object.commitRelationships() }
        for object in plan.deleted {
            registered[object.objectID] = nil
            object.managedObjectContext = nil
            if object.runsLifecycleCode { plan.hooked.append(object) }
        }
        updated.removeAll()
        deleted.removeAll()
        forgetReportedChanges()
        // The request holds the deleted objects' IDs already, in the same order.
        return (
            ContextChanges(event: .didSave, inserted: insertedIDs, updated: plan.updated.map(\.objectID), deleted: plan.request.deletes),
            reportedUpdates
        )
    }
}

extension ManagedObject {
    /// Writes the current IDs of held to-one destinations into the value row: a destination
    /// given its permanent ID since it was set (saved, or `obtainPermanentIDs`) is stored by it.
    func refreshHeldReferences() {
        // To-one slots follow the attributes, in the order of `toOneRelationships`.
        let toOneCount = entity.toOneRelationships.count
        let firstToOneSlot = entity.rowWidth - toOneCount
        for position in 0..<toOneCount {
            // Read in place: `heldToOne` would make a collection of the holds (retaining each).
            guard let held = relationshipHold.heldDestination(at: position) else { continue }
            let slot = firstToOneSlot + position
            // An unchanged ID is left alone: writing it would copy a row the save request shares.
            if case .object(let stored) = values[slot], stored == held.objectID { continue }
            values[slot] = .object(held.objectID)
        }
    }

    /// The to-many changes to save, one per changed relationship.
    func relationshipChanges() -> [RelationshipChange] {
        var changes: [RelationshipChange] = []
        for (position, related) in loadedToMany.enumerated() {
            guard let related, related.isChanged else { continue }
            let relationship = entity.toManyRelationships[position]
            // An unordered to-many with a to-one inverse is written entirely through the inverse's rows.
            guard relationship.isOrdered || relationship.inverseIndex == nil || relationship.isInverseToMany else { continue }
            let (added, removed, orderChanged) = related.changes()
            guard !added.isEmpty || !removed.isEmpty || orderChanged else { continue }
            changes.append(
                RelationshipChange(
                    objectID: objectID, relationship: relationship,
                    added: added.map(\.objectID), removed: removed.map(\.objectID),
                    order: relationship.isOrdered ? related.objects.map(\.objectID) : nil))
        }
        return changes
    }

    /// After a save: held destinations are stored by their permanent IDs and let go (so saved
    /// objects do not keep each other alive), and loaded to-manys become the committed state.
    func commitRelationships() {
        refreshHeldReferences()
        relationshipHold.releaseToOnes()
        for position in loadedToMany.indices { loadedToMany[position]?.commit() }
    }
}
