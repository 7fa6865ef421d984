import Foundation

// The same concrete overloads of `setValue(_:forKey:)` as `ManagedObject` has, for the same
// reason: a value of an attribute type's own Swift type converts without the dynamic casts a
// value passed as `Any` needs, which are most of what filling a batch row costs. Non-optional, but
// for `String?`, which hands nil to `setValue(_: Any?, forKey:)` (Swift prefers it for
// `setValue(nil, forKey:)`); other optionals and every other type go through that one.
extension BatchInsertValues {
    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public mutating func setValue(_ value: String, forKey key: String) throws {
        try setTypedValue(value, forKey: key, AttributeValue.converting)
    }

    /// Sets the attribute `key` to `value`, or to nil; see `setValue(_:forKey:)`.
    public mutating func setValue(_ value: String?, forKey key: String) throws {
        if let value { try setValue(value, forKey: key) } else { try setValue(nil as Any?, forKey: key) }
    }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public mutating func setValue(_ value: Int, forKey key: String) throws {
        try setTypedValue(value, forKey: key, { AttributeValue.converting(Int64($0), to: $1) })
    }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public mutating func setValue(_ value: Int64, forKey key: String) throws {
        try setTypedValue(value, forKey: key, AttributeValue.converting)
    }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public mutating func setValue(_ value: Int32, forKey key: String) throws {
        try setTypedValue(value, forKey: key, { AttributeValue.converting(Int64($0), to: $1) })
    }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public mutating func setValue(_ value: Int16, forKey key: String) throws {
        try setTypedValue(value, forKey: key, { AttributeValue.converting(Int64($0), to: $1) })
    }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public mutating func setValue(_ value: Double, forKey key: String) throws {
        try setTypedValue(value, forKey: key, AttributeValue.converting)
    }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public mutating func setValue(_ value: Float, forKey key: String) throws {
        try setTypedValue(value, forKey: key, AttributeValue.converting)
    }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public mutating func setValue(_ value: Bool, forKey key: String) throws {
        try setTypedValue(value, forKey: key, AttributeValue.converting)
    }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public mutating func setValue(_ value: Date, forKey key: String) throws {
        try setTypedValue(value, forKey: key, AttributeValue.converting)
    }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public mutating func setValue(_ value: Data, forKey key: String) throws {
        try setTypedValue(value, forKey: key, AttributeValue.converting)
    }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public mutating func setValue(_ value: UUID, forKey key: String) throws {
        try setTypedValue(value, forKey: key, AttributeValue.converting)
    }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public mutating func setValue(_ value: URL, forKey key: String) throws {
        try setTypedValue(value, forKey: key, AttributeValue.converting)
    }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public mutating func setValue(_ value: Decimal, forKey key: String) throws {
        try setTypedValue(value, forKey: key, AttributeValue.converting)
    }

    /// The typed setters' implementation: the exact conversion first, and the general one
    /// (readable errors) when it does not apply.
    @inline(__always)
    private mutating func setTypedValue<T>(_ value: T, forKey key: String, _ convert: (T, AttributeType) -> AttributeValue?) throws {
        let slot = try slot(forKey: key)
        row[slot] = try convert(value, entity.attributeTypes[slot]) ?? AttributeValue(converting: value, toSlot: slot, of: entity)
    }
}
