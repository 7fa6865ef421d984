/// A to-many relationship of one object, changed in place: what Core Data's
/// `mutableSetValue(forKey:)` and `mutableOrderedSetValue(forKey:)` return.
///
/// ```swift
/// try author.mutableSetValue(forKey: "books").add(book)   // book.author is now author
/// try book.mutableOrderedSetValue(forKey: "chapters").insert(preface, at: 0)
/// ```
///
/// Every change keeps the inverse relationship of the objects it touches, as
/// `addRelatedObject(_:forKey:)` does. Like the object, it belongs to the context's queue.
public struct MutableRelationship {
    /// The object whose relationship this is.
    public let owner: ManagedObject
    /// The to-many relationship.
    public let relationship: RelationshipDescription

    /// The objects the relationship holds now.
    public func objects() throws -> Set<ManagedObject> {
        try owner.relatedObjects(forKey: relationship.name)
    }

    /// The objects in the relationship's order (for an unordered relationship, in no particular order).
    public func orderedObjects() throws -> [ManagedObject] {
        try owner.orderedRelatedObjects(forKey: relationship.name)
    }

    /// How many objects the relationship holds.
    public func count() throws -> Int {
        try owner.observedMembers(of: relationship).count
    }

    /// Whether the relationship holds `object`.
    public func contains(_ object: ManagedObject) throws -> Bool {
        try owner.observedMembers(of: relationship).contains(object)
    }

    /// Adds `object` (at the end of an ordered relationship); adding a member changes nothing.
    public func add(_ object: ManagedObject) throws {
        try owner.addDestination(object, to: relationship, at: nil)
    }

    /// Adds each of `objects`, in order.
    public func add<Objects: Sequence<ManagedObject>>(contentsOf objects: Objects) throws {
        for object in objects { try owner.addDestination(object, to: relationship, at: nil) }
    }

    /// Removes `object`; removing a non-member changes nothing.
    public func remove(_ object: ManagedObject) throws {
        try owner.removeDestination(object, from: relationship)
    }

    /// Removes every object.
    public func removeAll() throws {
        for object in try orderedObjects() { try owner.removeDestination(object, from: relationship) }
    }

    /// Inserts `object` at `index` of an ordered relationship (moving it there if it is a member).
    public func insert(_ object: ManagedObject, at index: Int) throws {
        try owner.insertRelatedObject(object, at: index, forKey: relationship.name)
    }

    /// Removes the object at `index` of an ordered relationship.
    public func remove(at index: Int) throws {
        let members = try orderedObjects()
        guard relationship.isOrdered, members.indices.contains(index) else {
            throw ObjectGraphError(
                .invalidOperation,
                "cannot remove the object at index \(index) of \(owner.entity.name).\(relationship.name)\(relationship.isOrdered ? ", which holds \(members.count)" : ": it is not ordered")",
                entityName: owner.entity.name, objectID: owner.objectID, key: relationship.name)
        }
        try owner.removeDestination(members[index], from: relationship)
    }
}

extension ManagedObject {
    /// The to-many relationship `key`, to change in place (`add`, `remove`, `removeAll`), as
    /// `NSManagedObject.mutableSetValue(forKey:)`.
    public func mutableSetValue(forKey key: String) throws -> MutableRelationship {
        let relationship = try entity.requireRelationship(key)
        guard relationship.isToMany else {
            throw ObjectGraphError(
                .typeMismatch, "\(entity.name).\(key) is a to-one relationship; set it with setValue(_:forKey:)",
                entityName: entity.name, objectID: objectID, key: key)
        }
        return MutableRelationship(owner: self, relationship: relationship)
    }

    /// The ordered to-many relationship `key`, to change in place (also `insert(_:at:)` and
    /// `remove(at:)`), as `NSManagedObject.mutableOrderedSetValue(forKey:)`.
    public func mutableOrderedSetValue(forKey key: String) throws -> MutableRelationship {
        let mutable = try mutableSetValue(forKey: key)
        guard mutable.relationship.isOrdered else {
            throw ObjectGraphError(
                .typeMismatch, "\(entity.name).\(key) is not ordered; use mutableSetValue(forKey:)",
                entityName: entity.name, objectID: objectID, key: key)
        }
        return mutable
    }
}

@available(*, unavailable)
extension MutableRelationship: Sendable {}
