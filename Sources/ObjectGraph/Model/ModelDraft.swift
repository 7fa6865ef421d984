/// What the validator read from a model file, before cross-entity checks and before the
/// descriptions are built. Each draft keeps the JSON paths and positions its later checks report
/// against. A draft exists only when its essential fields (names, types) were readable; properties
/// that could not be read are remembered by name so references to them are not reported twice.
struct ModelDraft {
    var name: String
    var version: Int
    var entities: [EntityDraft]
}

/// An entity as read from the file.
struct EntityDraft {
    let name: String
    let path: JSONPath
    let namePosition: SourcePosition
    var className: NameReference?
    var isAbstract = false
    var parent: NameReference?
    var attributes: [AttributeDraft] = []
    var relationships: [RelationshipDraft] = []
    var uniquenessConstraints: [NameListDraft] = []
    var indexes: [NameListDraft] = []
    /// The integer attribute whose values are the rows' keys (`"primaryKey": "id"`), if any.
    var primaryKey: NameReference?
    var versionHashModifier: String?
    var renamingIdentifier: String?
    /// Properties declared with problems of their own: references to them are not reported again.
    var brokenPropertyNames: Set<String> = []
}

/// A name that refers to something elsewhere in the model (a parent, a destination, an inverse),
/// with where it was written.
struct NameReference {
    let name: String
    let path: JSONPath
    let position: SourcePosition
}

/// A list of attribute names: one uniqueness constraint or one compound index.
struct NameListDraft {
    let names: [NameReference]
    let path: JSONPath
}

/// An attribute as read from the file; every field has been checked on its own.
struct AttributeDraft {
    let name: String
    let path: JSONPath
    let namePosition: SourcePosition
    let type: AttributeType
    var isOptional = false
    var isTransient = false
    var isIndexed = false
    var preservesValueInHistoryOnDeletion = false
    var renamingIdentifier: String?
    var versionHashModifier: String?
    var minimum: AttributeValue?
    var maximum: AttributeValue?
    var minLength: Int?
    var maxLength: Int?
    var regex: String?
    var valueTransformerName: String?
    var validationPredicates: [ValidationPredicate] = []
    var defaultValue: AttributeValue = .null

    /// The description of this attribute at slot `index` of its entity's value rows.
    func makeDescription(index: Int, isPrimaryKey: Bool = false) -> AttributeDescription {
        AttributeDescription(
            name: name, type: type, isOptional: isOptional, isTransient: isTransient, isIndexed: isIndexed,
            preservesValueInHistoryOnDeletion: preservesValueInHistoryOnDeletion, renamingIdentifier: renamingIdentifier,
            versionHashModifier: versionHashModifier, minimum: minimum, maximum: maximum,
            minLength: minLength, maxLength: maxLength, regex: regex, valueTransformerName: valueTransformerName,
            validationPredicates: validationPredicates,
            defaultValue: defaultValue, index: index,
            isPrimaryKey: isPrimaryKey)
    }
}

/// A relationship as read from the file.
struct RelationshipDraft {
    let name: String
    let path: JSONPath
    let namePosition: SourcePosition
    let destination: NameReference
    /// The inverse's name, or `nil` for a relationship declared one-way with `"inverse": null`.
    let inverse: NameReference?
    var isToMany = false
    var isOrdered = false
    var deleteRule = DeleteRule.nullify
    var isOptional = true
    var minCount: Int?
    var maxCount: Int?
    var versionHashModifier: String?
    var renamingIdentifier: String?

    /// The description of this relationship at `index` in its entity's relationships.
    func makeDescription(index: Int, slot: Int, destinationIndex: Int, inverseIndex: Int?, isInverseToMany: Bool) -> RelationshipDescription
    {
        RelationshipDescription(
            name: name, destinationEntityName: destination.name, isToMany: isToMany, isOrdered: isOrdered,
            inverseName: inverse?.name, deleteRule: deleteRule, isOptional: isOptional,
            minCount: minCount, maxCount: maxCount, versionHashModifier: versionHashModifier, renamingIdentifier: renamingIdentifier,
            index: index, slot: slot, destinationIndex: destinationIndex, inverseIndex: inverseIndex, isInverseToMany: isInverseToMany)
    }
}
