import Foundation

/// Relationships: reading and changing them by key. Every change keeps the inverse relationship
/// of the objects at the other end consistent at once, as Core Data does: setting a book's
/// `author` adds the book to the author's `books` and removes it from the previous author's.
extension ManagedObject {
    /// The destination of the to-one relationship `key`, or `nil`. A destination not registered
    /// in the context yet comes back as a fault.
    public func relatedObject(forKey key: String) throws -> ManagedObject? {
        let relationship = try requireRelationship(key, toMany: false)
        return try observedDestination(relationship)
    }

    /// The destinations of the to-many relationship `key` (loaded from the store on first use).
    public func relatedObjects(forKey key: String) throws -> Set<ManagedObject> {
        let relationship = try requireRelationship(key, toMany: true)
        return try observedMembers(of: relationship).members
    }

    /// The destinations of the ordered to-many relationship `key`, in order (for an unordered
    /// relationship, in no particular order).
    public func orderedRelatedObjects(forKey key: String) throws -> [ManagedObject] {
        let relationship = try requireRelationship(key, toMany: true)
        return try observedMembers(of: relationship).objects
    }

    /// Adds `object` to the to-many relationship `key` (at the end of an ordered one), and sets or
    /// extends the inverse on `object`. Adding a member again changes nothing.
    public func addRelatedObject(_ object: ManagedObject, forKey key: String) throws {
        try addDestination(object, to: try requireRelationship(key, toMany: true), at: nil)
    }

    /// Adds each of `objects` to the to-many relationship `key`, in order.
    public func addRelatedObjects<Objects: Sequence<ManagedObject>>(_ objects: Objects, forKey key: String) throws {
        let relationship = try requireRelationship(key, toMany: true)
        for object in objects { try addDestination(object, to: relationship, at: nil) }
    }

    /// Inserts `object` at `index` of the ordered to-many relationship `key` (moving it there if
    /// it is already a member).
    public func insertRelatedObject(_ object: ManagedObject, at index: Int, forKey key: String) throws {
        let relationship = try requireRelationship(key, toMany: true)
        guard relationship.isOrdered else {
            throw ObjectGraphError(
                .invalidOperation, "\(entity.name).\(key) is not ordered; use addRelatedObject(_:forKey:)", entityName: entity.name,
                objectID: objectID, key: key)
        }
        guard index >= 0 else {
            throw ObjectGraphError(
                .invalidOperation, "cannot insert into \(entity.name).\(key) at index \(index)", entityName: entity.name,
                objectID: objectID, key: key)
        }
        try addDestination(object, to: relationship, at: index)
    }

    /// Removes `object` from the to-many relationship `key` and clears or shrinks the inverse on
    /// `object`. Removing a non-member changes nothing.
    public func removeRelatedObject(_ object: ManagedObject, forKey key: String) throws {
        try removeDestination(object, from: try requireRelationship(key, toMany: true))
    }

    /// Removes each of `objects` from the to-many relationship `key`.
    public func removeRelatedObjects<Objects: Sequence<ManagedObject>>(_ objects: Objects, forKey key: String) throws {
        let relationship = try requireRelationship(key, toMany: true)
        for object in objects { try removeDestination(object, from: relationship) }
    }

    /// Sets the to-one relationship `key` to `object` (keeping inverses); see `setValue(_:forKey:)`.
    public func setValue(_ object: ManagedObject, forKey key: String) throws {
        guard let relationship = entity.relationship(named: key), relationship.isToOne else {
            return try setValue(object as Any?, forKey: key)
        }
        try setToOneDestination(object, for: relationship)
    }

    // MARK: - Dynamic access (value(forKey:) and setValue(_:forKey:) for relationships)

    /// The value of relationship `relationship` as `value(forKey:)` returns it: the destination
    /// (or `nil`), a `Set<ManagedObject>`, or an `[ManagedObject]` for ordered relationships.
    func relationshipValue(_ relationship: RelationshipDescription) throws -> Any? {
        if relationship.isToOne { return try observedDestination(relationship) }
        let related = try observedMembers(of: relationship)
        return relationship.isOrdered ? related.objects : related.members
    }

