/// Relationships in the in-memory store, kept exactly as `RelationshipStorage` lays them out for
/// SQLite: foreign keys in rows, join pairs, positions. Orders match SQLite's queries.
extension InMemoryStore {
    func related(
        _ relationship: RelationshipDescription, of entity: EntityDescription, sources: Set<Int64>, in state: State
    ) throws -> [Int64: [ManagedObjectID]] {
        let destinations = model.kinds(of: model.entities[relationship.destinationIndex])
        // (source, position, destination) triples, sorted like SQLite's ORDER BY: NULL positions first.
        var found: [(source: Int64, position: Int?, destination: Int64)] = []
        switch relationshipLayout[relationship, of: entity] {
        case .foreignKey:
            throw ObjectGraphError(
                .invalidOperation, "\(entity.name).\(relationship.name) is a to-one relationship", entityName: entity.name,
                key: relationship.name)
        case .inverseForeignKey(let inverse, let positionColumn):
            let positions = positionColumn.flatMap { state.positions[PositionKey(entityIndex: relationship.destinationIndex, column: $0)] }
            for destination in destinations {
                // The inverse has the same position in every sub-entity; its slot may differ.
                let slot = destination.relationships[inverse.index].slot
                for row in state.tables[destination.index].rows.values {
                    guard case .object(let owner) = row.values[slot], let key = owner.primaryKey, sources.contains(key) else { continue }
                    found.append((key, positions?[row.primaryKey], row.primaryKey))
                }
            }
        case .joinTable(let table, let side):
            let rows = state.joins[table.name] ?? JoinRows()
            for pair in rows.pairs {
                let (own, other) = side == .source ? (pair.source, pair.destination) : (pair.destination, pair.source)
                guard sources.contains(own) else { continue }
                let position = side == .source ? rows.positions[pair] : rows.inversePositions[pair]
                found.append((own, position, other))
            }
        }
        found.sort { a, b in
            if a.source != b.source { return a.source < b.source }
            if a.position != b.position { return (a.position ?? .min) < (b.position ?? .min) }
            return a.destination < b.destination
        }
        var related: [Int64: [ManagedObjectID]] = [:]
        for triple in found {
            // Keys are unique across a hierarchy: the row's table says its entity.
            guard let entity = destinations.first(where: { state.tables[$0.index].rows[triple.destination] != nil }) else { continue }
            related[triple.source, default: []].append(ManagedObjectID(space: idSpaces[entity.index], primaryKey: triple.destination))
        }
        return related
    }

    /// Drops the join pairs and positions of a deleted row.
    func forgetRelationships(of objectID: ManagedObjectID, key: Int64, in state: inout State) {
        for (table, column) in relationshipLayout.joinColumns(holding: objectID.entity, in: model) {
            guard var rows = state.joins[table.name] else { continue }
            let gone = rows.pairs.filter { (column == JoinTable.sourceColumn ? $0.source : $0.destination) == key }
            for pair in gone {
                rows.pairs.remove(pair)
                rows.positions[pair] = nil
                rows.inversePositions[pair] = nil
            }
            state.joins[table.name] = rows
        }
        for column in relationshipLayout.positionColumnsByEntity[objectID.entity.index] {
            state.positions[PositionKey(entityIndex: objectID.entity.index, column: column)]?[key] = nil
        }
    }

    /// The same writes as `SQLiteStoreState.applyRelationshipChanges`: pairs first, positions after.
    func applyRelationshipChanges(_ changes: [RelationshipChange], keys: SaveKeys, to state: inout State) throws {
        for change in changes {
            guard case .joinTable(let table, .source) = relationshipLayout[change.relationship, of: change.objectID.entity] else {
                continue
            }
            let own = try keys.key(of: change.objectID, referencedBy: change.objectID, through: change.relationship.name)
            var rows = state.joins[table.name] ?? JoinRows()
            for removed in change.removed {
                let pair = JoinRows.Pair(
                    source: own, destination: try keys.key(of: removed, referencedBy: change.objectID, through: change.relationship.name))
                rows.pairs.remove(pair)
                rows.positions[pair] = nil
                rows.inversePositions[pair] = nil
            }
            for added in change.added {
                rows.pairs.insert(
                    JoinRows.Pair(
                        source: own, destination: try keys.key(of: added, referencedBy: change.objectID, through: change.relationship.name))
                )
            }
            state.joins[table.name] = rows
        }
        for change in changes {
            guard let order = change.order else { continue }
            let own = try keys.key(of: change.objectID, referencedBy: change.objectID, through: change.relationship.name)
            let members = try order.map { try keys.key(of: $0, referencedBy: change.objectID, through: change.relationship.name) }
            switch relationshipLayout[change.relationship, of: change.objectID.entity] {
            case .inverseForeignKey(let inverse, let positionColumn?):
                let destination = change.relationship.destinationIndex
                let key = PositionKey(entityIndex: destination, column: positionColumn)
                for (position, member) in members.enumerated() {
                    // Like SQLite's `WHERE _pk = ? AND inverse = ?`: only rows that belong to this owner.
                    guard
                        let memberEntity = model.kinds(of: model.entities[destination]).first(where: {
                            state.tables[$0.index].rows[member] != nil
                        }),
                        let row = state.tables[memberEntity.index].rows[member],
                        case .object(let owner) = row.values[memberEntity.relationships[inverse.index].slot], owner.primaryKey == own
                    else { continue }
                    state.positions[key, default: [:]][member] = position
                }
            case .joinTable(let table, let side):
                guard var rows = state.joins[table.name] else { continue }
                for (position, member) in members.enumerated() {
                    let pair =
                        side == .source ? JoinRows.Pair(source: own, destination: member) : JoinRows.Pair(source: member, destination: own)
                    guard rows.pairs.contains(pair) else { continue }
                    switch side {
                    case .source where table.hasPosition: rows.positions[pair] = position
                    case .destination where table.hasInversePosition: rows.inversePositions[pair] = position
                    default: break
                    }
                }
                state.joins[table.name] = rows
            default:
                continue
            }
        }
    }
}
