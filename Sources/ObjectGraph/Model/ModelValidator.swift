/// Checks a parsed model document and reads it into drafts, collecting every problem it finds.
///
/// Checking happens in two passes: each entity is read on its own (field types, unknown fields,
/// names, attribute types, defaults, limits), then the entities are checked against each other
/// (duplicate names, parents, relationship destinations and inverses, constraint attribute names).
/// Extensions hold each concern: `+Fields`, `+Names`, `+Attributes`, `+Relationships`,
/// `+Constraints`, `+PrimaryKey` and `+Inheritance`.
struct ModelValidator {
    static let modelKeys = ["name", "version", "entities"]
    static let versionHashModifierExpectation = "text that changes the version hash (any string)"
    static let entityKeys = [
        "name", "className", "abstract", "parent", "attributes", "relationships", "uniquenessConstraints", "indexes", "primaryKey",
        "versionHashModifier", "renamingIdentifier"
    ]

    var log: ModelIssueLog

    /// The outcome of validating a document.
    enum Outcome {
        case valid(ModelDraft)
        case invalid([ModelIssue])
    }

    /// The draft of the model in `root`, or every problem found in it.
    static func validate(_ root: JSONNode, file: String?) -> Outcome {
        var validator = ModelValidator(log: ModelIssueLog(file: file))
        let draft = validator.readModel(root)
        if let draft, validator.log.issues.isEmpty { return .valid(draft) }
        // Cross-entity checks run after the per-entity pass; file order is easier to work through.
        let ordered = validator.log.issues.enumerated().sorted { first, second in
            let a = (first.element.line ?? 0, first.element.column ?? 0, first.offset)
            let b = (second.element.line ?? 0, second.element.column ?? 0, second.offset)
            return a < b
        }
        return .invalid(ordered.map(\.element))
    }

    private mutating func readModel(_ root: JSONNode) -> ModelDraft? {
        guard
            let fields = readObject(
                root, at: .root, expected: "an object with \"name\", \"version\" and \"entities\"",
                knownKeys: Self.modelKeys)
        else { return nil }
        let name = string("name", in: fields, required: true, expected: "the model's name")
        if let name { checkIdentifier(name, what: "model name", at: fields.path("name"), fields.position("name")) }
        let version = integer("version", in: fields, required: true, minimum: 1)
        let entityNodes = array("entities", in: fields, required: true, expected: "an array of entities") ?? []
        if let node = fields["entities"], entityNodes.isEmpty, node.arrayValue != nil {
            log.report("found an empty array, expected at least one entity", at: fields.path("entities"), node: node)
        }
        let entities = entityNodes.enumerated().compactMap { offset, node in
            readEntity(node, at: fields.path("entities").index(offset))
        }
        checkDuplicateEntityNames(entities)
        let lookup = EntityLookup(entities)
        checkInheritance(entities, lookup)
        for entity in entities {
            checkRelationshipReferences(of: entity, lookup)
            checkConstraintReferences(of: entity, lookup)
            checkPrimaryKey(of: entity, lookup)
        }
        guard let name, let version else { return nil }
        return ModelDraft(name: name, version: version, entities: entities)
    }

    /// The optional `renamingIdentifier` of an entity or property: its name in the previous model
    /// version, which migration maps from.
    mutating func readRenamingIdentifier(_ fields: JSONObjectFields, of what: String) -> String? {
        let identifier = string(
            "renamingIdentifier", in: fields, required: false, expected: "the \(what)'s name in the previous model version")
        if let identifier {
            _ = checkIdentifier(
                identifier, what: "renaming identifier", at: fields.path("renamingIdentifier"), fields.position("renamingIdentifier"))
        }
        return identifier
    }

    /// Reads one entity; `nil` when it has no readable name (its other problems are still reported).
    private mutating func readEntity(_ node: JSONNode, at path: JSONPath) -> EntityDraft? {
        guard let fields = readObject(node, at: path, expected: "an object describing an entity", knownKeys: Self.entityKeys) else {
            return nil
        }
        let name = string("name", in: fields, required: true, expected: "the entity's name")
        if let name { checkEntityName(name, at: fields.path("name"), fields.position("name")) }
        var entity = name.map { EntityDraft(name: $0, path: path, namePosition: fields.position("name")) }

        if let className = string("className", in: fields, required: false) {
            let reference = NameReference(name: className, path: fields.path("className"), position: fields.position("className"))
            checkClassName(className, at: reference.path, reference.position, isExplicit: true)
            entity?.className = reference
        } else if let name, fields["className"] == nil, ModelNameRules.identifierProblem(name) == nil {
            checkClassName(name, at: fields.path("name"), fields.position("name"), isExplicit: false)
        }
        entity?.isAbstract = boolean("abstract", in: fields) ?? false
        entity?.renamingIdentifier = readRenamingIdentifier(fields, of: "entity")
        entity?.versionHashModifier = string(
            "versionHashModifier", in: fields, required: false, expected: Self.versionHashModifierExpectation)
        if let parent = string("parent", in: fields, required: false, expected: "the name of the parent entity") {
            entity?.parent = NameReference(name: parent, path: fields.path("parent"), position: fields.position("parent"))
        }

        var declared = DeclaredNames()
        for (offset, attributeNode) in (array("attributes", in: fields, expected: "an array of attributes") ?? []).enumerated() {
            let attributePath = fields.path("attributes").index(offset)
            switch readAttribute(attributeNode, at: attributePath, declared: &declared) {
            case .valid(let attribute): entity?.attributes.append(attribute)
            case .broken(let name?): entity?.brokenPropertyNames.insert(name)
            case .broken(nil): break
            }
        }
        for (offset, relationshipNode) in (array("relationships", in: fields, expected: "an array of relationships") ?? []).enumerated() {
            let relationshipPath = fields.path("relationships").index(offset)
            switch readRelationship(relationshipNode, at: relationshipPath, declared: &declared) {
            case .valid(let relationship): entity?.relationships.append(relationship)
            case .broken(let name?): entity?.brokenPropertyNames.insert(name)
            case .broken(nil): break
            }
        }
        entity?.uniquenessConstraints = readNameLists("uniquenessConstraints", in: fields, what: "a uniqueness constraint")
        entity?.indexes = readNameLists("indexes", in: fields, what: "an index")
        if let key = string("primaryKey", in: fields, required: false, expected: "the name of an integer attribute") {
            entity?.primaryKey = NameReference(name: key, path: fields.path("primaryKey"), position: fields.position("primaryKey"))
        }
        return entity
    }
}

/// The outcome of reading one property: a draft, or the name of a property whose definition has
/// problems (when it has a readable name at all).
enum PropertyReading<Draft> {
    case valid(Draft)
    case broken(String?)
}

/// The property names declared so far in one entity. Attributes and relationships share one
/// namespace, compared ignoring case because SQLite column names are case-insensitive.
struct DeclaredNames {
    private var pathsByLowercasedName: [String: (name: String, path: JSONPath)] = [:]

    /// Records `name`; returns the earlier declaration it collides with, if any.
    mutating func declare(_ name: String, at path: JSONPath) -> (name: String, path: JSONPath)? {
        let key = name.lowercased()
        if let earlier = pathsByLowercasedName[key] { return earlier }
        pathsByLowercasedName[key] = (name, path)
        return nil
    }
}
