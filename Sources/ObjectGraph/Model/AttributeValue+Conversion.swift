import Foundation

extension AttributeValue {
    /// Converts a Swift value into the stored form for `attribute`, or throws a `.typeMismatch`
    /// error naming the entity, the key, the expected type and what was given.
    ///
    /// Only exact conversions are accepted: any integer type whose value fits the attribute's
    /// width, integers into floating point or decimal when exactly representable, `Float` into
    /// `Double`. Anything that would lose or invent information is refused, never coerced. An
    /// `NSNumber` counts as the Swift number it holds (see `NumberBridging`).
    init(converting value: Any?, toSlot slot: Int, of entity: EntityDescription) throws {
        let type = entity.attributeTypes[slot]
        guard let given = value else {
            self = .null
            return
        }
        if type == .binary, let name = entity.attributes[slot].valueTransformerName, let present = unwrapOptional(given) {
            self = try Self.transformed(present, for: entity.attributes[slot], of: entity, by: name)
            return
        }
        let value = NumberBridging.unbridged(given)
        // The direct casts come first: this runs for every value a program sets, and looking
        // through an Optional hidden in `Any` costs a protocol cast that most values never need.
        if let converted = Self.convert(value, to: type) {
            self = converted
            return
        }
        guard let unwrapped = unwrapOptional(value).map(NumberBridging.unbridged) else {
            self = .null
            return
        }
        if let converted = Self.convert(unwrapped, to: type) {
            self = converted
            return
        }
        throw typeMismatch(unwrapped, attribute: entity.attributes[slot], entity: entity, detail: Self.refusalDetail(unwrapped, for: type))
    }

    /// `value` for an attribute of `type`, trying the Swift types that attribute accepts; the
    /// conversions themselves are the typed ones in AttributeValue+TypedConversion.swift.
    private static func convert(_ value: Any, to type: AttributeType) -> AttributeValue? {
        switch type {
        case .integer16, .integer32, .integer64:
            return exactInt64(value).flatMap { converting($0, to: type) }
        case .double, .float:
            if let double = value as? Double { return converting(double, to: type) }
            if let float = value as? Float { return converting(float, to: type) }
            return exactInt64(value).flatMap { converting($0, to: type) }
        case .decimal:
            if let decimal = value as? Decimal { return converting(decimal, to: type) }
            return exactInt64(value).flatMap { converting($0, to: type) }
        case .string:
            if let string = value as? String { return converting(string, to: type) }
            return (value as? Substring).map { .string(String($0)) }
        case .boolean:
            return (value as? Bool).flatMap { converting($0, to: type) }
        case .date:
            return (value as? Date).flatMap { converting($0, to: type) }
        case .binary:
            if let data = value as? Data { return converting(data, to: type) }
            return (value as? [UInt8]).map { .binary(Data($0)) }
        case .uuid:
            return (value as? UUID).flatMap { converting($0, to: type) }
        case .uri:
            return (value as? URL).flatMap { converting($0, to: type) }
        case .json:
            // An Optional is Encodable too; unwrap it first so that `nil` is stored as nil, not "null".
            if value is any OptionalProtocol { return nil }
            if let document = value as? JSONDocument { return .json(document) }
            if let encodable = value as? any Encodable, let document = try? JSONDocument(encoding: encodable) {
                return .json(document)
            }
            return nil
        }
    }

    /// Why `value` was refused, when there is more to say than the type names.
    private static func refusalDetail(_ value: Any, for type: AttributeType) -> String? {
        if let range = type.integerRange, let integer = exactInt64(value), !range.contains(integer) {
            return "out of range \(range.lowerBound)...\(range.upperBound)"
        }
        if let double = value as? Double, double.isNaN { return "NaN cannot be stored" }
        if let float = value as? Float, float.isNaN { return "NaN cannot be stored" }
        if let date = value as? Date, date.timeIntervalSinceReferenceDate.isNaN { return "a NaN date cannot be stored" }
        if type.isInteger, value is Double || value is Float { return "floating-point values are not converted to integers" }
        if type == .float, value is Double { return "the Double is not exactly representable as a Float" }
        return nil
    }

    /// The value as the public `Any` results hand it out (`value(forKey:)`, `changedValues()`,
    /// dictionary results, merge conflicts): numbers and booleans as an `NSNumber` of the
    /// attribute's width, as Core Data does, so `as? Int`, `as? Int16`, `as? Double` and
    /// `as? Bool` all read them (an `Int64` in an `Any` does not cast to `Int`); any other type
    /// as `anyValue(as:)`.
    func bridgedValue(as type: AttributeType) -> Any? {
        let value = anyValue(as: type)
        switch self {
        // Foundation boxes a Swift number or Bool in the NSNumber of its width and kind.
        case .integer, .double, .float, .boolean: return value.flatMap { $0 as? NSNumber }
        default: return value
        }
    }

    /// The value as the Swift type documented for `type` (`Int16` for integer16, and so on).
    func anyValue(as type: AttributeType) -> Any? {
        if case .integer(let integer) = self {
            switch type {
            case .integer16: return Int16(truncatingIfNeeded: integer)
            case .integer32: return Int32(truncatingIfNeeded: integer)
            default: return integer
            }
        }
        return anyValue
    }
}

/// The value inside an `Optional` passed as `Any`, or `nil` when it is `.none` at any depth.
func unwrapOptional(_ value: Any?) -> Any? {
    guard let value else { return nil }
    if let optional = value as? any OptionalProtocol { return optional.wrappedAny }
    return value
}

/// Lets `unwrapOptional` see through an `Optional` hidden inside `Any`.
protocol OptionalProtocol {
    var wrappedAny: Any? { get }
}

extension Optional: OptionalProtocol {
    var wrappedAny: Any? {
        switch self {
        case .some(let wrapped): unwrapOptional(wrapped)
        case .none: nil
        }
    }
}

/// `value` as an `Int64` when it is a Swift integer whose value fits; `nil` for non-integers.
func exactInt64(_ value: Any) -> Int64? {
    if let integer = value as? Int { return Int64(integer) }
    if let integer = value as? Int64 { return integer }
    guard let integer = value as? any BinaryInteger else { return nil }
    return Int64(exactly: integer)
}

private func typeMismatch(_ value: Any, attribute: AttributeDescription, entity: EntityDescription, detail: String?) -> ObjectGraphError {
    var message =
        "\(entity.name).\(attribute.name) is \(attribute.type.rawValue) (\(attribute.type.swiftTypeName)), but the value given is \(type(of: value)) \(MessageText.of(value).prefix(60))"
    if let detail { message += " — \(detail)" }
    return ObjectGraphError(.typeMismatch, message, entityName: entity.name, key: attribute.name)
}
