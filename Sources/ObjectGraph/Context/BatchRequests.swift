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
    /// The objects to delete, when the request was made from their IDs; the entity and the
    /// predicate are then ignored.
    public private(set) var objectIDs: [ManagedObjectID]?

    /// Deletes the objects of `entityName` matching `predicate`.
    public init(entityName: String, predicate: FetchPredicate? = nil) {
        self.entityName = entityName
        self.predicate = predicate
    }

    /// Deletes the objects with `objectIDs`, as Core Data's `init(objectIDs:)`: IDs of objects
    /// already gone are skipped. The objects must belong to one entity hierarchy (one table),
    /// since a batch request runs in one transaction on one table.
    public init(objectIDs: [ManagedObjectID]) {
        self.entityName = objectIDs.first?.entity.name ?? ""
        self.objectIDs = objectIDs
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

/// Inserts objects straight in the store (Core Data's `NSBatchInsertRequest`), from
/// dictionaries of attribute values or from a closure that fills each object's values. Missing
/// attributes take their defaults; values are checked against the model as a save checks them.
/// The closure form writes the rows in chunks as it makes them, so inserting a million objects
/// needs memory for a few thousand.
public struct BatchInsertRequest {
    /// The entity of the new objects.
    public var entityName: String
    /// How many objects to insert.
    public let count: Int
    /// Fills the values of object `index` (0-based) into `values`.
    let fill: (Int, inout BatchInsertValues) throws -> Void

    /// Inserts one object of `entityName` per dictionary of `objects`.
    public init(entityName: String, objects: [[String: Any?]]) {
        self.entityName = entityName
        self.count = objects.count
        self.fill = { index, values in
            for (key, value) in objects[index] { try values.setValue(value, forKey: key) }
        }
    }

    /// Inserts `count` objects of `entityName`, each filled by `fill(index, &values)`.
    public init(entityName: String, count: Int, fill: @escaping (Int, inout BatchInsertValues) throws -> Void) {
        self.entityName = entityName
        self.count = count
        self.fill = fill
    }
}

/// The attribute values of one object of a `BatchInsertRequest`, checked as they are set.
public struct BatchInsertValues {
    let entity: EntityDescription
    var row: ValueRow
    /// The keys set so far, with their slots, in the order they were set: a fill closure sets
    /// the same keys in the same order for every object, so each key is looked up once and then
    /// only compared with the one remembered at its position.
    private var keysInOrder: [(key: String, slot: Int)] = []
    /// How many keys the current object has set.
    private var keyCount = 0

    init(entity: EntityDescription, row: ValueRow) {
        self.entity = entity
        self.row = row
    }

    /// Sets the attribute `key` to `value`; throws `.unknownKey` or `.typeMismatch` as
    /// `ManagedObject.setValue(_:forKey:)` does.
    public mutating func setValue(_ value: Any?, forKey key: String) throws {
        let slot = try slot(forKey: key)
        row[slot] = try AttributeValue(converting: value, toSlot: slot, of: entity)
    }

    /// The slot of the attribute `key`, or `.unknownKey`.
    mutating func slot(forKey key: String) throws -> Int {
        defer { keyCount += 1 }
        if keyCount < keysInOrder.count, keysInOrder[keyCount].key == key { return keysInOrder[keyCount].slot }
        let slot = try entity.requireSlot(key)
        if keyCount < keysInOrder.count {
            keysInOrder[keyCount] = (key, slot)
        } else {
            keysInOrder.append((key, slot))
        }
        return slot
    }

    /// Gives every attribute its default again, for the next object.
    mutating func resetToDefaults() {
        let defaults = entity.defaultValues
        for slot in row.indices { row[slot] = defaults[slot] }
        keyCount = 0
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
@available(*, unavailable)
extension BatchInsertValues: Sendable {}
