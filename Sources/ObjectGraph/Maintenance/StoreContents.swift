import Foundation

/// Every object of a store, read through the store seam (any kind of store): each entity's rows
/// with their keys and to-one references, and the to-many memberships the rows do not hold
/// (join tables, and every ordered to-many for its order). Written into another store as one
/// save with the same keys (`saveRequest`), it makes a copy whose object IDs name the same objects.
package struct StoreContents {
    /// Every row, each entity's own rows in key order, entities in model order.
    package let rows: [Snapshot]
    private let memberships: [(entity: EntityDescription, relationship: RelationshipDescription, members: [Int64: [ManagedObjectID]])]

    /// Reads every object of `store`; `read` hears of each entity after its rows are read.
    package init(of store: any PersistentStore, read: (_ entity: EntityDescription, _ rows: Int) -> Void = { _, _ in }) throws {
        let model = store.model
        var rows: [Snapshot] = []
        var memberships: [(EntityDescription, RelationshipDescription, [Int64: [ManagedObjectID]])] = []
        let layout = RelationshipLayout(model: model)
        for entity in model.entities {
            var request = StoreFetchRequest(entity: entity)
            request.includesSubentities = false
            let fetched = try store.fetch(request)
            rows += fetched
            read(entity, fetched.count)
            // To-manys whose pairs are not in the rows' foreign keys, and every ordered one (its order).
            for relationship in entity.ownRelationships where relationship.isToMany {
                if case .inverseForeignKey = layout[relationship, of: entity], !relationship.isOrdered { continue }
                let keys = try store.fetch(StoreFetchRequest(entity: entity)).map(\.primaryKey)
                memberships.append((entity, relationship, try store.relatedObjectIDs(of: relationship, in: entity, sources: keys)))
            }
        }
        self.rows = rows
        self.memberships = memberships
    }

    /// The save inserting every object with its key into a store of the same model whose ID
    /// spaces are `spaces`, with its relationships.
    package func saveRequest(model: ManagedObjectModel, spaces: [ObjectIDSpace]) -> SaveRequest {
        func local(_ objectID: ManagedObjectID) -> ManagedObjectID {
            ManagedObjectID(space: spaces[objectID.entity.index], primaryKey: objectID.primaryKey ?? 0)
        }
        var request = SaveRequest()
        request.inserts = rows.map { row in
            SaveRequest.Insert(
                objectID: ManagedObjectID(space: spaces[row.entityIndex], primaryKey: row.primaryKey),
                values: row.values.map { value in if case .object(let objectID) = value { .object(local(objectID)) } else { value } })
        }
        // A hierarchy shares its keys: each key names one row of one entity of it.
        var entityOfKey: [Int: [Int64: Int]] = [:]
        for row in rows { entityOfKey[model.rootIndexes[row.entityIndex], default: [:]][row.primaryKey] = row.entityIndex }
        for (entity, relationship, members) in memberships {
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
}
