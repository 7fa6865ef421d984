/// The rules of a `primaryKey` attribute's values, shared by validation, the stores and
/// `obtainPermanentIDs`: a key is an integer from 1 (object IDs keep the numbers below for
/// unsaved objects), and once an object has its permanent ID its key stays.
package enum PrimaryKeyRule {
    /// The row key `value` gives, or why it cannot be one.
    static func key(from value: AttributeValue) -> Result<Int64, Problem> {
        switch value {
        case .integer(let key) where key >= 1: .success(key)
        case .integer(let key): .failure(.belowOne(key))
        default: .failure(.missing)
        }
    }

    /// Why a value is not a key.
    enum Problem: Error {
        case missing
        case belowOne(Int64)

        /// The reason, as validation failures word it (after the attribute's name).
        func reason(in entity: EntityDescription) -> String {
            switch self {
            case .missing: "is \(entity.name)'s primary key and has no value yet"
            case .belowOne(let key): "is \(entity.name)'s primary key and must be at least 1, not \(key)"
            }
        }
    }

    /// Why an object with the permanent key `key` may not hold `value` in its primary key, or
    /// `nil` when the value is that key.
    static func changedKeyReason(_ value: AttributeValue, key: Int64, in entity: EntityDescription) -> String? {
        if case .integer(key) = value { return nil }
        return "is \(entity.name)'s primary key: a saved \(entity.name) keeps its key (\(key)), it cannot become \(value.debugText)"
    }

    /// The key the new row `values` of `objectID` brings in its primary-key attribute, or `nil`
    /// for an entity whose keys the store counts. Contexts validate keys before saving; this
    /// guards batch inserts and anything else that reaches a store directly.
    package static func declaredKey(in values: ValueRow, of objectID: ManagedObjectID) throws -> Int64? {
        let entity = objectID.entity
        guard let slot = entity.primaryKeyIndex else { return nil }
        switch key(from: values[slot]) {
        case .success(let key): return key
        case .failure(let problem):
            throw ObjectGraphError(
                .validation,
                "Cannot save \(objectID.shortDescription): \(entity.attributes[slot].name) \(problem.reason(in: entity)); nothing was written.",
                entityName: entity.name, objectID: objectID, key: entity.attributes[slot].name)
        }
    }
}
