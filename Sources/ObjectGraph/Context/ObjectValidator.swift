import Foundation

/// The model's validation rules, applied to an object before it is saved: required values,
/// numeric and date ranges, lengths, regular expressions, required relationships and the
/// number of objects a to-many may hold.
enum ObjectValidator {
    /// Appends every rule `object` breaks to `failures`, one failure per attribute. A saved
    /// object is checked only in the attributes it changed: the others were valid when they were
    /// saved. Only attributes that have a rule are looked at (the entity lists them once).
    static func appendFailures(of object: ManagedObject, to failures: inout [ValidationFailure]) {
        let entity = object.entity
        let checkAll = object.isInserted
        let start = failures.count
        for slot in entity.requiredSlots where checkAll || object.changedAttributes.contains(slot) {
            guard object.values.isNull(at: slot) else { continue }
            failures.append(
                ValidationFailure(
                    entityName: entity.name, objectID: object.objectID, key: entity.attributes[slot].name, reason: "a value is required"))
        }
        for slot in entity.realValueSlots where checkAll || object.changedAttributes.contains(slot) {
            guard object.values[slot].isNaN else { continue }
            failures.append(
                ValidationFailure(
                    entityName: entity.name, objectID: object.objectID, key: entity.attributes[slot].name, reason: "NaN cannot be stored"))
        }
        for attribute in entity.attributesWithRules {
            guard checkAll || object.changedAttributes.contains(attribute.index) else { continue }
            let value = object.values[attribute.index]
            guard !value.isNull, !value.isNaN, let rejection = rejection(of: value, for: attribute) else { continue }
            failures.append(
                ValidationFailure(
                    entityName: entity.name, objectID: object.objectID, key: attribute.name, reason: rejection.reason,
                    violatedPredicate: rejection.predicate))
        }
        if let slot = entity.primaryKeyIndex, checkAll || object.changedAttributes.contains(slot) {
            appendPrimaryKeyFailure(of: object, slot: slot, to: &failures)
        }
        if !entity.relationships.isEmpty { appendRelationshipFailures(of: object, checkAll: checkAll, to: &failures) }
        // Report in declaration order, whatever rule found the problem.
        if failures.count - start > 1 {
            failures[start...].sort { entity.slotOrEnd($0.key) < entity.slotOrEnd($1.key) }
        }
    }

    /// A primary key below 1, or one that differs from the key of the object's permanent ID (a
    /// saved object, or one given its ID by `obtainPermanentIDs`). A missing key is already a
    /// missing required value.
    private static func appendPrimaryKeyFailure(of object: ManagedObject, slot: Int, to failures: inout [ValidationFailure]) {
        let entity = object.entity
        let value = object.values[slot]
        let reason: String?
        if let key = object.objectID.primaryKey {
            reason = PrimaryKeyRule.changedKeyReason(value, key: key, in: entity)
        } else if case .failure(let problem) = PrimaryKeyRule.key(from: value), case .belowOne = problem {
            reason = problem.reason(in: entity)
        } else {
            reason = nil
        }
        if let reason {
            failures.append(
                ValidationFailure(entityName: entity.name, objectID: object.objectID, key: entity.attributes[slot].name, reason: reason))
        }
    }

    /// Required to-ones that are empty; to-manys that are empty but required, or hold fewer or
    /// more objects than `minCount`/`maxCount` (an optional to-many may always be empty).
    private static func appendRelationshipFailures(of object: ManagedObject, checkAll: Bool, to failures: inout [ValidationFailure]) {
        let entity = object.entity
        func fail(_ relationship: RelationshipDescription, _ reason: String) {
            failures.append(ValidationFailure(entityName: entity.name, objectID: object.objectID, key: relationship.name, reason: reason))
        }
        for relationship in entity.relationships where checkAll || object.changedAttributes.contains(relationship.slot) {
            if relationship.isToOne {
                if let reason = reason(rejectingCount: object.values[relationship.slot].isNull ? 0 : 1, for: relationship) {
                    fail(relationship, reason)
                }
                continue
            }
            // A new object's untouched to-many is empty; a changed one is loaded.
            let position = relationship.slot - entity.rowWidth
            let count = position < object.loadedToMany.count ? object.loadedToMany[position]?.count ?? 0 : 0
            if let reason = reason(rejectingCount: count, for: relationship) { fail(relationship, reason) }
        }
    }

