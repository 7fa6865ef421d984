import Foundation

// Concrete overloads of `setValue(_:forKey:)` for the attribute types' own Swift types: they
// convert without the dynamic casts that a value passed as `Any` needs (the cost of setting
// a value is otherwise mostly those casts). Non-optional, but for `String?` (optional strings are
// the commonest optional value): Swift prefers it for `setValue(nil, forKey:)`, so it hands nil to
// `setValue(_: Any?, forKey:)`, which clears attributes and relationships alike. Other optionals
// and every other type go through `setValue(_: Any?, forKey:)`.
extension ManagedObject {
    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public func setValue(_ value: String, forKey key: String) throws { try setTypedValue(value, forKey: key, AttributeValue.converting) }

    /// Sets the attribute `key` to `value`, or clears the attribute or relationship `key` when
    /// `value` is nil; see `setValue(_:forKey:)`.
    public func setValue(_ value: String?, forKey key: String) throws {
        if let value { try setValue(value, forKey: key) } else { try setValue(nil as Any?, forKey: key) }
    }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public func setValue(_ value: Int, forKey key: String) throws {
        try setTypedValue(value, forKey: key, { AttributeValue.converting(Int64($0), to: $1) })
    }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public func setValue(_ value: Int64, forKey key: String) throws { try setTypedValue(value, forKey: key, AttributeValue.converting) }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public func setValue(_ value: Int32, forKey key: String) throws {
        try setTypedValue(value, forKey: key, { AttributeValue.converting(Int64($0), to: $1) })
    }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public func setValue(_ value: Int16, forKey key: String) throws {
        try setTypedValue(value, forKey: key, { AttributeValue.converting(Int64($0), to: $1) })
    }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public func setValue(_ value: Double, forKey key: String) throws { try setTypedValue(value, forKey: key, AttributeValue.converting) }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public func setValue(_ value: Float, forKey key: String) throws { try setTypedValue(value, forKey: key, AttributeValue.converting) }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public func setValue(_ value: Bool, forKey key: String) throws { try setTypedValue(value, forKey: key, AttributeValue.converting) }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public func setValue(_ value: Date, forKey key: String) throws { try setTypedValue(value, forKey: key, AttributeValue.converting) }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public func setValue(_ value: Data, forKey key: String) throws { try setTypedValue(value, forKey: key, AttributeValue.converting) }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public func setValue(_ value: UUID, forKey key: String) throws { try setTypedValue(value, forKey: key, AttributeValue.converting) }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public func setValue(_ value: URL, forKey key: String) throws { try setTypedValue(value, forKey: key, AttributeValue.converting) }

    /// Sets the attribute `key` to `value`; see `setValue(_:forKey:)`.
    public func setValue(_ value: Decimal, forKey key: String) throws { try setTypedValue(value, forKey: key, AttributeValue.converting) }

    /// The typed setters' implementation: the exact conversion first, and the general one (JSON
    /// encoding, readable errors) when it does not apply.
    @inline(__always)
    private func setTypedValue<T>(_ value: T, forKey key: String, _ convert: (T, AttributeType) -> AttributeValue?) throws {
        guard let (slot, type) = attribute(named: key) else {
            return try setRelationshipValue(value, for: try entity.requireRelationship(key))
        }
        let stored = try convert(value, type) ?? AttributeValue(converting: value, toSlot: slot, of: entity)
        try setStoredValue(stored, at: slot)
    }
}