    /// Sets a relationship from a dynamic value: a `ManagedObject` or `nil` for a to-one; a
    /// `Set` or an array of objects for a to-many (which then holds exactly those, in the
    /// array's order when ordered).
    func setRelationshipValue(_ value: Any?, for relationship: RelationshipDescription) throws {
        if relationship.isToOne {
            switch value {
            case nil: try setToOneDestination(nil, for: relationship)
            case let object as ManagedObject: try setToOneDestination(object, for: relationship)
            case let other?: throw relationshipTypeMismatch(relationship, found: other)
            }
            return
        }
        let objects: [ManagedObject]
        switch value {
        case nil: objects = []
        case let array as [ManagedObject]: objects = array
        case let set as Set<ManagedObject>: objects = Array(set)
        case let other?: throw relationshipTypeMismatch(relationship, found: other)
        }
        for object in objects { try checkDestination(object, for: relationship) }
        let index = try loadRelationship(relationship)
        let wanted = Set(objects)
        for member in loadedToMany[index]!.objects where !wanted.contains(member) {
            try removeDestination(member, from: relationship)
        }
        for (position, object) in objects.enumerated() {
            try addDestination(object, to: relationship, at: relationship.isOrdered ? position : nil)
        }
    }

    private func relationshipTypeMismatch(_ relationship: RelationshipDescription, found: Any) -> ObjectGraphError {
        let expected =
            relationship.isToOne
            ? "\(withArticle(relationship.destinationEntityName)) object or nil"
            : "a Set<ManagedObject> or [ManagedObject] of \(relationship.destinationEntityName) objects"
        return ObjectGraphError(
            .typeMismatch,
            "\(entity.name).\(relationship.name) is a \(relationship.isToOne ? "to-one" : "to-many") relationship to \(relationship.destinationEntityName); expected \(expected), found \(type(of: found))",
            entityName: entity.name, objectID: objectID, key: relationship.name)
    }

    // MARK: - Inverse maintenance

    /// Sets a to-one relationship and keeps the inverses on both the old and the new destination.
    func setToOneDestination(_ destination: ManagedObject?, for relationship: RelationshipDescription) throws {
        if let destination { try checkDestination(destination, for: relationship) }
        try checkChangeable(relationship)
        let old = try toOneDestination(relationship)
        guard old !== destination else { return }
        if let inverseIndex = relationship.inverseIndex {
            if let old, !old.isOutOfGraph {
                try old.unlink(self, through: old.entity.relationships[inverseIndex])
            }
            if let destination {
                let inverse = destination.entity.relationships[inverseIndex]
                if inverse.isToMany {
                    try destination.primitiveInsert(self, into: inverse, at: nil)
                } else {
                    // One-to-one: the destination's previous partner loses its link to it.
                    if let previous = try destination.toOneDestination(inverse), previous !== self, !previous.isOutOfGraph {
                        try previous.primitiveSetToOne(nil, for: previous.entity.relationships[relationship.index])
                    }
                    try destination.primitiveSetToOne(self, for: inverse)
                }
            }
        }
        try primitiveSetToOne(destination, for: relationship)
    }

    /// Adds a destination to a to-many relationship (at `index` when ordered and given) and
    /// keeps the inverse.
    func addDestination(_ destination: ManagedObject, to relationship: RelationshipDescription, at index: Int?) throws {
        try checkDestination(destination, for: relationship)
        try checkChangeable(relationship)
        let position = try loadRelationship(relationship)
        if loadedToMany[position]!.contains(destination) {
            if let index, observingChange(of: relationship.slot, { loadedToMany[position]!.move(destination, to: index) }) {
                markRelationshipChanged(relationship)
            }
            return
        }
        if let inverseIndex = relationship.inverseIndex {
            let inverse = destination.entity.relationships[inverseIndex]
            if inverse.isToMany {
                try destination.primitiveInsert(self, into: inverse, at: nil)
            } else {
                if let previousOwner = try destination.toOneDestination(inverse), previousOwner !== self, !previousOwner.isOutOfGraph {
                    try previousOwner.primitiveRemove(destination, from: previousOwner.entity.relationships[relationship.index])
                }
                try destination.primitiveSetToOne(self, for: inverse)
            }
        }
        try primitiveInsert(destination, into: relationship, at: index)
    }

