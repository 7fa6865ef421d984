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
    /// Text that changes the entity's version hash (and so the model's) without a change to the
    /// schema, to mark a change in what its data means.
    public let versionHashModifier: String?
    /// The entity's name in an earlier model version, for migration.
    public let renamingIdentifier: String?
    /// The name of the integer attribute whose values are the objects' keys (`"primaryKey"` in
    /// the model, declared on a hierarchy's root and shared by its sub-entities), or `nil` when
    /// the store numbers objects itself.
    public var primaryKey: String? { primaryKeyIndex.map { attributes[$0].name } }
    /// The slot of the `primaryKey` attribute.
    let primaryKeyIndex: Int?
    /// The entity's position in its model's `entities`.
    package let index: Int
    /// The slots of the attributes (stored or transient) that must not be nil at save.
    let requiredSlots: [Int]
    /// The attributes (stored or transient) with a range, length or pattern rule.
    let attributesWithRules: [AttributeDescription]
    /// The slots of the attributes whose values are real numbers (floating point, decimal,
    /// date): the ones that can be NaN (generated setters, which cannot throw, leave NaN to be
    /// refused at save) or −0.0 (which stores keep as 0.0).
    let realValueSlots: [Int]
    /// The attributes' types, by slot: read on every dynamic access without touching (and
    /// retaining) the attribute descriptions.
    let attributeTypes: [AttributeType]
    /// The attributes' slots by name.
    private let attributeNames: NameIndex
    /// The attributes the store keeps (everything but transients), in declaration order.
    let storedAttributes: [AttributeDescription]
    /// The slot widths of the entity's value rows: narrow for numbers, dates and booleans.
    package let rowLayout: ValueRowLayout
    /// A value row holding each attribute's default and no to-one destinations: what a new
    /// object starts from.
    package let defaultValues: ValueRow

    /// A row of its own holding `defaultValues`, for an object about to be written to (its first
    /// write would otherwise copy the shared row).
    func makeDefaultRow() -> ValueRow { defaultValues.unsharedCopy() }
    /// The relationships' positions by name.
    private let relationshipNames: NameIndex
    /// The to-one relationships, in declaration order; each has a slot in value rows.
    let toOneRelationships: [RelationshipDescription]
    /// The to-many relationships, in declaration order.
    let toManyRelationships: [RelationshipDescription]
    /// How many of the attributes, relationships, uniqueness constraints and indexes come from
    /// ancestors (they are listed first); the rest the entity declares itself.
    let inheritedCounts: InheritedCounts
    /// The length of a value row: the attributes, then one slot per to-one relationship.
    package let rowWidth: Int
    /// How many property slots change masks need: value-row slots, then one per to-many relationship.
    let propertySlotCount: Int

    init(
        name: String, className: String? = nil, isAbstract: Bool = false, parentName: String? = nil,
        attributes: [AttributeDescription], relationships: [RelationshipDescription] = [],
        uniquenessConstraints: [[String]] = [], indexes: [[String]] = [], versionHashModifier: String? = nil,
        renamingIdentifier: String? = nil, index: Int, primaryKeyIndex: Int? = nil,
        inheritedCounts: InheritedCounts = InheritedCounts()
    ) {
        self.primaryKeyIndex = primaryKeyIndex
        self.inheritedCounts = inheritedCounts
        self.name = name
        self.className = className ?? name
        self.isAbstract = isAbstract
        self.parentName = parentName
        self.attributes = attributes
        self.relationships = relationships
        self.uniquenessConstraints = uniquenessConstraints
        self.indexes = indexes
        self.versionHashModifier = versionHashModifier
        self.renamingIdentifier = renamingIdentifier
        self.index = index
        self.attributeNames = NameIndex(attributes.map(\.name))
        self.attributeTypes = attributes.map(\.type)
        self.storedAttributes = attributes.filter { !$0.isTransient }
        // Transient attributes are validated too, as Core Data does: only storing skips them.
        self.requiredSlots = attributes.filter { !$0.isOptional }.map(\.index)
        self.attributesWithRules = attributes.filter {
            $0.minimum != nil || $0.maximum != nil || $0.minLength != nil || $0.maxLength != nil || $0.regex != nil
                || !$0.validationPredicates.isEmpty
        }
        self.realValueSlots = attributes.filter { [.double, .float, .decimal, .date].contains($0.type) }.map(\.index)
        self.relationshipNames = NameIndex(relationships.map(\.name))
        self.toOneRelationships = relationships.filter(\.isToOne)
        self.toManyRelationships = relationships.filter(\.isToMany)
        self.rowWidth = attributes.count + toOneRelationships.count
        self.propertySlotCount = rowWidth + toManyRelationships.count
        self.rowLayout = ValueRowLayout(attributeTypes: attributeTypes)
        self.defaultValues = ValueRow(
            attributes.map(\.defaultValue) + Array(repeating: .null, count: toOneRelationships.count), layout: rowLayout)
    }

    /// The attributes the entity declares itself (not inherited).
    var ownAttributes: ArraySlice<AttributeDescription> { attributes[inheritedCounts.attributes...] }
    /// The relationships the entity declares itself (not inherited).
    var ownRelationships: ArraySlice<RelationshipDescription> { relationships[inheritedCounts.relationships...] }
    /// The uniqueness constraints the entity declares itself (not inherited).
    var ownUniquenessConstraints: ArraySlice<[String]> { uniquenessConstraints[inheritedCounts.uniquenessConstraints...] }
    /// The compound indexes the entity declares itself (not inherited).
    var ownIndexes: ArraySlice<[String]> { indexes[inheritedCounts.indexes...] }

    /// The relationship named `name`, or `nil`.
    public func relationship(named name: String) -> RelationshipDescription? {
        relationshipNames.position(of: name).map { relationships[$0] }
    }

    /// The name of the property (attribute or relationship) in change-mask `slot`.
    func propertyName(atSlot slot: Int) -> String {
        if slot < attributes.count { return attributes[slot].name }
        return relationships.first { $0.slot == slot }?.name ?? "#\(slot)"
    }

    /// The attribute named `name`, or `nil`.
    public func attribute(named name: String) -> AttributeDescription? {
        attributeSlot(named: name).map { attributes[$0] }
    }

    /// The slot of the attribute named `name`, or `nil`: every dynamic read and write starts here.
    func attributeSlot(named name: String) -> Int? { attributeNames.position(of: name) }

    /// The attribute named `key`, or an `.unknownKey` error that names the entity and suggests
    /// the closest existing attribute.
    func requireAttribute(_ key: String) throws -> AttributeDescription {
        attributes[try requireSlot(key)]
    }

    /// The slot of the property named `key`, or the end of the slots when there is none.
    func slotOrEnd(_ key: String?) -> Int {
        guard let key else { return propertySlotCount }
        return attributeSlot(named: key) ?? relationship(named: key)?.slot ?? propertySlotCount
    }

    /// The slot of the attribute named `key`, or the `.unknownKey` error of `requireAttribute`.
    func requireSlot(_ key: String) throws -> Int {
        if let slot = attributeSlot(named: key) { return slot }
        if relationship(named: key) != nil {
            throw ObjectGraphError(.typeMismatch, "\(name).\(key) is a relationship, not an attribute", entityName: name, key: key)
        }
        var message = "\(name) has no attribute named '\(key)'"
        if let suggestion = closestName(to: key, among: attributes.map(\.name)) {
            message += "; did you mean '\(suggestion)'?"
        } else {
            message += "; its attributes are \(attributes.map(\.name).joined(separator: ", "))"
        }
        throw ObjectGraphError(.unknownKey, message, entityName: name, key: key)
    }

    /// The relationship named `key`, or an `.unknownKey` error that names the entity and
    /// suggests the closest relationship (or says the key is an attribute).
    func requireRelationship(_ key: String) throws -> RelationshipDescription {
        if let relationship = relationship(named: key) { return relationship }
        if attributeSlot(named: key) != nil {
            throw ObjectGraphError(.typeMismatch, "\(name).\(key) is an attribute, not a relationship", entityName: name, key: key)
        }
        throw unknownPropertyError(key)
    }

    /// An `.unknownKey` error for `key`, suggesting the closest attribute or relationship.
    func unknownPropertyError(_ key: String) -> ObjectGraphError {
        let names = attributes.map(\.name) + relationships.map(\.name)
        var message = "\(name) has no property named '\(key)'"
        if let suggestion = closestName(to: key, among: names) {
            message += "; did you mean '\(suggestion)'?"
        } else {
            message += "; its properties are \(names.joined(separator: ", "))"
        }
        return ObjectGraphError(.unknownKey, message, entityName: name, key: key)
    }

    public var description: String { name }
}

/// How many properties, constraints and indexes an entity inherits from its ancestors.
struct InheritedCounts: Sendable {
    var attributes = 0
    var relationships = 0
    var uniquenessConstraints = 0
    var indexes = 0
}
