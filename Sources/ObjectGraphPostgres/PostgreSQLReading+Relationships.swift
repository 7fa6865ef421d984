import ObjectGraph
import PostgresNIO

/// Relationships, the reading side: to-many destinations by foreign key or join table (see
/// `RelationshipLayout.membershipSQL`), owners' keys as `IN` lists.
extension PostgreSQLReading {
    func relatedObjectIDs(
        of relationship: RelationshipDescription, in entity: EntityDescription, sources: [Int64]
    ) throws -> [Int64: [ManagedObjectID]] {
        _ = try table(for: entity)
        let destinationTable = tables[relationship.destinationIndex]
        let destination = model.entities[relationship.destinationIndex]
        var related = OwnerGroups<ManagedObjectID>()
        for start in stride(from: 0, to: sources.count, by: Self.keysPerStatement) {
            let owners = sources[start..<min(start + Self.keysPerStatement, sources.count)]
            let sql = try RelationshipLayout.membershipSQL(
                of: relationship, in: entity, layout: relationshipLayout, destinationTable: destinationTable,
                filter: "IN (\(placeholders(owners.count)))")
            for cells in try read(sql, owners.map { .integer($0) }, for: entity).rows {
                let key = try cells[1].decode(Int64.self)
                guard key > 0 else {
                    throw ObjectGraphError(
                        .corruptStore,
                        "The store is damaged: \(entity.name).\(relationship.name) refers to a \(destination.name) with key \(key); keys start at 1",
                        entityName: entity.name, key: relationship.name)
                }
                var space = idSpaces[destination.index]
                if destinationTable.kindsFilter != nil {
                    let name = try cells[2].decode(String.self)
                    guard let kind = model.entity(named: name), model.entity(kind, isKindOf: destination) else {
                        throw ObjectGraphError(
                            .corruptStore,
                            "The store is damaged: \(entity.name).\(relationship.name) refers to row \(key) of entity '\(name)', which is not a \(destination.name)",
                            entityName: entity.name, key: relationship.name)
                    }
                    space = idSpaces[kind.index]
                }
                related.append(ManagedObjectID(space: space, primaryKey: key), owner: try cells[0].decode(Int64.self))
            }
        }
        return related.finished()
    }

    /// The destinations with their rows: their keys first, then their rows, in one transaction
    /// so the rows match the memberships.
    func relatedSnapshots(
        of relationship: RelationshipDescription, in entity: EntityDescription, sources: [Int64]
    ) throws -> [Int64: [Snapshot]] {
        guard !sources.isEmpty else { return [:] }
        do {
            return try connection.transaction {
                let related = try relatedObjectIDs(of: relationship, in: entity, sources: sources)
                var rows: [Int: [Int64: Snapshot]] = [:]
                for (entityIndex, objectIDs) in Dictionary(grouping: related.values.joined(), by: { $0.entity.index }) {
                    rows[entityIndex] = try snapshots(of: model.entities[entityIndex], primaryKeys: objectIDs.compactMap(\.primaryKey))
                }
                return related.mapValues { $0.compactMap { rows[$0.entity.index]?[$0.primaryKey!] } }
            }
        } catch let failure as PostgreSQLFailure {
            // The reads inside explain their own failures; this is the transaction's BEGIN or COMMIT.
            throw failure.error("Cannot read the \(relationship.name) of \(entity.name) objects", entityName: entity.name)
        }
    }
}
