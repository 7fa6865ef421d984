import Foundation

/// An explicit mapping for one migration step, as Core Data's mapping models give one: where an
/// entity's objects come from when inference cannot tell, and how an attribute's value is made
/// from the older object's values — a rename with a transform, a type change inference refuses,
/// a new required value — without writing a loop. Give mappings to the store through
/// `PersistentStoreDescription.mappingModels`; what they do not mention is inferred.
public struct MappingModel: Sendable {
    /// The version of the model the step starts from.
    public let sourceVersion: Int
    /// The version of the model the step leads to.
    public let destinationVersion: Int
    /// The entities mapped explicitly.
    public let entityMappings: [EntityMapping]

    /// The mapping of the step from version `source` to version `destination`.
    public init(from source: Int, to destination: Int, _ entityMappings: [EntityMapping]) {
        self.sourceVersion = source
        self.destinationVersion = destination
        self.entityMappings = entityMappings
    }
}

/// How one entity of the newer model is filled: from which entity of the older model, and
/// which of its attributes get values from expressions.
public struct EntityMapping: Sendable {
    /// The entity of the newer model.
    public let destinationEntity: String
    /// The entity of the older model its objects come from; `nil` infers it (by name or
    /// `renamingIdentifier`).
    public let sourceEntity: String?
    /// The attributes whose values come from expressions.
    public let propertyMappings: [PropertyMapping]

    /// The mapping of `destination` from `source` (inferred when `nil`), with `properties`.
    public init(_ destination: String, from source: String? = nil, properties: [PropertyMapping] = []) {
        self.destinationEntity = destination
        self.sourceEntity = source
        self.propertyMappings = properties
    }
}

/// One attribute of the newer model and the expression its value comes from.
public struct PropertyMapping: Sendable {
    /// The attribute of the newer model.
    public let key: String
    /// What its value is, from the older object's values.
    public let value: MappingExpression

    /// `key` takes the value of `value`.
    public init(_ key: String, _ value: MappingExpression) {
        self.key = key
        self.value = value
    }
}

/// A value made from an older object's values (Core Data's `$source.key` expressions). The
/// result is set as `setValue(_:forKey:)` sets it: the same conversions, the same refusals.
public indirect enum MappingExpression: Sendable {
    /// The older object's value of `key` (its name in the older model).
    case source(String)
    /// A string, number or nil.
    case string(String)
    case integer(Int64)
    case double(Double)
    case null
    /// The text of a string lower-cased, upper-cased, or without surrounding whitespace.
    case lowercased(MappingExpression)
    case uppercased(MappingExpression)
    case trimmed(MappingExpression)
    /// The texts of the expressions joined with `separator` (nil ones left out).
    case joined([MappingExpression], separator: String)
    /// Part `index` (from 0) of a string split at `separator`, nil when there is none; the last
    /// part keeps the rest (`"Ada King Lovelace"` at `" "`, 1, `maxParts: 2` → `"King Lovelace"`).
    case component(MappingExpression, separator: String, index: Int, maxParts: Int)
    /// The first expression that is not nil.
    case coalesce([MappingExpression])
    /// A value as text: numbers in decimal, Booleans as `true`/`false`, dates in ISO 8601 with
    /// fractional seconds, UUIDs as `uuidString`.
    case text(MappingExpression)
    /// A string read as a whole number or a decimal number; nil when it is not one.
    case integerFrom(MappingExpression)
    case doubleFrom(MappingExpression)

    /// The value for `object`, whose older values `oldValue(forKey:)` reads.
    func evaluate(_ object: MigrationObject) throws -> Any? {
        switch self {
        case .source(let key): return try object.oldValue(forKey: key)
        case .string(let text): return text
        case .integer(let number): return number
        case .double(let number): return number
        case .null: return nil
        case .lowercased(let inner): return try Self.text(of: inner.evaluate(object))?.lowercased()
        case .uppercased(let inner): return try Self.text(of: inner.evaluate(object))?.uppercased()
        case .trimmed(let inner): return try Self.text(of: inner.evaluate(object))?.trimmingCharacters(in: .whitespacesAndNewlines)
        case .joined(let parts, let separator):
            return try parts.compactMap { try Self.text(of: $0.evaluate(object)) }.joined(separator: separator)
        case .component(let inner, let separator, let index, let maxParts):
            guard let text = try Self.text(of: inner.evaluate(object)) else { return nil }
            var parts: [String] = []
            var rest = Substring(text)
            while parts.count < maxParts - 1, let range = rest.range(of: separator) {
                parts.append(String(rest[..<range.lowerBound]))
                rest = rest[range.upperBound...]
            }
            parts.append(String(rest))
            return parts.indices.contains(index) ? parts[index] : nil
        case .coalesce(let options):
            for option in options { if let value = try option.evaluate(object) { return value } }
            return nil
        case .text(let inner): return try Self.text(of: inner.evaluate(object))
        case .integerFrom(let inner):
            return try Self.text(of: inner.evaluate(object)).flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        case .doubleFrom(let inner):
            return try Self.text(of: inner.evaluate(object)).flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        }
    }

    /// A value as text, as `.text` writes it.
    private static func text(of value: Any?) -> String? {
        switch value {
        case nil: return nil
        case let text as String: return text
        case let date as Date: return UTCDateText.iso8601(date, milliseconds: true)
        case let uuid as UUID: return uuid.uuidString
        case let url as URL: return url.absoluteString
        case let number as NSNumber:
            // A real as Swift writes it (2.0, not NSNumber's 2), a Boolean as true or false
            // (Foundation boxes a Bool as a char), integers as they are.
            switch String(cString: number.objCType) {
            case "d": return number.doubleValue.description
            case "f": return number.floatValue.description
            case "c": return number.boolValue.description
            default: return number.stringValue
            }
        case let value?: return "\(value)"
        }
    }
}

extension MappingModel {
    /// The step's work after the rows are copied: each mapped attribute of each object of each
    /// mapped entity set from its expression, before `then` (the step's stage, if any).
    func complete(then stage: (@Sendable (MigrationStageContext) throws -> Void)?) -> @Sendable (MigrationStageContext) throws -> Void {
        let mappings = entityMappings
        return { context in
            for mapping in mappings where !mapping.propertyMappings.isEmpty {
                try context.forEachObject(ofEntity: mapping.destinationEntity) { object in
                    for property in mapping.propertyMappings {
                        try object.setValue(try property.value.evaluate(object), forKey: property.key)
                    }
                }
            }
            try stage?(context)
        }
    }

    /// The attributes (`Entity.key`) the mapping gives values to.
    var mappedAttributes: Set<String> {
        Set(entityMappings.flatMap { mapping in mapping.propertyMappings.map { "\(mapping.destinationEntity).\($0.key)" } })
    }

    /// The source entity names the mapping gives, by destination entity name.
    var sourceEntityNames: [String: String] {
        Dictionary(
            entityMappings.compactMap { mapping in mapping.sourceEntity.map { (mapping.destinationEntity, $0) } },
            uniquingKeysWith: { first, _ in first })
    }
}
