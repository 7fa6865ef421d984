extension ManagedObjectContext {
    /// The ID of the saved object of `entityName` whose key is `primaryKey`: its `primaryKey`
    /// attribute's value when the entity declares one, else the row key the store gave it (the
    /// number at the end of its URI). No URI string is built or parsed, and the store is not read,
    /// except for an entity with sub-entities: an ID names the object's own entity, so the row's
    /// entity is read (`.objectNotFound` when there is no such row). Throws `.unknownEntity` for a
    /// name the model lacks, `.invalidOperation` for a key below 1 (keys start at 1).
    public func objectID(forEntity entityName: String, primaryKey: Int64) throws -> ManagedObjectID {
        checkQueue("objectID(forEntity: \(entityName), primaryKey: \(primaryKey))")
        let (store, entity) = try keyedEntity(entityName, primaryKeys: CollectionOfOne(primaryKey))
        // One key without arrays: this is the inner step of every lookup and delete by key.
        guard hasSubentityRows(entity, in: store) else {
            return ManagedObjectID(space: store.idSpaces[entity.index], primaryKey: primaryKey)
        }
        return try objectIDs(in: entity, of: store, primaryKeys: [primaryKey]).first
            ?? {
                throw ObjectGraphError(.objectNotFound, "There is no \(entityName) object with key \(primaryKey)", entityName: entityName)
            }()
    }

    /// The IDs of the saved objects of `entityName` with these keys (see
    /// `objectID(forEntity:primaryKey:)`), in the order of the keys. For an entity with
    /// sub-entities, the store is read for every row's entity (one read per entity of the
    /// hierarchy), and keys without a row are left out.
    public func objectIDs(forEntity entityName: String, primaryKeys: [Int64]) throws -> [ManagedObjectID] {
        checkQueue("objectIDs(forEntity: \(entityName), primaryKeys:)")
        let (store, entity) = try keyedEntity(entityName, primaryKeys: primaryKeys)
        return try objectIDs(in: entity, of: store, primaryKeys: primaryKeys)
    }

    /// The store and the entity named `entityName`, once `primaryKeys` are known to be keys
    /// (`.unknownEntity` for a name the model lacks, `.invalidOperation` for a key below 1).
    private func keyedEntity(_ entityName: String, primaryKeys: some Collection<Int64>) throws -> (any PersistentStore, EntityDescription) {
        let store = try requireStore()
        let entity = try store.model.requireEntity(entityName)
        if let bad = primaryKeys.first(where: { $0 < 1 }) {
            throw ObjectGraphError(
                .invalidOperation, "\(bad) is not a key of a saved \(entityName) object: keys start at 1", entityName: entityName)
        }
        return (store, entity)
    }

    /// Whether rows with `entity`'s keys may belong to other entities of its hierarchy, so that
    /// an ID (which names the row's own entity) needs the row read.
    private func hasSubentityRows(_ entity: EntityDescription, in store: any PersistentStore) -> Bool {
        store.model.isInHierarchy(entity) && store.model.kinds(of: entity).count > 1
    }

    /// `objectIDs(forEntity:primaryKeys:)` for a known entity and valid keys.
    private func objectIDs(in entity: EntityDescription, of store: any PersistentStore, primaryKeys: [Int64]) throws -> [ManagedObjectID] {
        guard hasSubentityRows(entity, in: store) else {
            return primaryKeys.map { ManagedObjectID(space: store.idSpaces[entity.index], primaryKey: $0) }
        }
        // A hierarchy shares its keys: each key is the row of exactly one of its entities.
        var owners: [Int64: Int] = [:]
        for kind in store.model.kinds(of: entity) {
            for (key, row) in try store.snapshots(of: kind, primaryKeys: primaryKeys) { owners[key] = row.entityIndex }
        }
        return primaryKeys.compactMap { key in owners[key].map { ManagedObjectID(space: store.idSpaces[$0], primaryKey: key) } }
    }

    /// The object of `entityName` with key `primaryKey` (see `objectID(forEntity:primaryKey:)`),
    /// registered in this context: as `object(with:)`, a fault when not registered yet, which
    /// throws `.objectNotFound` when read if there is no such object.
    public func object(ofEntity entityName: String, primaryKey: Int64) throws -> ManagedObject {
        object(with: try objectID(forEntity: entityName, primaryKey: primaryKey))
    }

    /// The object of `entityName` with key `primaryKey`, its values loaded; throws
    /// `.objectNotFound` when there is no such object (never saved, or deleted).
    public func existingObject(ofEntity entityName: String, primaryKey: Int64) throws -> ManagedObject {
        try existingObject(with: try objectID(forEntity: entityName, primaryKey: primaryKey))
    }

    /// The objects of `entityName` with these keys that exist, values loaded, in the order of the
    /// keys (keys without an object are left out): registered objects as they are, the others
    /// read from the store at once.
    public func existingObjects(ofEntity entityName: String, primaryKeys: [Int64]) throws -> [ManagedObject] {
        let ids = try objectIDs(forEntity: entityName, primaryKeys: primaryKeys)
        let store = try requireStore()
        let missing = ids.filter { registeredObject(for: $0).map { $0.isFault } ?? true }
        var rows: [Int64: Snapshot] = [:]
        for (entityIndex, group) in Dictionary(grouping: missing, by: { $0.entity.index }) {
            rows.merge(try store.snapshots(of: store.model.entities[entityIndex], primaryKeys: group.compactMap(\.primaryKey))) {
                first, _ in first
            }
        }
        return ids.compactMap { objectID in
            if let object = registeredObject(for: objectID), !object.isFault { return object }
            guard let key = objectID.primaryKey, let row = rows[key] else { return nil }
            if let fault = registeredObject(for: objectID) {
                fault.fill(from: row)
                fault.awakeFromFetch()
                return fault
            }
            let object = makeObject(objectID, snapshot: row)
            register(object)
            return object
        }
    }
}
