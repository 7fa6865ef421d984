import Foundation

extension ManagedObject {
    /// The value of the attribute `key`, or `nil`: numbers and booleans as `NSNumber` (as in
    /// Core Data: `as? Int`, `as? Int16`, `as? Double`, `as? Bool` all read them), other types
    /// as the Swift type their attribute type documents (`String`, `Date`, `Decimal`, …).
    /// `value(forKey:as:)` reads a typed value without the box.
    ///
    /// Throws `.unknownKey` when the entity has no such attribute (suggesting the closest one) and
    /// `.objectNotFound` when the object is a fault whose row no longer exists.
    public func value(forKey key: String) throws -> Any? {
        let entity = entity
        guard let slot = entity.attributeSlot(named: key) else {
            return try relationshipValue(try entity.requireRelationship(key))
        }
        return try observedValue(at: slot).publicValue(ofSlot: slot, in: entity)
    }

    /// The value of the attribute `key` as `T`, or `nil` when the value is `nil`. Integers convert
    /// between widths when the value fits; `json` attributes decode into any `Decodable` `T`.
    /// Throws `.typeMismatch` when the value cannot be represented as `T`.
    public func value<T>(forKey key: String, as type: T.Type) throws -> T? {
        try typedValue(forKey: key, as: type)
    }

    /// `value(forKey:as:)`'s implementation, specialised for each concrete overload in
    /// ManagedObject+TypedValues.swift.
    @inline(__always)
    func typedValue<T>(forKey key: String, as type: T.Type) throws -> T? {
        guard let slot = attributeSlot(named: key) else {
            return try typedRelationshipValue(try entity.requireRelationship(key), as: type)
        }
        let stored = try observedValue(at: slot)
        if stored.isNull { return nil }
        // First the exact type, the common case (a transformable value read as `Data` is its bytes).
        if let value = stored.exactly(T.self) { return value }
        let entity = entity
        let attribute = entity.attributes[slot]
        if attribute.valueTransformerName != nil, let value = try stored.publicValue(ofSlot: slot, in: entity) as? T { return value }
        if let value = stored.anyValue(as: attribute.type) as? T { return value }
        if case .integer(let integer) = stored, let integerType = T.self as? any BinaryInteger.Type,
            let converted = integerType.init(exactly: integer)
        {
            return converted as? T
        }
        if case .json(let document) = stored, let decodable = T.self as? any Decodable.Type {
            return try document.decode(decodable) as? T
        }
        throw ObjectGraphError(
            .typeMismatch,
            "\(entity.name).\(key) holds \(attribute.type.swiftTypeName) \(stored.debugText), which cannot be read as \(T.self)",
            entityName: entity.name, objectID: objectID, key: key)
    }

    /// The slot of the entity's attribute `key`, or `nil`. The entity is borrowed, not retained:
    /// the object's ID holds it, and a retain and a release per keyed read or write were a
    /// measurable share of fetch-and-read loops.
    @inline(__always)
    func attributeSlot(named key: String) -> Int? {
        Unmanaged.passUnretained(objectID.space.entity)._withUnsafeGuaranteedRef { $0.attributeSlot(named: key) }
    }

    /// The slot and type of the entity's attribute `key`, or `nil`; the entity borrowed as in
    /// `attributeSlot(named:)`.
    @inline(__always)
    func attribute(named key: String) -> (slot: Int, type: AttributeType)? {
        Unmanaged.passUnretained(objectID.space.entity)._withUnsafeGuaranteedRef { entity in
            entity.attributeSlot(named: key).map { ($0, entity.attributeTypes[$0]) }
        }
    }

    /// Sets the attribute `key` to `value` (`nil` clears it). The value must have the attribute's
    /// type or convert to it exactly; otherwise `.typeMismatch` is thrown and nothing changes.
    public func setValue(_ value: Any?, forKey key: String) throws {
        let entity = entity
        guard let slot = entity.attributeSlot(named: key) else {
            return try setRelationshipValue(value, for: try entity.requireRelationship(key))
        }
        try setStoredValue(try AttributeValue(converting: value, toSlot: slot, of: entity), at: slot)
    }

    /// The value of the attribute `key`; `try object["title"]`. Use `setValue(_:forKey:)` to set.
    public subscript(key: String) -> Any? {
        get throws { try value(forKey: key) }
    }

