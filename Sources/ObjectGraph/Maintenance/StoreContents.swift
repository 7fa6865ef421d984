import Foundation

/// Every object of a store, read through the store seam (any kind of store): each entity's rows
/// with their keys and to-one references, and the to-many memberships the rows do not hold
/// (join tables, and every ordered to-many for its order). Written into another store as one
/// save with the same keys (`saveRequest`), it makes a copy whose object IDs name the same objects.
/// `StoreCopy` reads and writes the same a page at a time, through the static functions here.
package struct StoreContents {
    /// Every row, each entity's own rows in key order, entities in model order.
    package let rows: [Snapshot]
    /// The memberships, in the source store's object IDs.
    private let memberships: [RelationshipChange]

    /// Reads every object of `store`; `read` hears of each entity after its rows are read.
    package init(of store: any PersistentStore, read: (_ entity: EntityDescription, _ rows: Int) -> Void = { _, _ in }) throws {
        let model = store.model
        var rows: [Snapshot] = []
        var memberships: [RelationshipChange] = []
        let layout = RelationshipLayout(model: model)
        for entity in model.entities {
            var request = StoreFetchRequest(entity: entity)
            request.includesSubentities = false
            let fetched = try store.fetch(request)
            rows += fetched
            read(entity, fetched.count)
            for relationship in Self.membershipRelationships(of: entity, layout: layout) {
                let owners = try store.fetch(StoreFetchRequest(entity: entity))
                memberships += try Self.memberships(of: relationship, in: entity, owners: owners, from: store)
            }
        }
        self.rows = rows
        self.memberships = memberships
    }

    /// The save inserting every object with its key into a store of the same model whose ID
    /// spaces are `spaces`, with its relationships.
    package func saveRequest(model: ManagedObjectModel, spaces: [ObjectIDSpace]) -> SaveRequest {
        var request = SaveRequest()
        request.inserts = SaveRequest.Inserts(rows.map { Self.insert(of: $0, spaces: spaces) })
        request.relationshipChanges = memberships.map { Self.change($0, spaces: spaces) }
        return request
    }

    /// The to-many relationships declared on `entity` whose memberships its rows do not hold:
    /// those kept in join tables, and every ordered one (for its order).
    static func membershipRelationships(of entity: EntityDescription, layout: RelationshipLayout) -> [RelationshipDescription] {
        entity.ownRelationships.filter { relationship in
            guard relationship.isToMany else { return false }
            if case .inverseForeignKey = layout[relationship, of: entity], !relationship.isOrdered { return false }
            return true
        }
    }

    /// The memberships of `relationship` (declared on `entity`) of `owners` (rows of `entity`
    /// and its sub-entities, read from `store`): one change adding every destination of each
    /// owner that has any, in `store`'s object IDs.
    static func memberships(
        of relationship: RelationshipDescription, in entity: EntityDescription, owners: [Snapshot], from store: any PersistentStore
    ) throws -> [RelationshipChange] {
        let model = store.model
        let members = try store.relatedObjectIDs(of: relationship, in: entity, sources: owners.map(\.primaryKey))
        return owners.compactMap { owner in
            guard let destinations = members[owner.primaryKey], !destinations.isEmpty else { return nil }
            return RelationshipChange(
                objectID: ManagedObjectID(space: store.idSpaces[owner.entityIndex], primaryKey: owner.primaryKey),
                relationship: model.entities[owner.entityIndex].relationships[relationship.index],
                added: destinations, removed: [], order: relationship.isOrdered ? destinations : nil)
        }
    }

    /// `row` inserted with its key into a store whose ID spaces are `spaces`.
    static func insert(of row: Snapshot, spaces: [ObjectIDSpace]) -> SaveRequest.Insert {
        SaveRequest.Insert(
            objectID: ManagedObjectID(space: spaces[row.entityIndex], primaryKey: row.primaryKey),
            values: ValueRow(
                row.values.lazy.map { value in if case .object(let objectID) = value { .object(local(objectID, spaces)) } else { value } }))
    }

    /// `change` in the object IDs of a store whose ID spaces are `spaces`.
    static func change(_ change: RelationshipChange, spaces: [ObjectIDSpace]) -> RelationshipChange {
        RelationshipChange(
            objectID: local(change.objectID, spaces), relationship: change.relationship, added: change.added.map { local($0, spaces) },
            removed: change.removed.map { local($0, spaces) }, order: change.order.map { $0.map { local($0, spaces) } })
    }

    private static func local(_ objectID: ManagedObjectID, _ spaces: [ObjectIDSpace]) -> ManagedObjectID {
        ManagedObjectID(space: spaces[objectID.entity.index], primaryKey: objectID.primaryKey ?? 0)
    }
}
