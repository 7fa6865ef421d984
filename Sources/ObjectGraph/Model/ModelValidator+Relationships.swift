extension ModelValidator {
    static let relationshipKeys = [
        "name", "destination", "toMany", "ordered", "inverse", "deleteRule", "optional", "minCount", "maxCount", "versionHashModifier",
        "renamingIdentifier"
    ]

    /// Reads one relationship, checking its fields on their own.
    ///
    /// Every relationship must say what its inverse is. A relationship that deliberately has none
    /// says so with `"inverse": null`; leaving the key out is an error, because a forgotten
    /// inverse silently leaves the other side stale.
    mutating func readRelationship(_ node: JSONNode, at path: JSONPath, declared: inout DeclaredNames) -> PropertyReading<RelationshipDraft>
    {
        let issuesBefore = log.issues.count
        guard let fields = readObject(node, at: path, expected: "an object describing a relationship", knownKeys: Self.relationshipKeys)
        else {
            return .broken(nil)
        }
        let name = string("name", in: fields, required: true, expected: "the relationship's name")
        if let name {
            checkPropertyName(name, at: fields.path("name"), fields.position("name"))
            checkUnique(name, in: fields, declared: &declared)
        }
        let destination = string("destination", in: fields, required: true, expected: "the name of the destination entity")
        let inverse = readInverse(fields)
        let isToMany = boolean("toMany", in: fields) ?? false
        let isOrdered = boolean("ordered", in: fields) ?? false
        if isOrdered && !isToMany {
            log.report(
                "found \"ordered\": true on a to-one relationship, expected \"ordered\" only with \"toMany\": true",
                at: fields.path("ordered"), fields.position("ordered"))
        }
        let deleteRule = readDeleteRule(fields)
        for key in ["minCount", "maxCount"] where fields[key] != nil && !isToMany {
            log.report(
                "found \(key) on a to-one relationship, expected \(key) only with \"toMany\": true", at: fields.path(key),
                fields.position(key))
        }
        let minCount = isToMany ? integer("minCount", in: fields, minimum: 0) : nil
        let maxCount = isToMany ? integer("maxCount", in: fields, minimum: 1) : nil
        let versionHashModifier = string("versionHashModifier", in: fields, required: false, expected: Self.versionHashModifierExpectation)
        let renamingIdentifier = readRenamingIdentifier(fields, of: "relationship")
        checkOrder("minCount", minCount, "maxCount", maxCount, in: fields)

        guard let name, let destination, let inverse, log.issues.count == issuesBefore else { return .broken(name) }
        var draft = RelationshipDraft(
            name: name, path: path, namePosition: fields.position("name"),
            destination: NameReference(name: destination, path: fields.path("destination"), position: fields.position("destination")),
            inverse: inverse.reference)
        draft.isToMany = isToMany
        draft.isOrdered = isOrdered
        draft.deleteRule = deleteRule ?? .nullify
        draft.isOptional = boolean("optional", in: fields) ?? true
        draft.minCount = minCount
        draft.maxCount = maxCount
        draft.versionHashModifier = versionHashModifier
        draft.renamingIdentifier = renamingIdentifier
        return .valid(draft)
    }

    /// The declared inverse, or `nil` (reported) when the key is missing or holds something else.
    private mutating func readInverse(_ fields: JSONObjectFields) -> InverseDeclaration? {
        let expected = "the name of the relationship on the destination that points back, or null for a deliberately one-way relationship"
        guard let node = fields["inverse"] else {
            reportMissing("inverse", in: fields, expected: expected)
            return nil
        }
        switch node.value {
        case .null: return .oneWay
        case .string(let name): return .named(NameReference(name: name, path: fields.path("inverse"), position: node.position))
        default:
            log.report("found \(found(node)), expected \(expected)", at: fields.path("inverse"), node: node)
            return nil
        }
    }

    private mutating func readDeleteRule(_ fields: JSONObjectFields) -> DeleteRule? {
        let rules = DeleteRule.allCases.map(\.rawValue)
        let expected = "a delete rule (one of \(rules.joined(separator: ", ")))"
        guard let text = string("deleteRule", in: fields, required: false, expected: expected) else { return nil }
        if let rule = DeleteRule(rawValue: text) { return rule }
        var message = "found unknown delete rule \"\(text)\", expected \(expected)"
        if let suggestion = closestName(to: text, among: rules) { message += "; did you mean \"\(suggestion)\"?" }
        log.report(message, at: fields.path("deleteRule"), fields.position("deleteRule"))
        return nil
    }

    /// Checks that each relationship's destination exists and that its inverse is a relationship
    /// of the destination pointing back to this entity and naming this relationship in return.
    mutating func checkRelationshipReferences(of entity: EntityDraft, _ lookup: EntityLookup) {
        for relationship in entity.relationships {
            let destinationName = relationship.destination.name
            guard let destination = lookup[destinationName] else {
                log.report(
                    "found destination \"\(destinationName)\", which is not an entity of the model\(lookup.suggestion(for: destinationName))",
                    at: relationship.destination.path, relationship.destination.position)
                continue
            }
            guard let reference = relationship.inverse else { continue }
            let candidates = lookup.allRelationships(of: destination)
            guard let inverse = candidates.first(where: { $0.name == reference.name }) else {
                guard !lookup.brokenPropertyNames(of: destination).contains(reference.name) else { continue }
                reportMissingInverse(reference, of: destination, candidates: candidates.map(\.name), lookup)
                continue
            }
            let inverseName = "\(destination.name).\(inverse.name)"
            if !lookup.isEntity(inverse.destination.name, sameAsOrAncestorOf: entity) {
                log.report(
                    "found inverse \"\(reference.name)\", but \(inverseName) points to \(inverse.destination.name), expected a relationship of \(destination.name) pointing back to \(entity.name)",
                    at: reference.path, reference.position)
            } else if let back = inverse.inverse, back.name != relationship.name {
                log.report(
                    "found inverse \"\(reference.name)\", but \(inverseName) names \"\(back.name)\" as its inverse, expected the two relationships to name each other (\"\(relationship.name)\")",
                    at: reference.path, reference.position)
            } else if inverse.inverse == nil {
                log.report(
                    "found inverse \"\(reference.name)\", but \(inverseName) is declared one-way (\"inverse\": null), expected it to name \"\(relationship.name)\" as its inverse",
                    at: reference.path, reference.position)
            }
        }
    }

    private mutating func reportMissingInverse(
        _ reference: NameReference, of destination: EntityDraft, candidates: [String], _ lookup: EntityLookup
    ) {
        var message = "found inverse \"\(reference.name)\", "
        if lookup.allAttributes(of: destination).contains(where: { $0.name == reference.name }) {
            message += "which is an attribute of \(destination.name), expected one of its relationships"
        } else {
            message += "which is not a relationship of \(destination.name)"
            if let suggestion = closestName(to: reference.name, among: candidates) {
                message += "; did you mean \"\(suggestion)\"?"
            } else if candidates.isEmpty {
                message +=
                    ", expected a relationship there pointing back (\(destination.name) has none), or null for a one-way relationship"
            } else {
                message += ", expected one of: \(candidates.joined(separator: ", "))"
            }
        }
        log.report(message, at: reference.path, reference.position)
    }
}

/// What a relationship's `"inverse"` says: the relationship pointing back, or `null` for one-way.
enum InverseDeclaration {
    case named(NameReference)
    case oneWay

    var reference: NameReference? {
        if case .named(let reference) = self { return reference }
        return nil
    }
}
