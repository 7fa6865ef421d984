/// How every store keeps a relationship, worked out from the model alone so that the SQLite and
/// the in-memory store lay relationships out (and answer for them) the same way.
///
/// - A to-one is a foreign key: the destination's primary key in the source's row (its value-row
///   slot), `NULL` for none.
/// - A to-many whose inverse is a to-one is that inverse's foreign key, read from the other side;
///   when ordered, each destination row also keeps its position (`positionColumn`).
/// - Any other to-many (many-to-many, or one-way) is a join table of (source, destination) key
///   pairs, with positions for the ordered side(s). The two sides of a many-to-many share one
///   table, named after (and written by) the side whose `Entity.relationship` sorts first.
package enum RelationshipStorage {
    case foreignKey
    case inverseForeignKey(inverse: RelationshipDescription, positionColumn: String?)
    case joinTable(JoinTable, side: JoinTable.Side)

    init(_ relationship: RelationshipDescription, of entity: EntityDescription, in model: ManagedObjectModel) {
        guard relationship.isToMany else {
            self = .foreignKey
            return
        }
        let destination = model.entities[relationship.destinationIndex]
        guard let inverseIndex = relationship.inverseIndex else {
            self = .joinTable(JoinTable(owner: entity, relationship: relationship, inverse: nil), side: .source)
            return
        }
        let inverse = destination.relationships[inverseIndex]
        if inverse.isToOne {
            self = .inverseForeignKey(inverse: inverse, positionColumn: relationship.isOrdered ? Self.positionColumn(of: inverse) : nil)
            return
        }
        // A relationship that is its own inverse (a symmetric many-to-many, like friends) keeps
        // each pair in both directions, written by each object's own side.
        let inverseOwner =
            model.entities.first { $0.name == Self.declaringEntityName(of: inverse, in: destination, model: model) } ?? destination
        let selfOwner = model.entities.first { $0.name == Self.declaringEntityName(of: relationship, in: entity, model: model) } ?? entity
        let ownKey = "\(selfOwner.name).\(relationship.name)"
        let inverseKey = "\(inverseOwner.name).\(inverse.name)"
        if ownKey <= inverseKey {
            self = .joinTable(
                JoinTable(owner: selfOwner, relationship: relationship, inverse: ownKey == inverseKey ? nil : inverse), side: .source)
        } else {
            self = .joinTable(JoinTable(owner: inverseOwner, relationship: inverse, inverse: relationship), side: .destination)
        }
    }

    /// The column that orders the destinations of an ordered to-many kept through `inverse`'s
    /// foreign key: `_<inverse>_position`, next to that foreign key.
    static func positionColumn(of inverse: RelationshipDescription) -> String { "_\(inverse.name)_position" }

    /// The entity that declares `relationship` (an ancestor of `entity` for inherited ones), so
    /// a parent's relationship maps to the same join table in every sub-entity.
    private static func declaringEntityName(
        of relationship: RelationshipDescription, in entity: EntityDescription, model: ManagedObjectModel
    ) -> String {
        var declaring = entity
        while let parentName = declaring.parentName, let parent = model.entity(named: parentName),
            parent.relationships.indices.contains(relationship.index), parent.relationships[relationship.index].name == relationship.name
        {
            declaring = parent
        }
        return declaring.name
    }
}

/// A join table holding the pairs of a to-many relationship that has no to-one inverse:
/// `"source"` is the owning side's key, `"destination"` the other's; `"position"` orders the
/// destinations of each source when the owning relationship is ordered, `"inverse_position"`
/// the sources of each destination when the inverse is.
package struct JoinTable: Hashable, Sendable {
    package enum Side: Sendable {
        /// The owning relationship: its object is the pair's source.
        case source
        /// The inverse of the owning relationship: its object is the pair's destination.
        case destination
    }

    /// `_join_<Entity>_<relationship>` of the owning side; identifiers never start with `_`, so
    /// it cannot clash with an entity's table.
    package let name: String
    /// The entities of the sources and of the destinations, by model index.
    let sourceEntityIndex: Int
    let destinationEntityIndex: Int
    package let hasPosition: Bool
    package let hasInversePosition: Bool

    package static let sourceColumn = "source"
    package static let destinationColumn = "destination"
    package static let positionColumn = "position"
    package static let inversePositionColumn = "inverse_position"

    init(owner: EntityDescription, relationship: RelationshipDescription, inverse: RelationshipDescription?) {
        name = "_join_\(owner.name)_\(relationship.name)"
        sourceEntityIndex = owner.index
        destinationEntityIndex = relationship.destinationIndex
        hasPosition = relationship.isOrdered
        hasInversePosition = inverse?.isOrdered ?? false
    }

    /// The column holding this side's own object, the column holding its destinations, and the
    /// column ordering those destinations (if the side is ordered).
    func columns(for side: Side) -> (own: String, other: String, position: String?) {
        switch side {
        case .source: (Self.sourceColumn, Self.destinationColumn, hasPosition ? Self.positionColumn : nil)
        case .destination: (Self.destinationColumn, Self.sourceColumn, hasInversePosition ? Self.inversePositionColumn : nil)
        }
    }
}

/// The storage of every relationship of a model, by entity and relationship index; made once
/// when a store opens.
package struct RelationshipLayout: Sendable {
    private let storage: [[RelationshipStorage]]
    /// Every join table of the model, each once, in model order.
    package let joinTables: [JoinTable]
    /// Per entity: the position columns its table holds for ordered to-manys of other entities.
    let positionColumnsByEntity: [[String]]

    package init(model: ManagedObjectModel) {
        storage = model.entities.map { entity in
            entity.relationships.map { RelationshipStorage($0, of: entity, in: model) }
        }
        var tables: [JoinTable] = []
        var positions = Array(repeating: [String](), count: model.entities.count)
        for (entityIndex, entity) in model.entities.enumerated() {
            for (relationship, kind) in zip(entity.relationships, storage[entityIndex]) {
                switch kind {
                case .foreignKey:
                    break
                case .inverseForeignKey(_, let column):
                    if let column, !positions[relationship.destinationIndex].contains(column) {
                        positions[relationship.destinationIndex].append(column)
                    }
                case .joinTable(let table, _):
                    if !tables.contains(table) { tables.append(table) }
                }
            }
        }
        joinTables = tables
        positionColumnsByEntity = positions
    }

    /// The columns of join tables that hold keys of `entity`'s objects: the pairs to remove when
    /// such an object is deleted, whether or not its entity declares the relationship.
    package func joinColumns(holding entity: EntityDescription, in model: ManagedObjectModel) -> [(table: JoinTable, column: String)] {
        joinTables.flatMap { table in
            (model.entity(entity, isKindOf: model.entities[table.sourceEntityIndex]) ? [(table, JoinTable.sourceColumn)] : [])
                + (model.entity(entity, isKindOf: model.entities[table.destinationEntityIndex])
                    ? [(table, JoinTable.destinationColumn)] : [])
        }
    }

    package subscript(relationship: RelationshipDescription, of entity: EntityDescription) -> RelationshipStorage {
        storage[entity.index][relationship.index]
    }
}
