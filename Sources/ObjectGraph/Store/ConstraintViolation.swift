/// The errors both stores raise when a row breaks a database constraint, worded identically so
/// that code (and tests) see the same failure whichever store is underneath.
package enum ConstraintViolation {
    /// Another row of `entity` already holds the same values for the constraint's `keys`.
    package static func uniqueness(
        entity: EntityDescription, objectID: ManagedObjectID, keys: [String], values: [AttributeValue]
    ) -> ObjectGraphError {
        let assignments = zip(keys, values).map { "\($0) = \($1.debugText)" }.joined(separator: ", ")
        return ObjectGraphError(
            .constraintViolation,
            "Cannot save \(objectID.shortDescription): another \(entity.name) already has \(assignments) (uniqueness constraint on \(keys.joined(separator: ", "))); nothing was written.",
            entityName: entity.name, objectID: objectID, key: keys.first)
    }

    /// A required attribute of the row is empty.
    package static func missingValue(entity: EntityDescription, objectID: ManagedObjectID, key: String) -> ObjectGraphError {
        ObjectGraphError(
            .constraintViolation,
            "Cannot save \(objectID.shortDescription): \(entity.name).\(key) is required but has no value; nothing was written.",
            entityName: entity.name, objectID: objectID, key: key)
    }

    /// An update names a row that is no longer in the store.
    package static func rowGone(_ objectID: ManagedObjectID) -> ObjectGraphError {
        ObjectGraphError(
            .objectNotFound,
            "Cannot save changes to \(objectID.shortDescription): it is no longer in the store (deleted elsewhere); nothing was written.",
            entityName: objectID.entity.name, objectID: objectID)
    }
}