    /// Why a relationship holding `count` objects breaks its rules, or `nil`: a required to-one
    /// or to-many must not be empty; a non-empty to-many must respect `minCount`/`maxCount`.
    static func reason(rejectingCount count: Int, for relationship: RelationshipDescription) -> String? {
        if count == 0 {
            guard !relationship.isOptional else { return nil }
            return relationship.isToOne
                ? "\(withArticle(relationship.destinationEntityName)) is required"
                : "at least one \(relationship.destinationEntityName) is required"
        }
        if let minimum = relationship.minCount, count < minimum {
            return "holds \(count) \(count == 1 ? "object" : "objects"), fewer than the minimum \(minimum)"
        }
        if let maximum = relationship.maxCount, count > maximum {
            return "holds \(count) objects, more than the maximum \(maximum)"
        }
        return nil
    }

    /// Why a value breaks a rule of its attribute, and the validation predicate it fails, if that
    /// is the rule.
    struct Rejection {
        let reason: String
        var predicate: ValidationPredicate?
    }

    /// Why the non-nil `value` breaks a range, length, pattern or predicate rule of `attribute`,
    /// or `nil`.
    static func rejection(of value: AttributeValue, for attribute: AttributeDescription) -> Rejection? {
        if let reason = reason(rejecting: value, for: attribute) { return Rejection(reason: reason) }
        guard let failed = attribute.validationPredicates.first(where: { !$0.accepts(value) }) else { return nil }
        return Rejection(
            reason: "\(failed.message) (\(value.debugText) fails the validation predicate \(failed.format))", predicate: failed)
    }

    /// Why the non-nil `value` breaks a range, length or pattern rule of `attribute`, or `nil`.
    private static func reason(rejecting value: AttributeValue, for attribute: AttributeDescription) -> String? {
        if let minimum = attribute.minimum, compareForValidation(value, minimum) == .orderedAscending {
            return "\(value.debugText) is below the minimum \(minimum.debugText)"
        }
        if let maximum = attribute.maximum, compareForValidation(value, maximum) == .orderedDescending {
            return "\(value.debugText) is above the maximum \(maximum.debugText)"
        }
        // Counting characters walks the whole string, so only when a length rule asks for it.
        let hasLengthRule = attribute.minLength != nil || attribute.maxLength != nil
        let length: Int? =
            switch value {
            case .string(let string) where hasLengthRule: string.count
            case .binary(let data) where hasLengthRule: data.count
            default: nil
            }
        if let length {
            let unit = attribute.type == .string ? "characters" : "bytes"
            if let minLength = attribute.minLength, length < minLength {
                return "is \(length) \(unit) long, shorter than the minimum \(minLength)"
            }
            if let maxLength = attribute.maxLength, length > maxLength {
                return "is \(length) \(unit) long, longer than the maximum \(maxLength)"
            }
        }
        if let pattern = attribute.regex, case .string(let string) = value,
            !(attribute.regexExpression.map { matchesEntirely(string, $0) } ?? false)
        {
            return "\(value.debugText) does not match the pattern \(pattern)"
        }
        return nil
    }

    /// One `.validation` error listing every failure.
    static func error(for failures: [ValidationFailure], lead: String = "The save was refused") -> ObjectGraphError {
        let lines = failures.prefix(50).map { "  - \($0)" }
        let more = failures.count > 50 ? ["  … and \(failures.count - 50) more"] : []
        var error = ObjectGraphError(
            .validation,
            (["\(lead): \(failures.count) validation \(failures.count == 1 ? "failure" : "failures"); nothing was written."] + lines + more)
                .joined(separator: "\n"),
            entityName: failures.first?.entityName, objectID: failures.first?.objectID, key: failures.first?.key)
        error.validationFailures = failures
        return error
    }

    private static func compareForValidation(_ a: AttributeValue, _ b: AttributeValue) -> ComparisonResult {
        func order<T: Comparable>(_ x: T, _ y: T) -> ComparisonResult {
            x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
        }
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return order(x, y)
        case (.date(let x), .date(let y)): return order(x, y)
        case (.decimal(let x), .decimal(let y)): return order(x, y)
        default: break
        }
        guard let x = a.numericValue, let y = b.numericValue else { return .orderedSame }
        return order(x, y)
    }
}

extension AttributeValue {
    /// The value as a Double, for numbers of any kind.
    var numericValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        case .float(let value): Double(value)
        case .decimal(let value): NSDecimalNumber(decimal: value).doubleValue
        case .boolean(let value): value ? 1 : 0
        default: nil
        }
    }
}
