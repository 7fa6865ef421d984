/// Deletes every object of an entity matching a predicate, straight in the store, without
/// loading them (Core Data's `NSBatchDeleteRequest`). Delete rules do not run: foreign keys that
/// pointed at a deleted object become nil, join-table pairs go; nothing cascades.
public struct BatchDeleteRequest: Sendable {
    /// The entity whose objects are deleted.
    public var entityName: String
    /// Which objects; all of them when `nil`.
    public var predicate: FetchPredicate?
    /// Whether objects of sub-entities are deleted too. `true` by default.
    public var includesSubentities = true

    /// Deletes the objects of `entityName` matching `predicate`.
    public init(entityName: String, predicate: FetchPredicate? = nil) {
        self.entityName = entityName
        self.predicate = predicate
    }
}

/// Sets attributes of every object of an entity matching a predicate, straight in the store
/// (Core Data's `NSBatchUpdateRequest`). Values are checked against the model (types, required
/// values, uniqueness) as a save checks them; validation rules and hooks do not run.
public struct BatchUpdateRequest {
    /// The entity whose objects are updated.
    public var entityName: String
    /// Which objects; all of them when `nil`.
    public var predicate: FetchPredicate?
    /// The new values, by attribute name (`nil` clears an optional attribute).
    public var propertiesToUpdate: [String: Any?]
    /// Whether objects of sub-entities are updated too. `true` by default.
    public var includesSubentities = true

    /// Sets `propertiesToUpdate` on the objects of `entityName` matching `predicate`.
    public init(entityName: String, predicate: FetchPredicate? = nil, propertiesToUpdate: [String: Any?]) {
        self.entityName = entityName
        self.predicate = predicate
        self.propertiesToUpdate = propertiesToUpdate
    }
}

/// Inserts objects from dictionaries of attribute values, straight in the store (Core Data's
/// `NSBatchInsertRequest`). Missing attributes take their defaults; values are checked against
/// the model as a save checks them.
public struct BatchInsertRequest {
    /// The entity of the new objects.
    public var entityName: String
    /// One dictionary of attribute values per new object.
    public var objects: [[String: Any?]]

    /// Inserts one object of `entityName` per dictionary of `objects`.
    public init(entityName: String, objects: [[String: Any?]]) {
        self.entityName = entityName
        self.objects = objects
    }
}

/// What a batch request did: which objects it inserted, updated or deleted. Pass it to
/// `ManagedObjectContext.mergeChanges(from:into:)` so live contexts catch up.
public struct BatchResult: Sendable {
    /// What kind of change the objects underwent.
    public enum Change: Sendable {
        case inserted, updated, deleted
    }
    public let change: Change
    /// The objects changed, by ID.
    public let objectIDs: [ManagedObjectID]
    /// How many objects changed.
    public var count: Int { objectIDs.count }
}

@available(*, unavailable)
extension BatchUpdateRequest: Sendable {}
@available(*, unavailable)
extension BatchInsertRequest: Sendable {}
