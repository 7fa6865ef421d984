import Foundation

/// Converts the values of `transformable` attributes to the bytes the store keeps, and back: Core
/// Data's `ValueTransformer`, named by an attribute's `valueTransformerName`. Register one with
/// `AttributeTransformers.register(_:forName:)` before objects use the attribute. (For `Codable`
/// values the `json` type needs no transformer.)
///
/// As in Core Data, a transformable value is a copy: each read makes it from the stored bytes, so
/// changing a value in place (a mutable object read from the attribute) changes nothing until it
/// is set again with `setValue(_:forKey:)`.
public protocol AttributeTransformer: Sendable {
    /// The bytes to store for `value` (nil values are stored as nil, without a call). Throw to
    /// refuse a value of the wrong kind.
    func transformedValue(_ value: Any) throws -> Data
    /// The value the stored `data` stands for.
    func reverseTransformedValue(_ data: Data) throws -> Any
}

/// The registered `AttributeTransformer`s, by the names `valueTransformerName` uses: one table for
/// the whole program, as Foundation's `ValueTransformer.setValueTransformer(_:forName:)`.
public enum AttributeTransformers {
    private static let registry = Locked<[String: any AttributeTransformer]>([:])

    /// Makes `transformer` the one named `name`, replacing any registered before.
    public static func register(_ transformer: any AttributeTransformer, forName name: String) {
        registry.withLock { $0[name] = transformer }
    }

    /// The transformer registered as `name`, or `nil`.
    public static func transformer(forName name: String) -> (any AttributeTransformer)? {
        registry.withLock { $0[name] }
    }

    /// The transformer of a transformable `attribute` of `entity`, or an error saying it is not
    /// registered.
    static func require(
        for attribute: AttributeDescription, of entity: EntityDescription, named name: String
    ) throws -> any AttributeTransformer {
        guard let transformer = transformer(forName: name) else {
            throw ObjectGraphError(
                .invalidOperation,
                "\(entity.name).\(attribute.name) is transformable by '\(name)', but no transformer is registered under that name; call AttributeTransformers.register(_:forName:) first",
                entityName: entity.name, key: attribute.name)
        }
        return transformer
    }
}

extension AttributeValue {
    /// The value of a transformable attribute a program set, as the bytes its transformer makes.
    static func transformed(
        _ value: Any, for attribute: AttributeDescription, of entity: EntityDescription, by name: String
    ) throws -> AttributeValue {
        let transformer = try AttributeTransformers.require(for: attribute, of: entity, named: name)
        do {
            return .binary(try transformer.transformedValue(value))
        } catch {
            throw ObjectGraphError(
                .typeMismatch, "\(entity.name).\(attribute.name): transformer '\(name)' refused a \(type(of: value)): \(error)",
                entityName: entity.name, key: attribute.name)
        }
    }

    /// The value a program reads from the attribute in `slot` of `entity`: the stored value as
    /// `bridgedValue(as:)` gives it, or, for a transformable attribute, what its transformer
    /// makes of the stored bytes.
    func publicValue(ofSlot slot: Int, in entity: EntityDescription) throws -> Any? {
        let type = entity.attributeTypes[slot]
        guard type == .binary, case .binary(let data) = self, let name = entity.attributes[slot].valueTransformerName else {
            return bridgedValue(as: type)
        }
        return try AttributeTransformers.require(for: entity.attributes[slot], of: entity, named: name).reverseTransformedValue(data)
    }
}
