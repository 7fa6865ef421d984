/// The version hash of a model: a hex SHA-256 of a canonical description of everything that
/// decides how the model's data is stored, so a store can tell whether it was made by this model.
///
/// Covered (a change to any of these gives a new hash):
/// - entity names; each entity's `abstract` flag and `parent`;
/// - attributes: name, type, `optional`, `transient`, `indexed` (inherited attributes included);
/// - relationships: name, destination, `toMany`, `ordered`, `inverse`, `optional`;
/// - uniqueness constraints (as sets of attribute names) and indexes (as ordered lists of names);
/// - the `primaryKey` attribute (a line only for entities that have one, so other hashes stay);
/// - `versionHashModifier`s of entities and properties (only where given, likewise).
///
/// Each entity and each property has a hash of its own too, as in Core Data: a property's covers
/// its line below; an entity's covers its name, `abstract`, its parent's hash, its own
/// properties, constraints, indexes, primary key and modifier — so changing one entity leaves the
/// others' hashes alone, and a sub-entity's change does not change its parent's.
///
/// Not covered (changing these keeps the hash): the model's name and version number, `className`,
/// default values, validation rules (`minValue`/`maxValue`, `minLength`/`maxLength`, `regex`),
/// relationship `deleteRule` and `minCount`/`maxCount`, `renamingIdentifier`, and the file's key
/// order, whitespace, and the order in which entities, properties, constraints and indexes are
/// listed (stores find tables and columns by name, so declaration order does not change storage).
enum ModelVersionHash {
    /// The hash of a model with `entities`, as 64 lowercase hexadecimal digits.
    static func compute(for entities: [EntityDescription]) -> String {
        SHA256.hexDigest(canonicalDescription(of: entities).utf8)
    }

    /// The text that is hashed: one line per entity, property, constraint and index, sorted.
    /// Names are validated identifiers, so spaces and commas cannot be ambiguous.
    static func canonicalDescription(of entities: [EntityDescription]) -> String {
        var lines = ["objectgraph-model-hash 1"]
        for entity in entities.sorted(by: { $0.name < $1.name }) {
            lines.append("entity \(entity.name) abstract=\(entity.isAbstract) parent=\(entity.parentName ?? "-")")
            if let key = entity.primaryKey { lines.append(" primaryKey \(key)") }
            if let modifier = entity.versionHashModifier { lines.append(" modifier \(quoted(modifier))") }
            lines += entity.attributes.sorted(by: { $0.name < $1.name }).map { " " + line(for: $0) }
            lines += entity.relationships.sorted(by: { $0.name < $1.name }).map { " " + line(for: $0) }
            lines += constraintLines(entity.uniquenessConstraints, entity.indexes)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The hash of each entity (by position in `entities`): see the type's description.
    static func entityHashes(of entities: [EntityDescription]) -> [String] {
        var hashes = [String?](repeating: nil, count: entities.count)
        func hash(_ index: Int) -> String {
            if let known = hashes[index] { return known }
            let entity = entities[index]
            let parentHash = entity.parentName.flatMap { name in entities.firstIndex { $0.name == name } }.map(hash) ?? "-"
            var lines = ["objectgraph-entity-hash 1", "entity \(entity.name) abstract=\(entity.isAbstract) parent=\(parentHash)"]
            if entity.parentName == nil, let key = entity.primaryKey { lines.append("primaryKey \(key)") }
            if let modifier = entity.versionHashModifier { lines.append("modifier \(quoted(modifier))") }
            lines += entity.ownAttributes.sorted(by: { $0.name < $1.name }).map(line(for:))
            lines += entity.ownRelationships.sorted(by: { $0.name < $1.name }).map(line(for:))
            lines += constraintLines(Array(entity.ownUniquenessConstraints), Array(entity.ownIndexes))
            let result = SHA256.hexDigest((lines.joined(separator: "\n") + "\n").utf8)
            hashes[index] = result
            return result
        }
        return entities.indices.map(hash)
    }

    /// An attribute's line in the hashed text.
    static func line(for attribute: AttributeDescription) -> String {
        "attribute \(attribute.name) \(attribute.type.rawValue) optional=\(attribute.isOptional) transient=\(attribute.isTransient) indexed=\(attribute.isIndexed)"
            + (attribute.versionHashModifier.map { " modifier=\(quoted($0))" } ?? "")
    }

    /// A relationship's line in the hashed text.
    static func line(for relationship: RelationshipDescription) -> String {
        "relationship \(relationship.name) destination=\(relationship.destinationEntityName) toMany=\(relationship.isToMany) ordered=\(relationship.isOrdered) inverse=\(relationship.inverseName ?? "-") optional=\(relationship.isOptional)"
            + (relationship.versionHashModifier.map { " modifier=\(quoted($0))" } ?? "")
    }

    /// A uniqueness constraint is a set of attributes; an index's column order matters.
    private static func constraintLines(_ constraints: [[String]], _ indexes: [[String]]) -> [String] {
        constraints.map { " unique " + $0.sorted().joined(separator: ",") }.sorted()
            + indexes.map { " index " + $0.joined(separator: ",") }.sorted()
    }

    /// Free text as it is hashed: its length first, so no text can pass for other lines.
    private static func quoted(_ text: String) -> String {
        "\(text.utf8.count):\(text)"
    }
}

extension AttributeDescription {
    /// A hash (64 hexadecimal digits) of what decides how the attribute is stored: name, type,
    /// `optional`, `transient`, `indexed` and `versionHashModifier`.
    public var versionHash: String { SHA256.hexDigest(ModelVersionHash.line(for: self).utf8) }
}

extension RelationshipDescription {
    /// A hash (64 hexadecimal digits) of what decides how the relationship is stored: name,
    /// destination, `toMany`, `ordered`, `inverse`, `optional` and `versionHashModifier`.
    public var versionHash: String { SHA256.hexDigest(ModelVersionHash.line(for: self).utf8) }
}
