import Foundation

/// An in-memory store that starts from a SQLite store file (`url` in its description): the
/// way a test loads a store an older release wrote. The file is never changed: a copy of it is
/// opened as a SQLite store, migrated to the model as a file would be, and its objects (keys and
/// store identifier kept, so object IDs and URIs match the file's) and relationships become the
/// in-memory store's first save.
extension InMemoryStore {
    /// The store identifier and the save that fill an in-memory store from the store file at `url`.
    static func seed(
        from url: URL, description: PersistentStoreDescription, model: ManagedObjectModel
    ) throws -> (identifier: String, request: (_ spaces: [ObjectIDSpace]) -> SaveRequest) {
        let path = SQLiteStoreState.fileSystemPath(url)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("objectgraph-seed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("seed.sqlite")
        do {
            let source = try SQLiteConnection(path: path, readOnly: true, busyTimeout: description.busyTimeout)
            defer { source.close() }
            try source.copy(into: copy.path, activity: "Cannot copy the store at \(path) into memory")
        }
        var fileDescription = description
        fileDescription.type = .sqlite
        fileDescription.url = copy
        fileDescription.isReadOnly = false
        fileDescription.backsUpStoreBeforeMigrating = false
        let store = try SQLiteStore(description: fileDescription, model: model)
        defer { store.close() }
        var rows: [Snapshot] = []
        var pairs: [(entity: EntityDescription, relationship: RelationshipDescription, members: [Int64: [ManagedObjectID]])] = []
        let layout = RelationshipLayout(model: model)
        for entity in model.entities {
            var request = StoreFetchRequest(entity: entity)
            request.includesSubentities = false
            let fetched = try store.fetch(request)
            rows += fetched
            // To-manys whose pairs are not in the rows' foreign keys, and every ordered one (its order).
            for relationship in entity.ownRelationships where relationship.isToMany {
                if case .inverseForeignKey = layout[relationship, of: entity], !relationship.isOrdered { continue }
                let keys = try store.fetch(StoreFetchRequest(entity: entity)).map(\.primaryKey)
                pairs.append((entity, relationship, try store.relatedObjectIDs(of: relationship, in: entity, sources: keys)))
            }
        }
        return (
            store.identifier,
            { spaces in
                func local(_ objectID: ManagedObjectID) -> ManagedObjectID {
                    ManagedObjectID(space: spaces[objectID.entity.index], primaryKey: objectID.primaryKey ?? 0)
                }
                var request = SaveRequest()
                request.inserts = rows.map { row in
                    SaveRequest.Insert(
                        objectID: ManagedObjectID(space: spaces[row.entityIndex], primaryKey: row.primaryKey),
                        values: row.values.map { value in if case .object(let objectID) = value { .object(local(objectID)) } else { value }
                        })
                }
                // A hierarchy shares its keys: each key names one row of one entity of it.
                var entityOfKey: [Int: [Int64: Int]] = [:]
                for row in rows { entityOfKey[model.rootIndexes[row.entityIndex], default: [:]][row.primaryKey] = row.entityIndex }
                for (entity, relationship, members) in pairs {
                    for (key, destinations) in members where !destinations.isEmpty {
                        guard let ownerIndex = entityOfKey[model.rootIndexes[entity.index]]?[key] else { continue }
                        let related = destinations.map(local)
                        request.relationshipChanges.append(
                            RelationshipChange(
                                objectID: ManagedObjectID(space: spaces[ownerIndex], primaryKey: key),
                                relationship: model.entities[ownerIndex].relationships[relationship.index],
                                added: related, removed: [], order: relationship.isOrdered ? related : nil))
                    }
                }
                return request
            }
        )
    }
}