    /// The value in `slot` as a user reads it: `storedValue(at:)`, seen by Observation.
    @inline(__always)
    func observedValue(at slot: Int) throws -> AttributeValue {
        observeAccess(slot)
        return try storedValue(at: slot)
    }

    /// The value in `slot`, loading the object's values first if it is a fault. Always inlined:
    /// it is the inner step of every keyed and generated read, and with that many callers the
    /// optimiser otherwise stops inlining it.
    @inline(__always)
    func storedValue(at slot: Int) throws -> AttributeValue {
        checkQueue("reading \(entity.propertyName(atSlot: slot))")
        if isFault { try fulfillFault() }
        return values[slot]
    }

    /// The value of a relationship as `T` (`ManagedObject`, `Set<ManagedObject>` or
    /// `[ManagedObject]`), or a `.typeMismatch` error.
    private func typedRelationshipValue<T>(_ relationship: RelationshipDescription, as type: T.Type) throws -> T? {
        guard let value = try relationshipValue(relationship) else { return nil }
        if let typed = value as? T { return typed }
        throw ObjectGraphError(
            .typeMismatch,
            "\(entity.name).\(relationship.name) is a \(relationship.isToOne ? "to-one" : "to-many") relationship holding \(Swift.type(of: value)), which cannot be read as \(T.self)",
            entityName: entity.name, objectID: objectID, key: relationship.name)
    }

    /// Sets the value in `slot` and records the change with the context.
    func setStoredValue(_ value: consuming AttributeValue, at slot: Int) throws {
        try checkChangeable(slot)
        recordChange(value, at: slot)
    }

    /// Loads the object's values if it is a fault, and throws unless `slot` may be set now: the
    /// object must not be deleted, and must be new or belong to a context.
    func checkChangeable(_ slot: Int) throws {
        checkQueue("setting \(entity.propertyName(atSlot: slot))")
        if isFault { try fulfillFault() }
        guard !isDeleted else {
            throw ObjectGraphError(
                .invalidOperation,
                "cannot change \(entity.name).\(entity.attributes[slot].name) of \(objectID.shortDescription): the object is deleted",
                entityName: entity.name, objectID: objectID, key: entity.attributes[slot].name)
        }
        guard isNew || managedObjectContext != nil else {
            throw ObjectGraphError(
                .invalidOperation,
                "cannot change \(objectID.shortDescription): it no longer belongs to a context (it was reset, rolled back or its deletion saved)",
                entityName: entity.name, objectID: objectID)
        }
    }

    /// Writes `value` into `slot` of a loaded object and tracks the change: a saved object keeps
    /// its saved row apart from the first change on, and joins its context's updated objects
    /// until saved, rolled back or refreshed. Any set counts, even of the value the slot had, as
    /// in Core Data; the values are compared only when someone asks what differs.
    func recordChange(_ value: consuming AttributeValue, at slot: Int) {
        // Not through `observingChange`: its closure would copy `value` (a retain) on every set.
        guard let observers = observers(ofSlot: slot) else { return writeChange(value, at: slot) }
        observers.willSet()
        writeChange(value, at: slot)
        observers.didSet()
    }

    /// `recordChange(_:at:)` without telling observers.
    private func writeChange(_ value: consuming AttributeValue, at slot: Int) {
        markChanged()
        // New objects (inserted, or not yet in a context) keep every value as it is set.
        guard !isNew else {
            values[slot] = value
            return
        }
        savedValues.keep(slot, of: values)
        values[slot] = value
        guard !changedAttributes.isEmpty else {
            changedAttributes.insert(slot)
            managedObjectContext?.objectUpdateStateChanged(self)
            return
        }
        changedAttributes.insert(slot)
    }

    /// Fires the fault: the row it holds, or else the row loaded from its context's store.
    func fulfillFault() throws {
        if !values.isEmpty {
            isFault = false
            awakeFromFetch()
            return
        }
        guard let context = managedObjectContext else {
            throw ObjectGraphError(
                .invalidOperation,
                "cannot read \(objectID.shortDescription): it is a fault that no longer belongs to a context",
                entityName: entity.name, objectID: objectID)
        }
        try context.fulfillFault(self)
    }
}
