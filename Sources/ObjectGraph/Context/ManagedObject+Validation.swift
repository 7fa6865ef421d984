import Foundation

/// What `validateForInsert()`, `validateForUpdate()`, `validateForDelete()` and
/// `validateValue(_:forKey:)` do by default.
extension ManagedObject {
    /// The default `validateFor…()`: the model's rules (unless a save checks them), then the
    /// per-key validators of the properties `phase` looks at; throws `.validation` listing every
    /// failure.
    func validate(for phase: ValidationPhase) throws {
        var failures: [ValidationFailure] = []
        if !ModelRules.areChecked {
            switch phase {
            case .insert, .update:
                ObjectValidator.appendFailures(of: self, to: &failures)
            case .delete:
                failures += try managedObjectContext?.denyFailures(of: [self]) ?? []
            }
        }
        if phase != .delete {
            ModelRules.$areChecked.withValue(true) { appendKeyValidatorFailures(checkingAll: phase == .insert, to: &failures) }
        }
        if !failures.isEmpty { throw ObjectValidator.error(for: failures, lead: "\(objectID.shortDescription) is not valid") }
    }

    /// Runs `validateValue(_:forKey:)` on the persistent properties: all of them, or those
    /// changed since the last save.
    private func appendKeyValidatorFailures(checkingAll: Bool, to failures: inout [ValidationFailure]) {
        let entity = entity
        for slot in 0..<entity.propertySlotCount where checkingAll || changedAttributes.contains(slot) {
            guard slot >= entity.attributes.count || !entity.attributes[slot].isTransient else { continue }
            let key = entity.propertyName(atSlot: slot)
            do {
                var value = try self.value(forKey: key)
                try validateValue(&value, forKey: key)
            } catch {
                failures += ValidationFailure.failures(describing: error, of: self, key: key)
            }
        }
    }

    /// The default `validateValue(_:forKey:)`: the model's rules for `key`, unless a save checks
    /// them.
    func validateModelRules(_ value: Any?, forKey key: String) throws {
        guard !ModelRules.areChecked else { return }
        try validate(value: value, forKey: key)
    }
}

extension ValidationFailure {
    /// The failures `error`, thrown by validation code for `object` (and `key`, if one), stands
    /// for: those a `.validation` error lists, or one failure that keeps any other error as its
    /// `underlyingError`.
    static func failures(describing error: any Error, of object: ManagedObject, key: String?) -> [ValidationFailure] {
        guard let error = error as? ObjectGraphError else {
            return [ValidationFailure(object: object, key: key, reason: "\(error)", underlyingError: error)]
        }
        if !error.validationFailures.isEmpty { return error.validationFailures }
        return [ValidationFailure(object: object, key: error.key ?? key, reason: error.message, underlyingError: error)]
    }
}
