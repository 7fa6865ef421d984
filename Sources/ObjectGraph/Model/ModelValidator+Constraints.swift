extension ModelValidator {
    /// Reads `uniquenessConstraints` or `indexes`: an array of non-empty arrays of attribute names,
    /// each name at most once per list.
    /// `what` names one list with its article ("an index").
    mutating func readNameLists(_ key: String, in fields: JSONObjectFields, what: String) -> [NameListDraft] {
        let expected = "an array of lists, each a non-empty array of attribute names such as [[\"name\", \"born\"]]"
        guard let lists = array(key, in: fields, expected: expected) else { return [] }
        var drafts: [NameListDraft] = []
        for (offset, listNode) in lists.enumerated() {
            let listPath = fields.path(key).index(offset)
            guard case .array(let elements) = listNode.value else {
                log.report(
                    "found \(found(listNode)), expected \(what): an array of attribute names such as [\"name\"]", at: listPath,
                    node: listNode)
                continue
            }
            if elements.isEmpty {
                log.report("found an empty array, expected \(what) naming one or more attributes", at: listPath, node: listNode)
                continue
            }
            var names: [NameReference] = []
            for (index, element) in elements.enumerated() {
                let elementPath = listPath.index(index)
                guard let name = element.stringValue else {
                    log.report("found \(found(element)), expected an attribute name", at: elementPath, node: element)
                    continue
                }
                if names.contains(where: { $0.name == name }) {
                    log.report("found \"\(name)\" twice in one list, expected each attribute once", at: elementPath, node: element)
                    continue
                }
                names.append(NameReference(name: name, path: elementPath, position: element.position))
            }
            drafts.append(NameListDraft(names: names, path: listPath))
        }
        return drafts
    }

    /// Checks that every name in the entity's uniqueness constraints and indexes is a stored
    /// attribute of the entity (own or inherited).
    mutating func checkConstraintReferences(of entity: EntityDraft, _ lookup: EntityLookup) {
        let attributes = lookup.allAttributes(of: entity)
        let relationshipNames = Set(lookup.allRelationships(of: entity).map(\.name))
        let broken = lookup.brokenPropertyNames(of: entity)
        for list in entity.uniquenessConstraints + entity.indexes {
            for reference in list.names {
                if let attribute = attributes.first(where: { $0.name == reference.name }) {
                    if attribute.isTransient {
                        log.report(
                            "found \"\(reference.name)\", a transient attribute, expected a stored attribute (transient attributes are not stored, so they cannot be indexed or unique)",
                            at: reference.path, reference.position)
                    }
                } else if relationshipNames.contains(reference.name) {
                    log.report(
                        "found \"\(reference.name)\", a relationship, expected an attribute of \(entity.name)", at: reference.path,
                        reference.position)
                } else if !broken.contains(reference.name) {
                    var message = "found \"\(reference.name)\", which is not an attribute of \(entity.name)"
                    // Attributes with problems of their own are still what the author meant to name.
                    let candidates = attributes.map(\.name) + broken.sorted()
                    if let suggestion = closestName(to: reference.name, among: candidates) {
                        message += "; did you mean \"\(suggestion)\"?"
                    } else if candidates.isEmpty {
                        message += ", expected an attribute (\(entity.name) has none)"
                    } else {
                        message += ", expected one of: \(candidates.joined(separator: ", "))"
                    }
                    log.report(message, at: reference.path, reference.position)
                }
            }
        }
    }
}
