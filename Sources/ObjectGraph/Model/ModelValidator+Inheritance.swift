extension ModelValidator {
    /// Checks every `parent`: it names another existing entity, parents form no cycle, and no
    /// entity redeclares a property it inherits.
    mutating func checkInheritance(_ entities: [EntityDraft], _ lookup: EntityLookup) {
        for entity in entities {
            guard let parent = entity.parent else { continue }
            if parent.name == entity.name {
                log.report("found parent \"\(parent.name)\", the entity itself, expected another entity", at: parent.path, parent.position)
            } else if lookup[parent.name] == nil {
                log.report(
                    "found parent \"\(parent.name)\", which is not an entity of the model\(lookup.suggestion(for: parent.name))",
                    at: parent.path, parent.position)
            }
        }
        reportCycles(entities, lookup)
        for entity in entities {
            checkInheritedNames(of: entity, lookup)
        }
    }

    /// Reports each inheritance cycle once, at the first of its entities in declaration order.
    private mutating func reportCycles(_ entities: [EntityDraft], _ lookup: EntityLookup) {
        let order = Dictionary(entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        for entity in entities {
            var chain = [entity.name]
            var current = entity
            while let parent = current.parent, parent.name != entity.name, let next = lookup[parent.name], !chain.contains(next.name) {
                chain.append(next.name)
                current = next
            }
            // A cycle through this entity ends back at it; a self-parent is reported on its own above.
            guard let parent = current.parent, parent.name == entity.name, chain.count > 1,
                chain.allSatisfy({ order[$0, default: .max] >= order[entity.name, default: .max] }),
                let reference = entity.parent
            else { continue }
            log.report(
                "found parent \"\(reference.name)\", which makes an inheritance cycle (\((chain + [entity.name]).joined(separator: " → "))), expected a chain of parents that ends",
                at: reference.path, reference.position)
        }
    }

    /// Reports own properties whose names (ignoring case) an ancestor already uses.
    private mutating func checkInheritedNames(of entity: EntityDraft, _ lookup: EntityLookup) {
        var inherited: [String: (entity: String, name: String)] = [:]
        for ancestor in lookup.ancestors(of: entity) {
            for name in ancestor.attributes.map(\.name) + ancestor.relationships.map(\.name) {
                inherited[name.lowercased()] = (ancestor.name, name)
            }
        }
        guard !inherited.isEmpty else { return }
        let own =
            entity.attributes.map { ($0.name, $0.path, $0.namePosition) } + entity.relationships.map { ($0.name, $0.path, $0.namePosition) }
        for (name, path, position) in own {
            guard let clash = inherited[name.lowercased()] else { continue }
            log.report(
                "found property name \"\(name)\", which \(entity.name) already inherits from \(clash.entity) (\"\(clash.name)\"), expected a name its ancestors do not use",
                at: path.key("name"), position)
        }
    }
}
