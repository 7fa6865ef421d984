/// Turns a validated model draft into entity descriptions.
enum ModelBuilder {
    /// The entities of `draft`, in declaration order. A child entity lists its ancestors'
    /// attributes, relationships, uniqueness constraints and indexes before its own, so an
    /// inherited attribute keeps its parent's slot in value rows and its parent's rules.
    static func makeEntities(_ draft: ModelDraft) -> [EntityDescription] {
        let lookup = EntityLookup(draft.entities)
        return draft.entities.enumerated().map { index, entity in
            let lineage = lookup.ancestors(of: entity) + [entity]
            return EntityDescription(
                name: entity.name,
                className: entity.className?.name,
                isAbstract: entity.isAbstract,
                parentName: entity.parent?.name,
                attributes: lineage.flatMap(\.attributes).enumerated().map { slot, attribute in attribute.makeDescription(index: slot) },
                relationships: lineage.flatMap(\.relationships).map { $0.makeDescription() },
                uniquenessConstraints: lineage.flatMap(\.uniquenessConstraints).map { $0.names.map(\.name) },
                indexes: lineage.flatMap(\.indexes).map { $0.names.map(\.name) },
                index: index)
        }
    }
}
