import Foundation

/// One attribute of an entity, as declared in the model file.
public final class AttributeDescription: Sendable, CustomStringConvertible {
    /// The attribute's name, a valid identifier unique within its entity.
    public let name: String
    /// The attribute's type.
    public let type: AttributeType
    /// Whether the attribute may be `nil` (`"optional": true`); attributes are required by default.
    public let isOptional: Bool
    /// Whether the attribute lives only in memory and is never stored.
    public let isTransient: Bool
    /// Whether the store keeps an index on this attribute alone.
    public let isIndexed: Bool
    /// Whether persistent history keeps the attribute's last value when its object is deleted
    /// (`"preservesValueInHistoryOnDeletion": true`), in the deletion's `tombstone`.
    public let preservesValueInHistoryOnDeletion: Bool
    /// The attribute's name in an earlier model version, for migration.
    public let renamingIdentifier: String?
    /// Text that changes the attribute's version hash (and so its entity's and the model's)
    /// without a change to the schema, to mark a change in what its values mean.
    public let versionHashModifier: String?
    /// The smallest allowed value (numbers and dates), if any.
    let minimum: AttributeValue?
    /// The largest allowed value (numbers and dates), if any.
    let maximum: AttributeValue?
    /// The shortest allowed length (strings: characters; binary: bytes), if any.
    public let minLength: Int?
    /// The longest allowed length (strings: characters; binary: bytes), if any.
    public let maxLength: Int?
    /// A regular expression every string value must match entirely, if any.
    public let regex: String?
    /// For a `transformable` attribute (stored as `binary`), the name of the `AttributeTransformer`
    /// that converts its values to bytes and back, as Core Data's `valueTransformerName`.
    public let valueTransformerName: String?
    /// The attribute's validation predicates with their messages (`"validation"` in the model
    /// file), checked at save after the other rules.
    public let validationPredicates: [ValidationPredicate]
    /// `regex` compiled once, for validating every save.
    let regexExpression: NSRegularExpression?
    /// The value a newly inserted object starts with (`.null` when none is declared).
    let defaultValue: AttributeValue
    /// The attribute's position in its entity's `attributes`, which is its slot in every value row.
    package let index: Int
    /// Whether the attribute is its entity's `primaryKey`: its values are the rows' keys.
    let isPrimaryKey: Bool

    init(
        name: String, type: AttributeType, isOptional: Bool = false, isTransient: Bool = false,
        isIndexed: Bool = false, preservesValueInHistoryOnDeletion: Bool = false, renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        minimum: AttributeValue? = nil, maximum: AttributeValue? = nil,
        minLength: Int? = nil, maxLength: Int? = nil, regex: String? = nil, valueTransformerName: String? = nil,
        validationPredicates: [ValidationPredicate] = [], defaultValue: AttributeValue = .null, index: Int, isPrimaryKey: Bool = false
    ) {
        self.isPrimaryKey = isPrimaryKey
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.isIndexed = isIndexed
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.minimum = minimum
        self.maximum = maximum
        self.minLength = minLength
        self.maxLength = maxLength
        self.regex = regex
        self.valueTransformerName = valueTransformerName
        self.validationPredicates = validationPredicates
        self.regexExpression = regex.flatMap(wholeStringExpression)
        self.defaultValue = defaultValue
        self.index = index
    }

    /// The value a newly inserted object starts with, or `nil` when none is declared; numbers and
    /// booleans as `NSNumber`, as `value(forKey:)` returns them.
    public var defaultValueAsAny: Any? { defaultValue.bridgedValue(as: type) }

    public var description: String {
        "\(name): \(valueTransformerName == nil ? type.rawValue : "transformable(\(valueTransformerName!))")\(isOptional ? "?" : "")\(isTransient ? " (transient)" : "")"
    }
}
