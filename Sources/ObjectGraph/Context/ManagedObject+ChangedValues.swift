import Foundation

/// What changed: Core Data's `changedValues()`, `committedValues(forKeys:)`,
/// `changedValuesForCurrentEvent()` and `hasPersistentChangedValues`. They speak of persistent
/// properties only — stored attributes and relationships, never transient attributes. Attributes
/// give their values as `value(forKey:)` does; a to-one gives its destination's `ManagedObjectID`
/// (or nil), a to-many a `Set<ManagedObjectID>` (an array when ordered): committed destinations
/// may no longer exist as objects.
extension ManagedObject {
    /// The persistent properties whose values differ from the last saved or fetched ones, with
    /// their new values. A property set to the value it had is not listed, though the object
    /// counts as updated. A new object lists every stored attribute and the relationships it has
    /// set.
    public func changedValues() -> [String: Any?] {
        guard !isFault else { return [:] }
        return values(ofSlots: persistentSlots(differingFrom: isNew ? nil : committed), in: values, current: true)
    }

    /// Whether any persistent property differs from its last saved or fetched value (or the
    /// object is new): `isUpdated` also counts properties set to the values they had.
    public var hasPersistentChangedValues: Bool {
        isNew || !isFault && !persistentSlots(differingFrom: committed).isEmpty
    }

    /// The persistent properties changed since the context last posted objects-did-change
    /// (`processPendingChanges()`) or since the object was saved or fetched, with their values
    /// from then (attributes and to-ones; to-manys are not tracked per event). Empty for a new
    /// object until its insertion has been reported.
    public func changedValuesForCurrentEvent() -> [String: Any?] {
        guard !isFault, marks.contains(.changedInEvent), !isDeleted else { return [:] }
        let reported = managedObjectContext?.reportedValues[ObjectKey(self)]
        guard let baseline = reported ?? (isNew ? nil : committed) else { return [:] }
        let slots = persistentSlots(differingFrom: baseline).filter { $0 < entity.rowWidth }
        return values(ofSlots: slots, in: baseline, current: false)
    }

    /// The last saved or fetched values of `keys`, or of every persistent property when `keys` is
    /// `nil`; empty for a new object. Transient attributes are left out (they are not saved).
    /// Throws `.unknownKey` for a key the entity does not have.
    public func committedValues(forKeys keys: [String]?) throws -> [String: Any?] {
        if isNew { return [:] }
        if isFault { try fulfillFault() }
        let entity = entity
        let slots =
            try keys.map { keys in
                try keys.map { key in try entity.attributeSlot(named: key) ?? entity.requireRelationship(key).slot }
            } ?? Array(0..<entity.propertySlotCount)
        var result: [String: Any?] = [:]
        let committed = committed
        for slot in slots where !isTransient(slot) {
            guard slot >= entity.rowWidth else {
                result[entity.propertyName(atSlot: slot)] = value(ofSlot: slot, in: committed, current: false)
                continue
            }
            let relationship = entity.toManyRelationships[slot - entity.rowWidth]
            let related = loadedToMany[try loadRelationship(relationship)]!
            result[relationship.name] = Self.objectIDs(related.committedObjects, ordered: relationship.isOrdered)
        }
        return result
    }

    /// The persistent slots whose current values differ from `baseline` (a row of the entity), or
    /// every set one when `baseline` is `nil` (a new object). To-manys count when their members
    /// or order changed since the last save.
    private func persistentSlots(differingFrom baseline: ValueRow?) -> [Int] {
        let entity = entity
        var slots: [Int] = []
        for slot in 0..<entity.rowWidth where !isTransient(slot) {
            if let baseline {
                if changedAttributes.contains(slot) && !values[slot].isStoredEqual(to: baseline[slot]) { slots.append(slot) }
            } else if slot < entity.attributes.count || !values[slot].isNull {
                slots.append(slot)
            }
        }
        for (position, related) in loadedToMany.enumerated() {
            guard let related else { continue }
            let changed = baseline == nil ? related.count > 0 : related.isChanged && related.changes() != ([], [], false)
            if changed { slots.append(entity.rowWidth + position) }
        }
        return slots
    }

    private func isTransient(_ slot: Int) -> Bool {
        slot < entity.attributes.count && entity.attributes[slot].isTransient
    }

    /// The properties in `slots` by name, valued from `row` (current values for to-manys);
    /// `current` says whether `row` is the object's current values.
    private func values(ofSlots slots: [Int], in row: ValueRow, current: Bool) -> [String: Any?] {
        var result: [String: Any?] = [:]
        for slot in slots {
            guard slot >= entity.rowWidth else {
                result[entity.propertyName(atSlot: slot)] = value(ofSlot: slot, in: row, current: current)
                continue
            }
            let relationship = entity.toManyRelationships[slot - entity.rowWidth]
            result[relationship.name] = loadedToMany[slot - entity.rowWidth].map {
                Self.objectIDs($0.objects, ordered: relationship.isOrdered)
            }
        }
        return result
    }

    /// The value of an attribute or to-one `slot` of `row`, as the change methods give it.
    private func value(ofSlot slot: Int, in row: ValueRow, current: Bool) -> Any? {
        // A transformable value the transformer cannot make is left out (these methods do not throw).
        if slot < entity.attributes.count { return (try? row[slot].publicValue(ofSlot: slot, in: entity)) ?? nil }
        // A held destination may have its permanent ID by now; the row keeps the one it was set with.
        let position = slot - entity.attributes.count
        if current, let held = relationshipHold.heldDestination(at: position) { return held.objectID }
        if case .object(let objectID) = row[slot] { return objectID }
        return nil
    }

    private static func objectIDs(_ objects: [ManagedObject], ordered: Bool) -> Any {
        ordered ? objects.map(\.objectID) : Set(objects.map(\.objectID))
    }
}
