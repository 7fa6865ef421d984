extension ManagedObjectContext {
    /// Schedules `object` for deletion at the next save, as Core Data does: it is in
    /// `deletedObjects` and `isDeleted` at once (deleting an object inserted since the last save
    /// forgets it instead), and the delete rules of its relationships are followed when the
    /// context processes its pending changes — at the end of the event (see
    /// `propagatesDeletesAtEndOfEvent`) or at the latest when it saves. Until then its
    /// relationships, and its neighbours' relationships to it, keep their values:
    ///
    /// - `nullify` (the default) removes the object from the inverse relationship of each
    ///   destination;
    /// - `cascade` deletes the destinations too, following their own rules in the same pass
    ///   (cycles end, since an object is deleted once);
    /// - `deny` is checked when saving (and by `validateForDelete()`): the save fails while the
    ///   relationship holds objects that are not deleted;
    /// - `noAction` leaves the destinations untouched (they may point at the deleted object).
    ///
    /// Each deleted object's `prepareForDeletion()` runs once, when its rules are followed, before
    /// its neighbours let go of it. If the store cannot be read to follow a rule, the next
    /// `save()` throws that error and writes nothing.
    public func delete(_ object: ManagedObject) {
        checkQueue("delete(_:) of \(object.objectID.shortDescription)")
        guard object.isManaged(by: self), !object.isDeleted else { return }
        markDeleted(object)
        pendingDeletions.append(object)
        // An inserted object is forgotten without a change mark, yet its neighbours still change
        // at the end of the event.
        noteChangeInEvent()
    }

    /// Follows the delete rules of the objects deleted since they were last followed: called when
    /// pending changes are processed and by `save()`. Costs nothing when nothing was deleted.
    @inline(__always)
    func propagateDeletes() {
        if !pendingDeletions.isEmpty { propagatePendingDeletions() }
    }

    /// Lets go of the deletions whose rules are not followed yet (a rollback or a reset undoes
    /// them).
    func forgetPendingDeletions() {
        for object in pendingDeletions { object.marks.remove(.deletionPending) }
        pendingDeletions.removeAll()
    }

    private func propagatePendingDeletions() {
        // Every object deleted in this pass keeps `deletionPending` until the pass ends, so the
        // relationships loaded meanwhile hold it and its neighbours' links to it can be undone.
        var doomed: [ManagedObject] = []
        do {
            // `prepareForDeletion()` may delete more objects: they make the next round, until a
            // round deletes none.
            while !pendingDeletions.isEmpty {
                // A deletion undone since (`refresh(_:mergeChanges: false)`, a merged deletion)
                // lost its mark.
                var level: [(object: ManagedObject, backIndex: Int?)] =
                    pendingDeletions
                    .filter { $0.marks.contains(.deletionPending) }.map { ($0, nil) }
                doomed += level.lazy.map(\.object)
                pendingDeletions = []
                while !level.isEmpty {
                    level = try followDeleteRules(of: level, doomed: &doomed)
                }
            }
        } catch {
            deletionFailure =
                (error as? ObjectGraphError)
                ?? ObjectGraphError(
                    .invalidOperation,
                    "deleting \(doomed.first?.objectID.shortDescription ?? "objects") could not follow the delete rules: \(error)")
            doomed += pendingDeletions
            pendingDeletions = []
        }
        for object in doomed { object.marks.remove(.deletionPending) }
    }

    /// Calls `prepareForDeletion()` on one level of deleted objects, then follows their delete
    /// rules: nullified neighbours let go of them, cascaded destinations are deleted (added to
    /// `doomed`) and returned as the next level, each with the to-one relationship that leads back
    /// to the object whose cascade reached it (its destination is being deleted: not followed).
    private func followDeleteRules(
        of level: [(object: ManagedObject, backIndex: Int?)], doomed: inout [ManagedObject]
    ) throws -> [(object: ManagedObject, backIndex: Int?)] {
        for (object, _) in level where object.runsLifecycleCode { object.prepareForDeletion() }
        // A bulk delete of an entity without relationships to follow reads and changes nothing.
        guard level.contains(where: { $0.object.entity.relationships.contains(where: Self.propagates) }) else { return [] }
        // Level by level, not recursion: a cascade may run through thousands of objects, and each
        // level's reads are batched: one store request per entity and relationship (objects
        // deleted in a loop are one level).
        try fulfillFaults(level.filter { Self.mustReadToOnes(of: $0.object, except: $0.backIndex) }.map(\.object))
        let objects = level.map(\.object)
        // Cascaded destinations are only deleted: their keys suffice. Nullified ones change.
        try loadToManyRelationships(of: objects, withRows: false) { $0.deleteRule == .cascade }
        try loadToManyRelationships(of: objects) { $0.deleteRule == .nullify }
        var nextLevel: [(object: ManagedObject, backIndex: Int?)] = []
        for (object, backIndex) in level {
            for relationship in object.entity.relationships where Self.propagates(relationship) && relationship.index != backIndex {
                for destination in try destinations(of: object, through: relationship)
                where destination.isManaged(by: self) && !destination.isDeleted {
                    if relationship.deleteRule == .cascade {
                        markDeleted(destination)
                        doomed.append(destination)
                        let back = relationship.inverseIndex.flatMap { destination.entity.relationships[$0].isToOne ? $0 : nil }
                        nextLevel.append((destination, back))
                    } else if let inverseIndex = relationship.inverseIndex {
                        try destination.unlink(object, through: destination.entity.relationships[inverseIndex])
                    }
                }
            }
        }
        return nextLevel
    }

    /// Whether deleting an object follows `relationship`: cascade and nullify do, deny and noAction not.
    private static func propagates(_ relationship: RelationshipDescription) -> Bool {
        relationship.deleteRule == .cascade || relationship.deleteRule == .nullify
    }

    /// Whether following the delete rules of `object` reads its row: it has a to-one relationship
    /// to follow (other than the one at `backIndex`).
    private static func mustReadToOnes(of object: ManagedObject, except backIndex: Int?) -> Bool {
        object.values.isEmpty && object.entity.toOneRelationships.contains { propagates($0) && $0.index != backIndex }
    }

    /// The current destinations of a relationship (loading a to-many if needed).
    func destinations(of object: ManagedObject, through relationship: RelationshipDescription) throws -> [ManagedObject] {
        if relationship.isToOne { return try object.toOneDestination(relationship).map { [$0] } ?? [] }
        return object.loadedToMany[try object.loadRelationship(relationship)]!.objects
    }

    /// Moves an object into the deleted set, or forgets it if it was inserted since the last save;
    /// either way its delete rules are still to be followed.
    private func markDeleted(_ object: ManagedObject) {
        if object.isInserted {
            // Observers told of the insertion are told of the deletion at the next report.
            if object.marks.contains(.insertReported) { deletedReportedInserts.append(object.objectID) }
            forgetInserted(object)
            insertedCount -= 1
            object.marks = .deletionPending
            return
        }
        // Only an object with changed values (or marked by `detectConflicts(for:)`) is in `updated`.
        if !object.changedAttributes.isEmpty || object.marks.contains(.detectsConflicts) { updated.remove(object) }
        object.markChanged()
        object.marks.insert(.deletionPending)
        object.isDeleted = true
        deleted.insert(object)
    }

    /// Validation failures of `deny` rules: a deleted object whose deny relationship still holds
    /// objects (that are not deleted themselves).
    func denyFailures(of deletedObjects: [ManagedObject]) throws -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        for object in deletedObjects {
            for relationship in object.entity.relationships where relationship.deleteRule == .deny {
                let remaining = try destinations(of: object, through: relationship).filter { !$0.isDeleted && $0.isManaged(by: self) }
                guard !remaining.isEmpty else { continue }
                let shown = remaining.prefix(3).map(\.objectID.shortDescription).joined(separator: ", ")
                failures.append(
                    ValidationFailure(
                        entityName: object.entity.name, objectID: object.objectID, key: relationship.name,
                        reason:
                            "cannot be deleted while \(relationship.name) holds \(remaining.count) \(remaining.count == 1 ? "object" : "objects") (\(shown)\(remaining.count > 3 ? ", …" : "")); its delete rule is deny"
                    ))
            }
        }
        return failures
    }
}
