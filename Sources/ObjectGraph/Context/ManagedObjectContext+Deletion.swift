extension ManagedObjectContext {
    /// Schedules `object` for deletion at the next save and applies the delete rules of its
    /// relationships at once, so the graph in memory is consistent before the save:
    ///
    /// - `nullify` (the default) removes the object from the inverse relationship of each
    ///   destination;
    /// - `cascade` deletes the destinations too, following their own rules (cycles end, since an
    ///   object is deleted once);
    /// - `deny` is checked when saving: the save fails while the relationship is not empty;
    /// - `noAction` leaves the destinations untouched (they may point at the deleted object).
    ///
    /// Deleting an object inserted since the last save forgets it. If the store cannot be read to
    /// follow a rule, the next `save()` throws that error and writes nothing.
    public func delete(_ object: ManagedObject) {
        checkQueue("delete(_:) of \(object.objectID.shortDescription)")
        guard object.isManaged(by: self), !object.isDeleted else { return }
        object.prepareForDeletion()
        guard object.entity.relationships.contains(where: Self.propagates) else {
            markDeleted(object)
            return
        }
        var deleting: Set<ObjectKey> = [ObjectKey(object)]
        // Each object to delete, with the to-one relationship that leads back to the object whose
        // cascade reached it: that one need not be followed (its destination is being deleted).
        var level: [(object: ManagedObject, backIndex: Int?)] = [(object, nil)]
        var doomed: [ManagedObject] = []
        do {
            // Level by level, not recursion: a cascade may run through thousands of objects, and
            // each level's reads are batched: one store request per entity and relationship.
            while !level.isEmpty {
                try fulfillFaults(level.filter { Self.mustReadToOnes(of: $0.object, except: $0.backIndex) }.map(\.object))
                let objects = level.map(\.object)
                // Cascaded destinations are only deleted: their keys suffice. Nullified ones change.
                // Deleting one object of many in a loop is the usual pattern, so the first level
                // also loads the cascaded memberships of registered objects like it (one query
                // for a batch of them, instead of one per deleted object).
                let companions = doomed.isEmpty ? cascadeCompanions(of: object) : []
                try loadToManyRelationships(of: objects + companions, withRows: false) { $0.deleteRule == .cascade }
                try loadToManyRelationships(of: objects) { $0.deleteRule == .nullify }
                var nextLevel: [(object: ManagedObject, backIndex: Int?)] = []
                for (next, backIndex) in level {
                    doomed.append(next)
                    for relationship in next.entity.relationships where Self.propagates(relationship) && relationship.index != backIndex {
                        for destination in try destinations(of: next, through: relationship)
                        where destination.isManaged(by: self) && !destination.isDeleted && !deleting.contains(ObjectKey(destination)) {
                            if relationship.deleteRule == .cascade {
                                destination.prepareForDeletion()
                                deleting.insert(ObjectKey(destination))
                                let back = relationship.inverseIndex.flatMap { destination.entity.relationships[$0].isToOne ? $0 : nil }
                                nextLevel.append((destination, back))
                            } else if let inverseIndex = relationship.inverseIndex {
                                try destination.unlink(next, through: destination.entity.relationships[inverseIndex])
                            }
                        }
                    }
                }
                level = nextLevel
            }
        } catch {
            deletionFailure = (error as? ObjectGraphError)
                ?? ObjectGraphError(.invalidOperation, "deleting \(object.objectID.shortDescription) could not follow its delete rules: \(error)")
        }
        for object in doomed { markDeleted(object) }
    }

    /// Registered saved objects of `object`'s entity, nearest to it in key order, whose cascaded
    /// to-manys are not loaded yet: the ones a loop deleting objects one by one reaches next.
    private func cascadeCompanions(of object: ManagedObject) -> [ManagedObject] {
        let entity = object.entity
        let cascaded = entity.toManyRelationships.enumerated().filter { $0.element.deleteRule == .cascade }.map(\.offset)
        func needsLoading(_ candidate: ManagedObject) -> Bool {
            cascaded.contains { candidate.loadedToMany.isEmpty || candidate.loadedToMany[$0] == nil }
        }
        // An object whose memberships are loaded (by an earlier batch, say) needs no companions.
        guard !cascaded.isEmpty, needsLoading(object) else { return [] }
        return registered.objects(near: object.objectID, limit: Self.cascadeBatch) { companion in
            companion.isManaged(by: self) && !companion.isDeleted && !companion.isNew && needsLoading(companion)
        }
    }

    /// How many objects' cascaded memberships one delete loads at most.
    private static let cascadeBatch = 1_000

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

    /// Moves an object into the deleted set, or forgets it if it was inserted since the last save.
    private func markDeleted(_ object: ManagedObject) {
        guard object.isManaged(by: self), !object.isDeleted else { return }
        if object.isInserted {
            // Observers told of the insertion are told of the deletion at the next report.
            if object.marks.contains(.insertReported) { deletedReportedInserts.append(object.objectID) }
            forgetInserted(object)
            insertedCount -= 1
            return
        }
        // Only an object with changed values (or marked by `detectConflicts(for:)`) is in `updated`.
        if !object.changedAttributes.isEmpty || object.marks.contains(.detectsConflicts) { updated[ObjectKey(object)] = nil }
        object.markChanged()
        object.isDeleted = true
        deleted[ObjectKey(object)] = object
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
                failures.append(ValidationFailure(
                    entityName: object.entity.name, objectID: object.objectID, key: relationship.name,
                    reason: "cannot be deleted while \(relationship.name) holds \(remaining.count) \(remaining.count == 1 ? "object" : "objects") (\(shown)\(remaining.count > 3 ? ", …" : "")); its delete rule is deny"))
            }
        }
        return failures
    }
}
