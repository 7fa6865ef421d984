extension ManagedObjectContext {
    /// A new private-queue context whose parent is this context: a scratchpad whose `save()`
    /// pushes its changes here, to be written when this context saves.
    public func newChildContext(concurrencyType: ConcurrencyType = .privateQueue) -> ManagedObjectContext {
        let child = ManagedObjectContext(concurrencyType: concurrencyType)
        child.parent = self
        return child
    }

    // MARK: - Serving a child (these run on this context's queue)

    /// The objects matching a child's store request, as this context sees them (its unsaved
    /// changes included), sorted and paged like a store answers.
    func objects(matching request: StoreFetchRequest) throws -> [ManagedObject] {
        let store = try requireStore()
        let plan = FetchPlan(request, model: store.model)
        var fetch = FetchRequest<ManagedObject>(entityName: request.entity.name)
        fetch.fetchLimit = request.limit ?? 0
        fetch.fetchOffset = request.offset
        fetch.includesSubentities = request.includesSubentities
        return try fetchObjects(plan, request: fetch, store: store)
    }

    /// Readies this context's objects for a child to read as rows: the delete rules of its
    /// deletions followed (a child must not meet a neighbour pointing at an object it cannot
    /// read), and every inserted object given a permanent ID, so a child can name it in rows.
    func prepareForChildRead() throws {
        propagateDeletes()
        // An object whose primary key is not set yet cannot be named by a key: it stays temporary.
        let temporary = pendingInserts.filter { object in
            object.objectID.isTemporaryID
                && object.entity.primaryKeyIndex.map { slot in (try? PrimaryKeyRule.key(from: object.values[slot]).get()) != nil } ?? true
        }
        guard !temporary.isEmpty else { return }
        try obtainPermanentIDs(for: temporary)
        // Rows naming those objects by their temporary IDs take the new ones.
        for object in pendingInserts + Array(updated) where object.relationshipHold.holdsToOne { object.refreshHeldReferences() }
    }

    /// The object with `objectID`, registered or loaded from the store, or `nil` when it does not
    /// exist or is deleted in this context.
    func liveOrStoredObject(_ objectID: ManagedObjectID) throws -> ManagedObject? {
        do {
            let object = try existingObject(with: objectID)
            return object.isDeleted ? nil : object
        } catch let error as ObjectGraphError where error.kind == .objectNotFound {
            return nil
        }
    }

    // MARK: - Taking a child's save

    /// Applies the changes a child context saved, as if they had been made here: new objects are
    /// inserted with the child's IDs, changed values and relationships are set (keeping inverses
    /// in step), deleted objects are deleted (following the delete rules). Posts
    /// objects-did-change and passes the changes on to the other children that merge
    /// automatically.
    func apply(_ request: SaveRequest, savedBy child: ManagedObjectContext) throws {
        processPendingMerges()
        var inserted: [(ManagedObject, ValueRow)] = []
        for insert in request.inserts {
            let object = objectClass(for: insert.objectID.entity).init(entity: insert.objectID.entity, insertInto: self)
            object.objectID = insert.objectID
            register(object)
            for attribute in object.entity.attributes { object.values[attribute.index] = insert.values[attribute.index] }
            inserted.append((object, insert.values))
        }
        // Relationships once every new object exists: they may point at each other.
        for (object, values) in inserted {
            for relationship in object.entity.toOneRelationships where !values[relationship.slot].isNull {
                try object.setToOneDestination(try destination(values[relationship.slot]), for: relationship)
            }
        }
        var updated: [ManagedObjectID] = []
        for (index, update) in request.updates.enumerated() {
            guard let object = try liveOrStoredObject(update.objectID) else { continue }
            updated.append(object.objectID)
            if let expected = update.expectedVersion, index < request.committedValues.count,
                let committed = request.committedValues[index], object.rowVersion != expected, !object.hasChanges
            {
                // The row moved on since the child read it (this copy was reloaded since): the
                // change stays tied to what the child read, so saving it is still a conflict.
                object.observingChanges {
                    object.values = committed
                    object.savedValues = SavedValues()
                }
                object.rowVersion = expected
            }
            let entity = object.entity
            for slot in update.changedAttributes {
                if slot < entity.attributes.count {
                    try object.setStoredValue(update.values[slot], at: slot)
                } else if let relationship = entity.toOneRelationships.first(where: { $0.slot == slot }) {
                    let value = update.values[slot]
                    try object.setToOneDestination(value.isNull ? nil : try destination(value), for: relationship)
                }
            }
        }
        for change in request.relationshipChanges {
            guard let object = try liveOrStoredObject(change.objectID) else { continue }
            for objectID in change.removed {
                if let member = try liveOrStoredObject(objectID) { try object.removeDestination(member, from: change.relationship) }
            }
            for objectID in change.added {
                if let member = try liveOrStoredObject(objectID) { try object.addDestination(member, to: change.relationship, at: nil) }
            }
            for (index, objectID) in (change.order ?? []).enumerated() {
                if let member = try liveOrStoredObject(objectID) { try object.addDestination(member, to: change.relationship, at: index) }
            }
            if !object.isInserted { updated.append(object.objectID) }
        }
        for objectID in request.deletes {
            if let object = try liveOrStoredObject(objectID) { delete(object) }
        }
        // The child followed the rules before saving; this updates what only this context holds
        // (the relationships it loaded), at once, so the pushed graph is consistent here too.
        propagateDeletes()
        let changes = ContextChanges(
            event: .objectsDidChange, insertedObjectIDs: Set(request.inserts.map(\.objectID)),
            updatedObjectIDs: Set(updated), deletedObjectIDs: Set(request.deletes))
        // This notification reports the pushed changes: `processPendingChanges()` must not again.
        for objectID in changes.insertedObjectIDs.union(changes.updatedObjectIDs).union(changes.deletedObjectIDs) {
            if let object = liveObject(objectID) { markReported(object) }
        }
        deletedReportedInserts.removeAll { changes.deletedObjectIDs.contains($0) }
        post(changes)
        childMergeTargets.deliver(changes, except: child)
    }

    /// The object a to-one value row slot names.
    private func destination(_ value: AttributeValue) throws -> ManagedObject {
        guard case .object(let objectID) = value else {
            throw ObjectGraphError(
                .invalidOperation, "a child context saved a relationship holding \(value.debugText) instead of an object")
        }
        guard let object = try liveOrStoredObject(objectID) else {
            throw ObjectGraphError(
                .objectNotFound,
                "a child context saved a relationship to \(objectID.shortDescription), which no longer exists in its parent context\(nameForMessages)",
                entityName: objectID.entity.name, objectID: objectID)
        }
        return object
    }
}

extension ManagedObject {
    /// The object's current values as a stored row, for a child context to read.
    func currentRow() throws -> Snapshot {
        if isFault { try fulfillFault() }
        guard let primaryKey = objectID.primaryKey else {
            throw ObjectGraphError(
                .invalidOperation, "\(objectID.shortDescription) has no permanent ID to hand to a child context", entityName: entity.name,
                objectID: objectID)
        }
        return Snapshot(primaryKey: primaryKey, values: values, version: rowVersion, entityIndex: entity.index)
    }
}
