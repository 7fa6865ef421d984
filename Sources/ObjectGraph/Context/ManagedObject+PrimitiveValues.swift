import Foundation

/// Core Data's primitive accessors: values read and set without change tracking, for custom
/// accessors, `awakeFromFetch()` and `willSave()` code that must not mark the object changed.
extension ManagedObject {
    /// The value of the property `key` as the object holds it. ObjectGraph has no accessor that
    /// `value(forKey:)` would run besides, so the two read the same: this spelling is here for
    /// code written against Core Data. Throws as `value(forKey:)` does.
    public func primitiveValue(forKey key: String) throws -> Any? {
        try value(forKey: key)
    }

    /// Sets the attribute `key` without change tracking, as Core Data's `setPrimitiveValue(_:forKey:)`:
    /// the object is not marked updated, no notification or `processPendingChanges()` reports
    /// it, and `willSave()` is not called again for it. The value is converted and type-checked
    /// as `setValue(_:forKey:)` does, and saved with the object if the object is saved (inserted,
    /// or updated by a tracked change). Relationships are refused: setting one must keep its
    /// inverse in step, which `setValue(_:forKey:)` does.
    public func setPrimitiveValue(_ value: Any?, forKey key: String) throws {
        let entity = entity
        guard let slot = entity.attributeSlot(named: key) else {
            let relationship = try entity.requireRelationship(key)
            throw ObjectGraphError(
                .invalidOperation,
                "\(entity.name).\(relationship.name) is a relationship: set it with setValue(_:forKey:), which keeps its inverse in step",
                entityName: entity.name, objectID: objectID, key: key)
        }
        let converted = try AttributeValue(converting: value, toSlot: slot, of: entity)
        try checkChangeable(slot)
        guard !isNew else {
            values[slot] = converted
            return
        }
        savedValues.keep(slot, of: values)
        values[slot] = converted
        marks.insert(.primitiveChanges)
    }

    /// The value-row slots a save of this updated object writes: the stored properties it
    /// changed, and those primitive sets changed. `previous` itself when they are the same
    /// slots: a save of many objects usually changes the same few in each, and then shares one
    /// array instead of keeping one per object.
    func savedColumns(sameAs previous: [Int] = []) -> [Int] {
        var matched = 0
        var isPrevious = true
        forEachSavedColumn { slot in
            if isPrevious && matched < previous.count && previous[matched] == slot { matched += 1 } else { isPrevious = false }
        }
        if isPrevious && matched == previous.count { return previous }
        var columns: [Int] = []
        forEachSavedColumn { columns.append($0) }
        return columns
    }

    /// Calls `body` with each slot `savedColumns` holds, ascending. Without primitive sets only
    /// the changed slots are looked at (usually a few of the row's).
    private func forEachSavedColumn(_ body: (Int) -> Void) {
        let entity = entity
        func isStored(_ slot: Int) -> Bool {
            slot < entity.rowWidth && (slot >= entity.attributes.count || !entity.attributes[slot].isTransient)
        }
        guard marks.contains(.primitiveChanges) else {
            changedAttributes.forEachSlot { slot in if isStored(slot) { body(slot) } }
            return
        }
        for slot in 0..<entity.rowWidth where isStored(slot) {
            if changedAttributes.contains(slot) || !values[slot].isStoredEqual(to: savedValues.value(at: slot, in: values)) { body(slot) }
        }
    }
}
