// Relationship accessors for generated classes, by a relationship's index in its entity's
// `relationships` (inherited relationships keep theirs in sub-entities). Public for generated code
// in the user's module, underscored to stay out of users' way; they stop the program where the
// key-based calls would throw (see ManagedObject+GeneratedAccessors.swift).
extension ManagedObject {
    /// Runs a relationship operation, or stops naming the object, the relationship and the reason.
    private func relationshipOperation<T>(_ action: String, _ index: Int, _ body: (RelationshipDescription) throws -> T) -> T {
        let relationship = entity.relationships[index]
        do {
            return try body(relationship)
        } catch {
            preconditionFailure("\(action) \(entity.name).\(relationship.name) of \(objectID.shortDescription): \(error)")
        }
    }

    /// `object` as the class `T` the generated code declares, or a stop explaining the mismatch.
    private func destination<T: ManagedObject>(_ object: ManagedObject, as type: T.Type, _ index: Int) -> T {
        if let typed = object as? T { return typed }
        preconditionFailure(
            "\(entity.name).\(entity.relationships[index].name) of \(objectID.shortDescription) holds a \(Swift.type(of: object)), not a \(T.self); register \(T.self) with ManagedObjectModel.register(_:) before creating the container or coordinator"
        )
    }

    /// For generated code: the destination of to-one relationship `index`.
    public func _destination<T: ManagedObject>(_ index: Int, as type: T.Type) -> T? {
        relationshipOperation("reading", index) { try observedDestination($0) }.map { destination($0, as: type, index) }
    }

    /// For generated code: sets to-one relationship `index` (keeping the inverse).
    public func _setDestination(_ object: ManagedObject?, _ index: Int) {
        relationshipOperation("setting", index) { try setToOneDestination(object, for: $0) }
    }

    /// For generated code: the members of to-many relationship `index`.
    public func _destinations<T: ManagedObject>(_ index: Int, as type: T.Type) -> Set<T> {
        let members = relationshipOperation("reading", index) { try observedMembers(of: $0).members }
        return Set(members.lazy.map { self.destination($0, as: type, index) })
    }

    /// For generated code: the members of ordered to-many relationship `index`, in order.
    public func _orderedDestinations<T: ManagedObject>(_ index: Int, as type: T.Type) -> [T] {
        let members = relationshipOperation("reading", index) { try observedMembers(of: $0).objects }
        return members.map { destination($0, as: type, index) }
    }

    /// For generated code: makes to-many relationship `index` hold exactly `objects` (in their
    /// order, when ordered), keeping inverses.
    public func _setDestinations<Objects: Sequence>(_ objects: Objects, _ index: Int) where Objects.Element: ManagedObject {
        let members = objects.map { $0 as ManagedObject }
        relationshipOperation("setting", index) { try setRelationshipValue(members, for: $0) }
    }

    /// For generated code: adds `object` to to-many relationship `index` (at the end when ordered).
    public func _addDestination(_ object: ManagedObject, _ index: Int) {
        relationshipOperation("adding to", index) { try addDestination(object, to: $0, at: nil) }
    }

    /// For generated code: inserts `object` at `position` of ordered to-many relationship `index`
    /// (moving it there if it is a member).
    public func _insertDestination(_ object: ManagedObject, at position: Int, _ index: Int) {
        // Through the keyed call, for its checks of the position (not a hot path).
        relationshipOperation("inserting into", index) { try insertRelatedObject(object, at: position, forKey: $0.name) }
    }

    /// For generated code: removes `object` from to-many relationship `index`.
    public func _removeDestination(_ object: ManagedObject, _ index: Int) {
        relationshipOperation("removing from", index) { try removeDestination(object, from: $0) }
    }
}
