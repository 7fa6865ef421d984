/// Which change of an object a custom validation rule is checking.
public enum ValidationPhase: String, Sendable {
    /// The object is new and about to be saved for the first time.
    case insert
    /// The saved object has changes about to be saved.
    case update
    /// The object is about to be deleted from the store.
    case delete
}

/// A custom validation rule for the objects of an entity (and its sub-entities): it throws to
/// refuse the save. Throw `ObjectGraphError.validation([...])` to name properties; any other
/// error becomes a failure of the object as a whole, described by the error and kept as its
/// `underlyingError`.
public typealias ValidationRule = @Sendable (ManagedObject, ValidationPhase) throws -> Void

extension ManagedObject {
    /// Checks whether `value` would be a valid value for the property `key` — its type, whether it
    /// is required, and the model's rules for it — without setting it. Throws `.typeMismatch` or
    /// `.unknownKey` for a value that cannot be set at all, and `.validation` naming the rule.
    /// (`validateValue(_:forKey:)` runs this and the subclass's own rules.)
    public func validate(value: Any?, forKey key: String) throws {
        let entity = entity
        var rejection: ObjectValidator.Rejection?
        if let slot = entity.attributeSlot(named: key) {
            let attribute = entity.attributes[slot]
            let converted = try AttributeValue(converting: value, toSlot: slot, of: entity)
            if converted.isNull {
                if !attribute.isOptional && !attribute.isTransient { rejection = ObjectValidator.Rejection(reason: "a value is required") }
            } else {
                rejection = ObjectValidator.rejection(of: converted, for: attribute)
            }
        } else {
            let relationship = try entity.requireRelationship(key)
            rejection = try relationshipReason(rejecting: value, for: relationship).map { ObjectValidator.Rejection(reason: $0) }
        }
        if let rejection {
            throw ObjectGraphError.validation([
                ValidationFailure(
                    entityName: entity.name, objectID: objectID, key: key, reason: rejection.reason, violatedPredicate: rejection.predicate)
            ])
        }
    }

    /// Why `value` is not a valid value of `relationship` (type and destination errors are thrown).
    private func relationshipReason(rejecting value: Any?, for relationship: RelationshipDescription) throws -> String? {
        let objects: [ManagedObject]
        switch value {
        case nil: objects = []
        case let object as ManagedObject where relationship.isToOne: objects = [object]
        case let array as [ManagedObject] where relationship.isToMany: objects = array
        case let set as Set<ManagedObject> where relationship.isToMany: objects = Array(set)
        case let other?:
            throw ObjectGraphError(
                .typeMismatch, "\(entity.name).\(relationship.name) cannot hold a \(type(of: other))",
                entityName: entity.name, objectID: objectID, key: relationship.name)
        }
        for object in objects { try checkDestination(object, for: relationship) }
        return ObjectValidator.reason(rejectingCount: objects.count, for: relationship)
    }
}

/// The custom validation rules registered with a coordinator, by entity index.
struct ValidationRules: Sendable {
    private var rules: [Int: [ValidationRule]] = [:]

    mutating func add(_ rule: @escaping ValidationRule, for entity: EntityDescription) {
        rules[entity.index, default: []].append(rule)
    }

    /// Runs the object's own hook and every rule of its entity and its ancestors, for a save that
    /// checks the model's rules itself; appends the failures to `failures`.
    func appendFailures(of object: ManagedObject, phase: ValidationPhase, model: ManagedObjectModel, to failures: inout [ValidationFailure])
    {
        // Without hooks and rules there is nothing to run.
        if rules.isEmpty && !object.runsLifecycleCode { return }
        func collect(_ body: () throws -> Void) {
            do {
                try ModelRules.$areChecked.withValue(true, operation: body)
            } catch {
                failures += ValidationFailure.failures(describing: error, of: object, key: nil)
            }
        }
        switch phase {
        case .insert: collect { try object.validateForInsert() }
        case .update: collect { try object.validateForUpdate() }
        case .delete: collect { try object.validateForDelete() }
        }
        for entity in model.entities where !rules.isEmpty && model.entity(object.entity, isKindOf: entity) {
            for rule in rules[entity.index] ?? [] { collect { try rule(object, phase) } }
        }
    }
}
