/// Turns a validated model draft into entity descriptions.
enum ModelBuilder {
    /// The entities of `draft`, in declaration order. A child entity lists its ancestors'
    /// attributes, relationships, uniqueness constraints and indexes before its own, so an
    /// inherited property keeps its parent's position, and its parent's rules.
    ///
    /// Value rows hold the attributes first, then one slot per to-one relationship (its foreign
    /// key); to-many relationships are numbered after that for change tracking only.
    static func makeEntities(_ draft: ModelDraft) -> [EntityDescription] {
        let lookup = EntityLookup(draft.entities)
        let entityIndexes = Dictionary(draft.entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        return draft.entities.enumerated().map { index, entity in
            let ancestors = lookup.ancestors(of: entity)
            let lineage = ancestors + [entity]
            let attributes = lineage.flatMap(\.attributes)
            let relationships = lineage.flatMap(\.relationships)
            var nextToOneSlot = attributes.count
            var nextToManySlot = attributes.count + relationships.count { !$0.isToMany }
            return EntityDescription(
                name: entity.name,
                className: entity.className?.name,
                isAbstract: entity.isAbstract,
                parentName: entity.parent?.name,
                attributes: attributes.enumerated().map { slot, attribute in attribute.makeDescription(index: slot) },
                relationships: relationships.enumerated().map { position, relationship in
                    let slot: Int
                    if relationship.isToMany {
                        slot = nextToManySlot
                        nextToManySlot += 1
                    } else {
                        slot = nextToOneSlot
                        nextToOneSlot += 1
                    }
                    // Validation guarantees the destination and the inverse exist.
                    let destination = lookup[relationship.destination.name]!
                    let destinationRelationships = lookup.allRelationships(of: destination)
                    let inverseIndex = relationship.inverse.flatMap { inverse in
                        destinationRelationships.firstIndex { $0.name == inverse.name }
                    }
                    return relationship.makeDescription(
                        index: position, slot: slot, destinationIndex: entityIndexes[destination.name]!, inverseIndex: inverseIndex,
                        isInverseToMany: inverseIndex.map { destinationRelationships[$0].isToMany } ?? false)
                },
                uniquenessConstraints: lineage.flatMap(\.uniquenessConstraints).map { $0.names.map(\.name) },
                indexes: lineage.flatMap(\.indexes).map { $0.names.map(\.name) },
                index: index,
                inheritedCounts: InheritedCounts(
                    attributes: ancestors.map(\.attributes.count).reduce(0, +),
                    relationships: ancestors.map(\.relationships.count).reduce(0, +),
                    uniquenessConstraints: ancestors.map(\.uniquenessConstraints.count).reduce(0, +),
                    indexes: ancestors.map(\.indexes.count).reduce(0, +)))
        }
    }
}
