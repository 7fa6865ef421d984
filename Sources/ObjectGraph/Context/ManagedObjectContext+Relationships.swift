extension ManagedObjectContext {
    /// The stored destinations of a saved object's to-many relationship, as registered objects
    /// (faults where not registered yet). Objects deleted in this context whose delete rules were
    /// followed are left out (until then their neighbours still hold them). Whatever
    /// this context changed in the relationship was changed through the loaded relationship, so
    /// the stored state is the current one when a relationship is first loaded.
    func loadRelatedObjects(of object: ManagedObject, through relationship: RelationshipDescription) throws -> RelatedObjects {
        guard let primaryKey = object.objectID.primaryKey else { return RelatedObjects([], isOrdered: relationship.isOrdered) }
        let store = try requireStore()
        let objectIDs = try store.relatedObjectIDs(of: relationship, in: object.entity, sources: [primaryKey])[primaryKey] ?? []
        let objects = objectIDs.map { self.object(with: $0) }.filter { !$0.isOutOfGraph }
        return RelatedObjects(objects, isOrdered: relationship.isOrdered)
    }

    /// Loads the to-many relationships chosen by `include` of every object in `objects` that has
    /// not loaded them yet: one store request per entity and relationship, however many objects.
    /// With `withRows`, the destinations come with their rows (they are usually read next);
    /// without, as faults (their keys are all that is read).
    func loadToManyRelationships(
        of objects: [ManagedObject], withRows: Bool = true, where include: (RelationshipDescription) -> Bool
    ) throws {
        // A level of a cascade is often all objects without to-manys (a deleted author's books).
        guard objects.contains(where: { !$0.entity.toManyRelationships.isEmpty }) else { return }
        // Entities are few (often one, as when a cascade deletes one object): a short list of
        // groups, not a dictionary per call.
        var groups: [(entity: EntityDescription, objects: [ManagedObject])] = []
        for object in objects where !object.isNew && object.objectID.primaryKey != nil {
            if let group = groups.firstIndex(where: { $0.entity === object.entity }) {
                groups[group].objects.append(object)
            } else {
                groups.append((object.entity, [object]))
            }
        }
        guard !groups.isEmpty else { return }
        let store = try requireStore()
        for (entity, group) in groups {
            for relationship in entity.toManyRelationships where include(relationship) {
                let position = relationship.slot - entity.rowWidth
                let unloaded = group.filter { $0.loadedToMany.isEmpty || $0.loadedToMany[position] == nil }
                guard !unloaded.isEmpty else { continue }
                let sources = unloaded.map { $0.objectID.primaryKey! }
                // Each source's destinations are made into objects as they are handed over: no
                // dictionary of object arrays in between.
                func load(_ destinations: (ManagedObject) -> [ManagedObject]) {
                    for object in unloaded {
                        var loaded = destinations(object)
                        if loaded.contains(where: \.isOutOfGraph) { loaded.removeAll(where: \.isOutOfGraph) }
                        if object.loadedToMany.isEmpty {
                            object.loadedToMany = Array(repeating: nil, count: entity.toManyRelationships.count)
                        }
                        object.loadedToMany[position] = RelatedObjects(loaded, isOrdered: relationship.isOrdered)
                    }
                }
                if withRows {
                    var rows = try store.relatedSnapshots(of: relationship, in: entity, sources: sources)
                    let spaces = store.idSpaces
                    load { object in
                        // Taken out of the store's answer, so each row moves into its object
                        // instead of being copied (see `registeredObjects`); related rows always
                        // come with their values.
                        registeredObjects(
                            for: rows.removeValue(forKey: object.objectID.primaryKey!) ?? [], in: spaces, asFaults: true,
                            rowsMayLackValues: false)
                    }
                } else {
                    let objectIDs = try store.relatedObjectIDs(of: relationship, in: entity, sources: sources)
                    load { object in (objectIDs[object.objectID.primaryKey!] ?? []).map(registeredFault) }
                }
            }
        }
    }
}