    /// Removes a destination from a to-many relationship and keeps the inverse.
    func removeDestination(_ destination: ManagedObject, from relationship: RelationshipDescription) throws {
        try checkChangeable(relationship)
        let position = try loadRelationship(relationship)
        guard loadedToMany[position]!.contains(destination) else { return }
        if let inverseIndex = relationship.inverseIndex, !destination.isOutOfGraph {
            try destination.unlink(self, through: destination.entity.relationships[inverseIndex])
        }
        try primitiveRemove(destination, from: relationship)
    }

    /// Takes `object` out of this object's relationship `relationship` (clearing a to-one that
    /// points at it), without touching `object`: the inverse half of a change made on `object`.
    func unlink(_ object: ManagedObject, through relationship: RelationshipDescription) throws {
        if relationship.isToMany {
            try primitiveRemove(object, from: relationship)
        } else if try toOneDestination(relationship) === object {
            try primitiveSetToOne(nil, for: relationship)
        }
    }

    /// The destination of to-one `relationship` as a user reads it, seen by Observation.
    func observedDestination(_ relationship: RelationshipDescription) throws -> ManagedObject? {
        observeAccess(relationship.slot)
        return try toOneDestination(relationship)
    }

    /// The members of to-many `relationship` as a user reads them (loaded on first use), seen
    /// by Observation.
    func observedMembers(of relationship: RelationshipDescription) throws -> RelatedObjects {
        observeAccess(relationship.slot)
        return loadedToMany[try loadRelationship(relationship)]!
    }

    // MARK: - Primitives: one side only, with change tracking

    /// The destination of a to-one relationship of this object's entity.
    func toOneDestination(_ relationship: RelationshipDescription) throws -> ManagedObject? {
        checkQueue("reading \(relationship.name)")
        if isFault { try fulfillFault() }
        let position = relationship.slot - entity.attributes.count
        if let held = relationshipHold.heldDestination(at: position) { return held }
        guard case .object(let objectID) = values[relationship.slot] else { return nil }
        guard let context = managedObjectContext else { throw detached("read \(entity.name).\(relationship.name) of") }
        // Held from now on: the destination stays registered (and loaded, if prefetched) while
        // this object lives, and the next read skips the lookup.
        // The registry answers for loaded destinations (prefetched ones, say) without the public
        // call's checks and merge processing.
        let destination = context.liveObject(objectID) ?? context.object(with: objectID)
        relationshipHold.hold(destination, at: position, toOneCount: entity.toOneRelationships.count)
        return destination
    }

    func primitiveSetToOne(_ destination: ManagedObject?, for relationship: RelationshipDescription) throws {
        if isFault { try fulfillFault() }
        let position = relationship.slot - entity.attributes.count
        relationshipHold.hold(destination, at: position, toOneCount: entity.toOneRelationships.count)
        recordChange(destination.map { .object($0.objectID) } ?? .null, at: relationship.slot)
    }

    func primitiveInsert(_ destination: ManagedObject, into relationship: RelationshipDescription, at index: Int?) throws {
        // A changed object is saved with its whole row, so it must hold it.
        if isFault { try fulfillFault() }
        let position = try loadRelationship(relationship)
        if observingChange(of: relationship.slot, { loadedToMany[position]!.insert(destination, at: index) }) {
            markRelationshipChanged(relationship)
        }
    }

    func primitiveRemove(_ destination: ManagedObject, from relationship: RelationshipDescription) throws {
        if isFault { try fulfillFault() }
        let position = try loadRelationship(relationship)
        if observingChange(of: relationship.slot, { loadedToMany[position]!.remove(destination) }) {
            markRelationshipChanged(relationship)
        }
    }

    /// Whether the relationship `key` is a fault, as Core Data's `hasFault(forRelationshipNamed:)`:
    /// reading it would load objects or rows. A to-many is a fault until loaded; a to-one until
    /// its destination object was looked up (a nil to-one of a loaded object is not a fault).
    /// Nothing is loaded to answer. Throws `.unknownKey` for an unknown key and `.typeMismatch`
    /// for an attribute.
    public func hasFault(forRelationshipNamed key: String) throws -> Bool {
        let relationship = try entity.requireRelationship(key)
        if isNew { return false }
        if values.isEmpty { return true }
        guard relationship.isToOne else {
            return !relationshipHold.isLoaded(toManyAt: relationship.slot - entity.rowWidth)
        }
        let position = relationship.slot - entity.attributes.count
        let isHeld = relationshipHold.heldDestination(at: position) != nil
        return !values[relationship.slot].isNull && !isHeld
    }

