/// One entity of a model: its name, attributes, relationships and constraints.
public final class EntityDescription: Sendable, CustomStringConvertible {
    /// The entity's name, unique within the model.
    public let name: String
    /// The name of the Swift class generated for the entity.
    public let className: String
    /// Whether the entity is abstract (no instances of its own).
    public let isAbstract: Bool
    /// The name of the parent entity, for entity inheritance.
    public let parentName: String?
    /// The attributes, in declaration order; an attribute's position is its slot in value rows.
    public let attributes: [AttributeDescription]
    /// The relationships, in declaration order.
    public let relationships: [RelationshipDescription]
    /// Groups of attribute names whose combined values must be unique among the entity's objects.
    public let uniquenessConstraints: [[String]]
    /// Compound indexes, each a list of attribute names.
    public let indexes: [[String]]
    /// The entity's position in its model's `entities`.
    let index: Int
    /// Attributes by name, for entities too large to scan.
    let attributesByName: [String: AttributeDescription]
    /// The attributes' types, by slot: read on every dynamic access without touching (and
    /// retaining) the attribute descriptions.
    let attributeTypes: [AttributeType]
    /// The attributes' name fingerprints, by slot: what `attributeSlot(named:)` scans.
    private let attributeFingerprints: [NameFingerprint]
    /// The attributes the store keeps (everything but transients), in declaration order.
    let storedAttributes: [AttributeDescription]
    /// A value row holding each attribute's default: what a new object starts from.
    let defaultValues: [AttributeValue]

    init(
        name: String, className: String? = nil, isAbstract: Bool = false, parentName: String? = nil,
        attributes: [AttributeDescription], relationships: [RelationshipDescription] = [],
        uniquenessConstraints: [[String]] = [], indexes: [[String]] = [], index: Int
    ) {
        self.name = name
        self.className = className ?? name
        self.isAbstract = isAbstract
        self.parentName = parentName
        self.attributes = attributes
        self.relationships = relationships
        self.uniquenessConstraints = uniquenessConstraints
        self.indexes = indexes
        self.index = index
        self.attributesByName = Dictionary(attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.attributeFingerprints = attributes.map { NameFingerprint($0.name) }
        self.attributeTypes = attributes.map(\.type)
        self.storedAttributes = attributes.filter { !$0.isTransient }
        self.defaultValues = attributes.map(\.defaultValue)
    }

    /// The attribute named `name`, or `nil`.
    public func attribute(named name: String) -> AttributeDescription? {
        attributeSlot(named: name).map { attributes[$0] }
    }

    /// The slot of the attribute named `name`, or `nil`.
    ///
    /// Every dynamic read and write looks its key up here. For the usual small entity a scan of
    /// the names is cheaper than hashing the key: lengths are compared first (a stored count),
    /// and equal short names compare as two machine words.
    func attributeSlot(named name: String) -> Int? {
        guard attributeFingerprints.count <= Self.scanLimit else { return attributesByName[name]?.index }
        let fingerprint = NameFingerprint(name)
        for slot in attributeFingerprints.indices where attributeFingerprints[slot] == fingerprint {
            // The fingerprint holds whole names of up to eight bytes; longer ones need a check.
            if fingerprint.isComplete || attributes[slot].name == name { return slot }
        }
        return nil
    }

    private static let scanLimit = 16

    /// The attribute named `key`, or an `.unknownKey` error that names the entity and suggests
    /// the closest existing attribute.
    func requireAttribute(_ key: String) throws -> AttributeDescription {
        attributes[try requireSlot(key)]
    }

    /// The slot of the attribute named `key`, or the `.unknownKey` error of `requireAttribute`.
    func requireSlot(_ key: String) throws -> Int {
        if let slot = attributeSlot(named: key) { return slot }
        var message = "\(name) has no attribute named '\(key)'"
        if let suggestion = closestName(to: key, among: attributes.map(\.name)) {
            message += "; did you mean '\(suggestion)'?"
        } else {
            message += "; its attributes are \(attributes.map(\.name).joined(separator: ", "))"
        }
        throw ObjectGraphError(.unknownKey, message, entityName: name, key: key)
    }

    public var description: String { name }
}
