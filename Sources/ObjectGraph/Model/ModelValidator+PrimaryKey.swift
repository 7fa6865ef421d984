extension ModelValidator {
    /// Checks an entity's `primaryKey`: it names a required, stored integer attribute without a
    /// default, declared on a hierarchy's root (sub-entities share their root's table, and so its
    /// keys).
    mutating func checkPrimaryKey(of entity: EntityDraft, _ lookup: EntityLookup) {
        guard let key = entity.primaryKey else { return }
        if let parent = entity.parent {
            let root = lookup.ancestors(of: entity).first?.name ?? parent.name
            log.report(
                "found a primary key on \(entity.name), a sub-entity, expected it on its hierarchy's root \(root): sub-entities share their root's keys",
                at: key.path, key.position)
            return
        }
        guard let attribute = lookup.allAttributes(of: entity).first(where: { $0.name == key.name }) else {
            let broken = lookup.brokenPropertyNames(of: entity)
            guard !broken.contains(key.name) else { return }
            var message = "found \"\(key.name)\", which is not an attribute of \(entity.name), expected the name of an integer attribute"
            if let suggestion = closestName(to: key.name, among: lookup.allAttributes(of: entity).map(\.name)) {
                message += "; did you mean \"\(suggestion)\"?"
            }
            log.report(message, at: key.path, key.position)
            return
        }
        let problem: String? =
            switch attribute.type {
            case .integer16, .integer32, .integer64:
                if attribute.isOptional {
                    "an optional attribute, expected a required one: every object needs a key"
                } else if attribute.isTransient {
                    "a transient attribute, expected a stored one: the key is how rows are found"
                } else if !attribute.defaultValue.isNull {
                    "an attribute with a default, expected one without: every object needs a key of its own"
                } else {
                    nil
                }
            default:
                "a \(attribute.type.rawValue) attribute, expected an integer attribute (integer16, integer32 or integer64): its values become the rows' keys"
            }
        if let problem { log.report("found \"\(key.name)\", \(problem)", at: key.path, key.position) }
    }
}
