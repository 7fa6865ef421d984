import Foundation

// Accessors for generated classes: typed reads and writes by slot number (an attribute's index in
// its entity, which inherited attributes keep in sub-entities), so a generated property costs an
// array read, not a name lookup. They are public because generated code lives in the user's
// module, and underscored to stay out of users' way; use the generated properties, or
// `value(forKey:)` and `setValue(_:forKey:)`.
//
// Generated properties cannot throw, so what would throw stops the program instead, with a
// message naming the object, the property and the reason: reading an object whose row is gone (a
// fault that cannot fire), changing a deleted object or one that left its context, or reading a
// required attribute that has no value yet. The throwing key-based calls are the alternative where
// those can happen.
extension ManagedObject {
    /// The value in attribute `slot` (loading a fault), or a stop naming what went wrong.
    @inline(__always)
    private func slotValue(_ slot: Int) -> AttributeValue {
        do {
            return try observedValue(at: slot)
        } catch {
            preconditionFailure("reading \(entity.name).\(entity.propertyName(atSlot: slot)) of \(objectID.shortDescription): \(error)")
        }
    }

    /// Sets attribute `slot` to `value`, or stops naming what went wrong.
    @inline(__always)
    private func setSlotValue(_ value: AttributeValue, _ slot: Int) {
        do {
            try setStoredValue(value, at: slot)
        } catch {
            preconditionFailure("setting \(entity.name).\(entity.propertyName(atSlot: slot)) of \(objectID.shortDescription): \(error)")
        }
    }

    /// For generated code: stops because the required attribute in `slot` has no value (yet).
    public func _missingValue(_ slot: Int) -> Never {
        preconditionFailure(
            "\(entity.name).\(entity.propertyName(atSlot: slot)) of \(objectID.shortDescription) is required but has no value yet; set it before reading it, or read it with value(forKey:)"
        )
    }

    /// For generated code: the `string` attribute in `slot`.
    public func _value(at slot: Int) -> String? { slotValue(slot).exactly(String.self) }
    /// For generated code: the `integer16` attribute in `slot`.
    public func _value(at slot: Int) -> Int16? { slotValue(slot).exactly(Int64.self).map { Int16(truncatingIfNeeded: $0) } }
    /// For generated code: the `integer32` attribute in `slot`.
    public func _value(at slot: Int) -> Int32? { slotValue(slot).exactly(Int64.self).map { Int32(truncatingIfNeeded: $0) } }
    /// For generated code: the `integer64` attribute in `slot`.
    public func _value(at slot: Int) -> Int64? { slotValue(slot).exactly(Int64.self) }
    /// For generated code: the `double` attribute in `slot`.
    public func _value(at slot: Int) -> Double? { slotValue(slot).exactly(Double.self) }
    /// For generated code: the `float` attribute in `slot`.
    public func _value(at slot: Int) -> Float? { slotValue(slot).exactly(Float.self) }
    /// For generated code: the `boolean` attribute in `slot`.
    public func _value(at slot: Int) -> Bool? { slotValue(slot).exactly(Bool.self) }
    /// For generated code: the `date` attribute in `slot`.
    public func _value(at slot: Int) -> Date? { slotValue(slot).exactly(Date.self) }
    /// For generated code: the `binary` attribute in `slot`.
    public func _value(at slot: Int) -> Data? { slotValue(slot).exactly(Data.self) }
    /// For generated code: the `uuid` attribute in `slot`.
    public func _value(at slot: Int) -> UUID? { slotValue(slot).exactly(UUID.self) }

    /// For generated code: the `decimal` attribute in `slot`.
    public func _value(at slot: Int) -> Decimal? {
        if case .decimal(let value) = slotValue(slot) { return value }
        return nil
    }

    /// For generated code: the `uri` attribute in `slot`.
    public func _value(at slot: Int) -> URL? {
        if case .uri(let value) = slotValue(slot) { return value }
        return nil
    }

    /// For generated code: the `json` attribute in `slot`.
    public func _value(at slot: Int) -> JSONDocument? {
        if case .json(let value) = slotValue(slot) { return value }
        return nil
    }

    /// For generated code: sets the `string` attribute in `slot`.
    public func _setValue(_ value: String?, at slot: Int) { setSlotValue(value.map(AttributeValue.string) ?? .null, slot) }
    /// For generated code: sets the `integer16` attribute in `slot`.
    public func _setValue(_ value: Int16?, at slot: Int) { setSlotValue(value.map { .integer(Int64($0)) } ?? .null, slot) }
    /// For generated code: sets the `integer32` attribute in `slot`.
    public func _setValue(_ value: Int32?, at slot: Int) { setSlotValue(value.map { .integer(Int64($0)) } ?? .null, slot) }
    /// For generated code: sets the `integer64` attribute in `slot`.
    public func _setValue(_ value: Int64?, at slot: Int) { setSlotValue(value.map(AttributeValue.integer) ?? .null, slot) }
    /// For generated code: sets the `double` attribute in `slot`.
    public func _setValue(_ value: Double?, at slot: Int) { setSlotValue(value.map(AttributeValue.double) ?? .null, slot) }
    /// For generated code: sets the `float` attribute in `slot`.
    public func _setValue(_ value: Float?, at slot: Int) { setSlotValue(value.map(AttributeValue.float) ?? .null, slot) }
    /// For generated code: sets the `decimal` attribute in `slot`.
    public func _setValue(_ value: Decimal?, at slot: Int) { setSlotValue(value.map(AttributeValue.decimal) ?? .null, slot) }
    /// For generated code: sets the `boolean` attribute in `slot`.
    public func _setValue(_ value: Bool?, at slot: Int) { setSlotValue(value.map(AttributeValue.boolean) ?? .null, slot) }
    /// For generated code: sets the `date` attribute in `slot`.
    public func _setValue(_ value: Date?, at slot: Int) { setSlotValue(value.map(AttributeValue.date) ?? .null, slot) }
    /// For generated code: sets the `binary` attribute in `slot`.
    public func _setValue(_ value: Data?, at slot: Int) { setSlotValue(value.map(AttributeValue.binary) ?? .null, slot) }
    /// For generated code: sets the `uuid` attribute in `slot`.
    public func _setValue(_ value: UUID?, at slot: Int) { setSlotValue(value.map(AttributeValue.uuid) ?? .null, slot) }
    /// For generated code: sets the `uri` attribute in `slot`.
    public func _setValue(_ value: URL?, at slot: Int) { setSlotValue(value.map(AttributeValue.uri) ?? .null, slot) }
    /// For generated code: sets the `json` attribute in `slot`.
    public func _setValue(_ value: JSONDocument?, at slot: Int) { setSlotValue(value.map(AttributeValue.json) ?? .null, slot) }
}
