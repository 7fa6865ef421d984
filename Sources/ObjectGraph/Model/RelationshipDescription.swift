/// What happens to the objects at the other end of a relationship when its source is deleted.
public enum DeleteRule: String, Sendable, Codable, CaseIterable {
    /// Remove the deleted object from the destinations' inverse relationship.
    case nullify
    /// Delete the destination objects too.
    case cascade
    /// Refuse to delete while the relationship is not empty.
    case deny
    /// Leave the destinations untouched.
    case noAction
}

/// One relationship of an entity, as declared in the model file.
public final class RelationshipDescription: Sendable, CustomStringConvertible {
    /// The relationship's name, unique among the entity's properties.
    public let name: String
    /// The name of the entity at the other end.
    public let destinationEntityName: String
    /// Whether the relationship holds many objects.
    public let isToMany: Bool
    /// Whether a to-many relationship keeps its objects in order.
    public let isOrdered: Bool
    /// The name of the relationship on the destination that points back, if any.
    public let inverseName: String?
    /// What deleting the source does to the destinations.
    public let deleteRule: DeleteRule
    /// Whether the relationship may be empty.
    public let isOptional: Bool
    /// The fewest objects a to-many relationship may hold, if limited.
    public let minCount: Int?
    /// The most objects a to-many relationship may hold, if limited.
    public let maxCount: Int?
    /// Text that changes the relationship's version hash (and so its entity's and the model's)
    /// without a change to the schema.
    public let versionHashModifier: String?
    /// The relationship's name in an earlier model version, for migration.
    public let renamingIdentifier: String?
    /// The relationship's position in its entity's `relationships`.
    package let index: Int
    /// Where the relationship lives in an object: a to-one's slot in value rows (after the
    /// attributes: the store keeps it as a foreign key), a to-many's bit in change masks (after
    /// the to-ones; its objects are kept apart, and loaded as a whole).
    let slot: Int
    /// The position of the destination entity in the model's `entities`.
    package let destinationIndex: Int
    /// The inverse's position in the destination's `relationships` (the same in every
    /// sub-entity of the destination, which lists inherited relationships first).
    let inverseIndex: Int?
    /// Whether the inverse is a to-many (many-to-many, when this one is too).
    let isInverseToMany: Bool

    init(
        name: String, destinationEntityName: String, isToMany: Bool = false, isOrdered: Bool = false,
        inverseName: String? = nil, deleteRule: DeleteRule = .nullify, isOptional: Bool = true,
        minCount: Int? = nil, maxCount: Int? = nil, versionHashModifier: String? = nil, renamingIdentifier: String? = nil,
        index: Int, slot: Int, destinationIndex: Int, inverseIndex: Int?, isInverseToMany: Bool = false
    ) {
        self.isInverseToMany = isInverseToMany
        self.name = name
        self.destinationEntityName = destinationEntityName
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.inverseName = inverseName
        self.deleteRule = deleteRule
        self.isOptional = isOptional
        self.minCount = minCount
        self.maxCount = maxCount
        self.versionHashModifier = versionHashModifier
        self.renamingIdentifier = renamingIdentifier
        self.index = index
        self.slot = slot
        self.destinationIndex = destinationIndex
        self.inverseIndex = inverseIndex
    }

    /// Whether the relationship's value is one object (or nil).
    public var isToOne: Bool { !isToMany }

    public var description: String {
        "\(name) -> \(isToMany ? "[\(destinationEntityName)]" : destinationEntityName)"
    }
}
