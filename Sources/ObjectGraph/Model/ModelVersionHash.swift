/// The version hash of a model: a hex SHA-256 of a canonical description of everything that
/// decides how the model's data is stored, so a store can tell whether it was made by this model.
///
/// Covered (a change to any of these gives a new hash):
/// - entity names; each entity's `abstract` flag and `parent`;
/// - attributes: name, type, `optional`, `transient`, `indexed` (inherited attributes included);
/// - relationships: name, destination, `toMany`, `ordered`, `inverse`, `optional`;
/// - uniqueness constraints (as sets of attribute names) and indexes (as ordered lists of names);
/// - the `primaryKey` attribute (a line only for entities that have one, so other hashes stay).
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
            for attribute in entity.attributes.sorted(by: { $0.name < $1.name }) {
                lines.append(" attribute \(attribute.name) \(attribute.type.rawValue) optional=\(attribute.isOptional) transient=\(attribute.isTransient) indexed=\(attribute.isIndexed)")
            }
            for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) {
                lines.append(" relationship \(relationship.name) destination=\(relationship.destinationEntityName) toMany=\(relationship.isToMany) ordered=\(relationship.isOrdered) inverse=\(relationship.inverseName ?? "-") optional=\(relationship.isOptional)")
            }
            // A uniqueness constraint is a set of attributes; an index's column order matters.
            lines += entity.uniquenessConstraints.map { " unique " + $0.sorted().joined(separator: ",") }.sorted()
            lines += entity.indexes.map { " index " + $0.joined(separator: ",") }.sorted()
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
