/// Batch inserts written as their rows are made: each row goes straight through the entity's
/// prepared INSERT, inside one save transaction (so the key counter is kept, and restored on
/// failure, as a save keeps it), without save requests, temporary IDs or key maps in between.
extension SQLiteStoreState {
    /// Inserts `count` rows of `entity`, row `index` made by `row(index)`; returns their IDs in
    /// order. A row is checked as a save checks an inserted row; any failure writes nothing.
    func insertInPlace(_ entity: EntityDescription, count: Int, row: (Int) throws -> ValueRow) throws -> [ManagedObjectID] {
        let table = try table(for: entity)
        let root = model.rootIndexes[entity.index]
        let space = idSpaces[entity.index]
        // Errors name a failing row as an unsaved object, as the in-memory store's do.
        let unsaved = ObjectIDSpace(entity: entity, storeIdentifier: "")
        let keys = SaveKeys(idSpaces: idSpaces)
        var inserted: [ManagedObjectID] = []
        inserted.reserveCapacity(count)
        _ = try save { _ in
            for index in 0..<count {
                let values = try row(index)
                let objectID = ManagedObjectID(space: unsaved, temporaryNumber: TemporaryIDGenerator.next())
                // An entity with a primary key attribute brings its own keys; others are counted.
                let key = try PrimaryKeyRule.declaredKey(in: values, of: objectID) ?? nextPrimaryKey(for: root)
                try insertRow(values, key: key, into: table, keys: keys, objectID: objectID)
                inserted.append(ManagedObjectID(space: space, primaryKey: key))
            }
            return []
        }
        return inserted
    }
}
