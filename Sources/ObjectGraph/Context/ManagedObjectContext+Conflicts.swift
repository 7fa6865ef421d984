extension ManagedObjectContext {
    /// How many times a save resolves conflicts and tries again before giving up: each try is
    /// one transaction, and another writer may change rows again in between.
    static let conflictAttempts = 4

    /// Marks `object` for conflict detection, as Core Data's `detectConflicts(for:)`: the next
    /// save checks that its row is still at the version this context read, even when the object
    /// has no changes of its own, and meets a conflict (resolved by the merge policy) when another
    /// context or process changed or deleted it since — optimistic locking for an object the save
    /// depends on without changing it. The object joins `updatedObjects` until that save (the
    /// check bumps the row's version) or a rollback. Does nothing for new or deleted objects.
    public func detectConflicts(for object: ManagedObject) throws {
        checkQueue("detectConflicts(for: \(object.objectID.shortDescription))")
        guard object.isManaged(by: self), !object.isNew, !object.isDeleted else { return }
        // The version to check is the one of the values the object holds: load them if it has none.
        if object.isFault { try object.fulfillFault() }
        object.marks.insert(.detectsConflicts)
        updated.insert(object)
    }

    /// The conflicts a store reported, described with this context's objects.
    func mergeConflicts(_ conflicts: VersionConflicts) -> [MergeConflict] {
        conflicts.rows.compactMap { objectID, current in
            guard let object = liveObject(objectID) else { return nil }
            return MergeConflict(
                kind: current == nil ? .deletedInStore : .changedInStore, objectID: objectID,
                ours: object.values, theirs: current, original: object.committed, objectVersion: object.rowVersion)
        }
    }

    /// The inserted objects whose uniqueness-constrained values a stored object already has (the
    /// stored object not deleted here): found by one fetch per object and constraint.
    func uniquenessConflicts() throws -> [(conflict: MergeConflict, stored: Snapshot)] {
        let store = try requireStore()
        var found: [(MergeConflict, Snapshot)] = []
        for object in pendingInserts where !object.entity.uniquenessConstraints.isEmpty {
            let entity = object.entity
            for keys in entity.uniquenessConstraints {
                // Like the stores, a constraint with a nil value never conflicts.
                var arguments: [Any] = []
                for key in keys {
                    let slot = entity.slotOrEnd(key)
                    guard let value = object.values[slot].anyValue(as: entity.attributeTypes[slot]) else { break }
                    arguments += [key, value]
                }
                guard arguments.count == 2 * keys.count else { continue }
                let format = keys.map { _ in "%K == %@" }.joined(separator: " AND ")
                let predicate = try FetchPredicate(format: format, argumentArray: arguments).bind(to: entity, in: store.model)
                let rows = try store.fetch(StoreFetchRequest(entity: entity, predicate: predicate))
                guard
                    let row = rows.first(where: {
                        liveObject(ManagedObjectID(space: store.idSpaces[$0.entityIndex], primaryKey: $0.primaryKey))?.isDeleted != true
                    })
                else { continue }
                let storedID = ManagedObjectID(space: store.idSpaces[row.entityIndex], primaryKey: row.primaryKey)
                found.append(
                    (
                        MergeConflict(
                            kind: .uniqueness(keys: keys), objectID: object.objectID, conflictingObjectID: storedID,
                            ours: object.values, theirs: row, original: entity.defaultValues, objectVersion: 0), row
                    ))
                break
            }
        }
        return found
    }

    /// The `.mergeConflict` error for `conflicts`.
    func conflictError(_ conflicts: [MergeConflict], attempts: Int) -> ObjectGraphError {
        let reason =
            mergePolicy.basePolicy == .error
            ? "the merge policy is \(mergePolicy)"
            : "they were still there after \(attempts) attempts to resolve them with \(mergePolicy)"
        let plural = conflicts.count == 1 ? "" : "s"
        let clashes =
            conflicts.allSatisfy(\.isUniquenessClash)
            ? "\(conflicts.count) inserted object\(plural) with the uniqueness-constrained values of a stored object"
            : "\(conflicts.count) conflict\(plural) with changes saved elsewhere since this context read its objects"
        var error = ObjectGraphError(
            .mergeConflict,
            "Cannot save\(nameForMessages): \(clashes), and \(reason); nothing was written.\n"
                + conflicts.map { "  \($0)" }.joined(separator: "\n"),
            entityName: conflicts.first?.entityName, objectID: conflicts.first?.objectID, key: conflicts.first?.leadingKey)
        error.mergeConflicts = conflicts
        return error
    }

    /// Lets a custom merge policy's resolver see `conflicts` first (it may change objects, or
    /// throw its own error).
    func resolveByCustomPolicy(_ conflicts: [MergeConflict]) throws {
        if case .custom(let resolver) = mergePolicy { try resolver.resolve(conflicts, in: self) }
    }

    /// Changes the conflicting objects as the merge policy says, so the next try can succeed.
    func resolve(_ conflicts: [MergeConflict]) {
        let policy = mergePolicy.basePolicy
        let ourChangesWin = policy == .mergeByPropertyObjectTrump || policy == .overwrite
        for conflict in conflicts {
            guard let object = liveObject(conflict.objectID) else { continue }
            guard let theirs = conflict.storeSnapshot else {
                // A row deleted elsewhere stays deleted: the object is marked so, with nothing to save.
                _ = markObjects(deletedElsewhere: [conflict.objectID])
                continue
            }
            if object.isDeleted {
                if ourChangesWin {
                    object.rowVersion = theirs.version
                } else {
                    deleted.remove(object)
                    object.isDeleted = false
                    object.discardChanges()
                    merge(storedRow: theirs, into: object, keeping: { _ in false })
                }
                continue
            }
            switch policy {
            case .mergeByPropertyObjectTrump:
                merge(storedRow: theirs, into: object)
            case .mergeByPropertyStoreTrump:
                let original = object.committed
                merge(storedRow: theirs, into: object, keeping: { slot in theirs.values[slot].isStoredEqual(to: original[slot]) })
            case .overwrite:
                merge(storedRow: theirs, into: object, keeping: { _ in true })
            case .rollback, .error, .custom:
                object.discardChanges()
                merge(storedRow: theirs, into: object, keeping: { _ in false })
            }
        }
    }

    /// Resolves uniqueness conflicts: each inserted object becomes the stored object it
    /// duplicates (taking its ID and row), with its own values on top when this context's changes
    /// win. Returns the conflicts it could not resolve: the stored object is registered here
    /// with unsaved changes of its own.
    func resolve(uniquenessConflicts conflicts: [(conflict: MergeConflict, stored: Snapshot)]) -> [MergeConflict] {
        let policy = mergePolicy.basePolicy
        let ourChangesWin = policy == .mergeByPropertyObjectTrump || policy == .overwrite
        var unresolved: [MergeConflict] = []
        for (conflict, stored) in conflicts {
            guard let object = pendingInserts.first(where: { $0.objectID == conflict.objectID }),
                let storedID = conflict.conflictingObjectID
            else { continue }
            if let existing = liveObject(storedID) {
                guard !existing.hasChanges else {
                    unresolved.append(conflict)
                    continue
                }
                // The stored object's stand-in here steps aside for the inserted one.
                registered[storedID] = nil
                existing.turnIntoFault()
                existing.managedObjectContext = nil
            }
            object.isInserted = false
            object.isNew = false
            insertedCount -= 1
            object.objectID = storedID
            register(object)
            merge(
                storedRow: stored, into: object,
                keeping: ourChangesWin ? { slot in !object.values[slot].isStoredEqual(to: stored.values[slot]) } : { _ in false })
        }
        return unresolved
    }
}

extension MergeConflict {
    /// Whether an inserted object clashes with a stored one by a uniqueness constraint.
    var isUniquenessClash: Bool {
        if case .uniqueness = kind { true } else { false }
    }

    /// The key an error about the conflict names: the constraint's first key for a uniqueness
    /// clash, else the first property in conflict.
    var leadingKey: String? {
        if case .uniqueness(let constrained) = kind { return constrained.first }
        return keys.first
    }

    /// The stored row the conflict was found against, when it still exists.
    var storeSnapshot: Snapshot? {
        guard let theirs, let storeVersion else { return nil }
        return Snapshot(
            primaryKey: objectID.primaryKey ?? conflictingObjectID?.primaryKey ?? 0, values: theirs, version: storeVersion,
            entityIndex: objectID.entity.index)
    }
}
