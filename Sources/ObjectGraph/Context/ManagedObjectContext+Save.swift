import Foundation

extension ManagedObjectContext {
    /// Writes every unsaved change to the store in one transaction, on the store's background
    /// queue, and returns when it is committed.
    ///
    /// Every object is validated first; a failure throws one `.validation` error listing each
    /// object, key and reason. If validation or the store fails, nothing is written and the
    /// context keeps all its changes, so the caller can fix them and save again.
    public func save() throws {
        guard hasChanges else { return }
        let store = try requireStore()
        let plan = try makeSavePlan(for: store)
        let assignedKeys = try store.save(plan.request)
        didSave(plan, assignedKeys: assignedKeys, store: store)
    }

    /// Saves like `save()`, suspending instead of blocking while the store commits.
    public func save() async throws {
        try await perform { try self.save() }
    }

    /// The objects and value rows of one save, in the order the store applies them.
    struct SavePlan {
        var request = SaveRequest()
        var inserted: [ManagedObject] = []
        var updated: [ManagedObject] = []
        var deleted: [ManagedObject] = []
    }

    private func makeSavePlan(for store: any PersistentStore) throws -> SavePlan {
        var plan = SavePlan()
        plan.inserted = pendingInserts
        // Rows are written in table and key order: B-tree pages are then visited once each, in
        // sequence, instead of at random (several times faster for large saves).
        plan.updated = updated.values.sorted(by: Self.storageOrder)
        plan.deleted = deleted.values.sorted(by: Self.storageOrder)
        var failures: [ValidationFailure] = []
        for object in plan.inserted { failures += ObjectValidator.failures(of: object) }
        for object in plan.updated { failures += ObjectValidator.failures(of: object) }
        if !failures.isEmpty { throw ObjectValidator.error(for: failures) }

        plan.request.deletes = plan.deleted.map(\.objectID)
        plan.request.updates = plan.updated.map { object in
            SaveRequest.Update(
                objectID: object.objectID,
                changedAttributes: object.changedAttributes.slots(below: object.entity.attributes.count)
                    .filter { !object.entity.attributes[$0].isTransient },
                values: object.values)
        }
        plan.request.updates.removeAll { $0.changedAttributes.isEmpty }
        plan.request.inserts = plan.inserted.map { SaveRequest.Insert(objectID: $0.objectID, values: $0.values) }
        return plan
    }

    private static func storageOrder(_ a: ManagedObject, _ b: ManagedObject) -> Bool {
        if a.entity.index != b.entity.index { return a.entity.index < b.entity.index }
        return (a.objectID.primaryKey ?? 0) < (b.objectID.primaryKey ?? 0)
    }

    /// Makes the context match the store after a committed save: inserted objects get permanent
    /// IDs, committed values move forward, deleted objects leave the context.
    private func didSave(_ plan: SavePlan, assignedKeys: [Int64], store: any PersistentStore) {
        var keys = assignedKeys.makeIterator()
        registered.reserveCapacity(registered.count + plan.inserted.count)
        for object in plan.inserted {
            if object.objectID.isTemporaryID, let key = keys.next() {
                object.objectID = ManagedObjectID(space: store.idSpaces[object.entity.index], primaryKey: key)
                registered[object.objectID] = object
            }
            object.isInserted = false
            object.isNew = false
            object.savedValues = nil
            object.rowVersion = 1
        }
        for object in plan.updated {
            object.savedValues = nil
            object.changedAttributes.removeAll()
            object.rowVersion += 1
        }
        for object in plan.deleted {
            registered[object.objectID] = nil
            object.managedObjectContext = nil
        }
        insertionOrder.removeAll()
        insertedCount = 0
        updated.removeAll()
        deleted.removeAll()
    }
}
