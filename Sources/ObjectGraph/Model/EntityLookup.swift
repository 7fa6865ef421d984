/// Entity drafts by name, answering the inheritance questions that validation and building ask.
///
/// A child entity inherits its ancestors' attributes and relationships, which come first in its
/// own lists (root ancestor first), so an inherited attribute has the same slot in the parent's
/// and the child's value rows.
struct EntityLookup {
    private let entitiesByName: [String: EntityDraft]
    /// Every entity name, in declaration order, for suggestions.
    let names: [String]

    init(_ entities: [EntityDraft]) {
        entitiesByName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        names = entities.map(\.name)
    }

    subscript(name: String) -> EntityDraft? { entitiesByName[name] }

    /// The ancestors of `entity`, root first. The walk stops at a missing parent or at a cycle
    /// (both reported elsewhere), so it always ends.
    func ancestors(of entity: EntityDraft) -> [EntityDraft] {
        var chain: [EntityDraft] = []
        var visited: Set<String> = [entity.name]
        var current = entity
        while let parentName = current.parent?.name, let parent = entitiesByName[parentName], !visited.contains(parentName) {
            chain.append(parent)
            visited.insert(parentName)
            current = parent
        }
        return chain.reversed()
    }

    /// Inherited attributes (root ancestor's first), then the entity's own.
    func allAttributes(of entity: EntityDraft) -> [AttributeDraft] {
        (ancestors(of: entity) + [entity]).flatMap(\.attributes)
    }

    /// Inherited relationships (root ancestor's first), then the entity's own.
    func allRelationships(of entity: EntityDraft) -> [RelationshipDraft] {
        (ancestors(of: entity) + [entity]).flatMap(\.relationships)
    }

    /// Names of properties, own or inherited, whose declarations have problems of their own.
    func brokenPropertyNames(of entity: EntityDraft) -> Set<String> {
        (ancestors(of: entity) + [entity]).reduce(into: []) { $0.formUnion($1.brokenPropertyNames) }
    }

    /// Whether `name` is `entity` itself or one of its ancestors: the entities whose objects an
    /// inverse relationship may point back to.
    func isEntity(_ name: String, sameAsOrAncestorOf entity: EntityDraft) -> Bool {
        name == entity.name || ancestors(of: entity).contains { $0.name == name }
    }

    /// "…; did you mean "X"?" or ", expected one of: …" for an entity name that does not exist.
    func suggestion(for name: String) -> String {
        if let closest = closestName(to: name, among: names) { return "; did you mean \"\(closest)\"?" }
        return ", expected one of: \(names.joined(separator: ", "))"
    }
}
