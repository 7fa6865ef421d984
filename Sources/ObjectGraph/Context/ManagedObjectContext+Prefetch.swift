extension ManagedObjectContext {
    /// Loads the destinations along `keyPath` (relationship names separated by dots) for every
    /// object in `objects`, all of entity `entity` or its sub-entities: per step, one request for
    /// the to-many memberships and one for the destination rows, whatever the number of objects.
    func prefetch(_ keyPath: String, of objects: [ManagedObject], entity: EntityDescription) throws {
        var current = objects
        var currentEntity = entity
        for name in keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
            guard let relationship = currentEntity.relationship(named: name) else {
                var error = currentEntity.unknownPropertyError(name)
                if currentEntity.attributeSlot(named: name) != nil {
                    error = ObjectGraphError(
                        .unknownKey,
                        "\(currentEntity.name).\(name) is an attribute; relationshipKeyPathsForPrefetching names relationships ('\(keyPath)')",
                        entityName: currentEntity.name, key: name)
                }
                throw error
            }
            var destinations: [ManagedObject] = []
            if relationship.isToOne {
                for object in current {
                    if let destination = try object.toOneDestination(relationship) { destinations.append(destination) }
                }
            } else {
                try loadToManyRelationships(of: current.filter { $0.entity.relationships.indices.contains(relationship.index) }) {
                    $0.name == name
                }
                for object in current {
                    destinations += try self.destinations(of: object, through: object.entity.relationships[relationship.index])
                }
            }
            try fulfillFaults(destinations)
            guard let model else { return }
            currentEntity = model.entities[relationship.destinationIndex]
            current = destinations
        }
    }

    /// Loads the values of every fault in `objects` with one store request per entity. Rows that
    /// no longer exist leave their objects faults (reading them reports the object as missing).
    func fulfillFaults(_ objects: [ManagedObject]) throws {
        var faults: [ObjectIdentifier: [ManagedObject]] = [:]
        // Hashed with `WordHash` (`ObjectKey`): a prefetch passes each book's author, one insert per book.
        var seen: Set<ObjectKey> = []
        for object in objects
        where object.values.isEmpty && object.objectID.primaryKey != nil && seen.insert(ObjectKey(object)).inserted {
            faults[ObjectIdentifier(object.entity), default: []].append(object)
        }
        guard !faults.isEmpty else { return }
        let store = try requireStore()
        for group in faults.values {
            let snapshots = try store.snapshots(of: group[0].entity, primaryKeys: group.map { $0.objectID.primaryKey! })
            for object in group {
                if let snapshot = snapshots[object.objectID.primaryKey!] { object.fill(from: snapshot) }
            }
        }
    }
}