    /// Loads a to-many relationship if it is still a fault; returns its position in `loadedToMany`.
    func loadRelationship(_ relationship: RelationshipDescription) throws -> Int {
        checkQueue("using \(relationship.name)")
        let position = relationship.slot - entity.rowWidth
        if relationshipHold.isLoaded(toManyAt: position) { return position }
        let related: RelatedObjects
        if isNew {
            related = RelatedObjects([], isOrdered: relationship.isOrdered)
        } else {
            guard let context = managedObjectContext else { throw detached("read \(entity.name).\(relationship.name) of") }
            related = try context.loadRelatedObjects(of: self, through: relationship)
        }
        if loadedToMany.isEmpty { loadedToMany = Array(repeating: nil, count: entity.toManyRelationships.count) }
        loadedToMany[position] = related
        return position
    }

    /// Records a to-many change: the object is updated until saved or rolled back.
    private func markRelationshipChanged(_ relationship: RelationshipDescription) {
        markChanged()
        guard !isNew, !changedAttributes.contains(relationship.slot) else { return }
        let wasUpdated = !changedAttributes.isEmpty
        changedAttributes.insert(relationship.slot)
        if !wasUpdated { managedObjectContext?.objectUpdateStateChanged(self) }
    }

    // MARK: - Checks

    /// The relationship named `key` of the required kind, or a clear error.
    private func requireRelationship(_ key: String, toMany: Bool) throws -> RelationshipDescription {
        let relationship = try entity.requireRelationship(key)
        guard relationship.isToMany == toMany else {
            throw ObjectGraphError(
                .typeMismatch,
                "\(entity.name).\(key) is a \(relationship.isToMany ? "to-many" : "to-one") relationship; use \(relationship.isToMany ? "relatedObjects(forKey:)" : "relatedObject(forKey:)")",
                entityName: entity.name, objectID: objectID, key: key)
        }
        return relationship
    }

    /// A destination must be a live object of the destination entity (or a sub-entity) in the
    /// same context.
    func checkDestination(_ destination: ManagedObject, for relationship: RelationshipDescription) throws {
        // Built only for an error: a relationship set in a loop would pay for it every time.
        var name: String { "\(entity.name).\(relationship.name)" }
        guard let context = managedObjectContext else { throw detached("change \(name) of") }
        guard destination.isManaged(by: context) else {
            let problem = destination.managedObjectContext == nil ? "is not inserted in a context" : "belongs to another context"
            throw ObjectGraphError(
                .invalidOperation,
                "cannot relate \(objectID.shortDescription) to \(destination.objectID.shortDescription) through \(name): \(destination.objectID.shortDescription) \(problem)",
                entityName: entity.name, objectID: objectID, key: relationship.name)
        }
        guard !destination.isDeleted else {
            throw ObjectGraphError(
                .invalidOperation,
                "cannot relate \(objectID.shortDescription) to \(destination.objectID.shortDescription) through \(name): it is deleted",
                entityName: entity.name, objectID: objectID, key: relationship.name)
        }
        guard let model = context.model, model.entity(destination.entity, isKindOf: model.entities[relationship.destinationIndex]) else {
            throw ObjectGraphError(
                .typeMismatch,
                "\(name) holds \(relationship.destinationEntityName) objects; \(destination.objectID.shortDescription) is a \(destination.entity.name)",
                entityName: entity.name, objectID: objectID, key: relationship.name)
        }
    }

    /// Relationships of a deleted object cannot change.
    private func checkChangeable(_ relationship: RelationshipDescription) throws {
        guard !isDeleted else {
            throw ObjectGraphError(
                .invalidOperation,
                "cannot change \(entity.name).\(relationship.name) of \(objectID.shortDescription): the object is deleted",
                entityName: entity.name, objectID: objectID, key: relationship.name)
        }
    }

    private func detached(_ action: String) -> ObjectGraphError {
        ObjectGraphError(
            .invalidOperation,
            "cannot \(action) \(objectID.shortDescription): it does not belong to a context (it was never inserted, was reset, rolled back or its deletion saved)",
            entityName: entity.name, objectID: objectID)
    }
}
