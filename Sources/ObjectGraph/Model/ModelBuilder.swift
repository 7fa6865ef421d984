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
            let primaryKey = lineage[0].primaryKey.flatMap { key in attributes.firstIndex { $0.name == key.name } }
            let relationships = lineage.flatMap(\.relationships)
            var nextToOneSlot = attributes.count
            var nextToManySlot = attributes.count + relationships.count { !$0.isToMany }
            return EntityDescription(
                name: entity.name,
                className: entity.className?.name,
                isAbstract: entity.isAbstract,
                parentName: entity.parent?.name,
                attributes: attributes.enumerated().map { slot, attribute in
                    attribute.makeDescription(index: slot, isPrimaryKey: slot == primaryKey)
                },
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
                uniquenessConstraints: lineage.flatMap(uniquenessConstraints(of:)),
                indexes: lineage.flatMap(\.indexes).map { $0.names.map(\.name) },
                versionHashModifier: entity.versionHashModifier,
                renamingIdentifier: entity.renamingIdentifier,
                index: index,
                primaryKeyIndex: primaryKey,
                inheritedCounts: InheritedCounts(
                    attributes: ancestors.map(\.attributes.count).reduce(0, +),
                    relationships: ancestors.map(\.relationships.count).reduce(0, +),
                    uniquenessConstraints: ancestors.map { uniquenessConstraints(of: $0).count }.reduce(0, +),
                    indexes: ancestors.map(\.indexes.count).reduce(0, +)))
        }
    }

    /// The uniqueness constraints `entity` declares, and for a root with a primary key the key
    /// on its own unless declared: keys are unique, and stores and merge policies treat a
    /// duplicate key like any other broken constraint.
    private static func uniquenessConstraints(of entity: EntityDraft) -> [[String]] {
        let declared = entity.uniquenessConstraints.map { $0.names.map(\.name) }
        guard let key = entity.primaryKey?.name, !declared.contains([key]) else { return declared }
        return declared + [[key]]
    }
}
