extension ManagedObjectContext {
    /// The stored destinations of a saved object's to-many relationship, as registered objects
    /// (faults where not registered yet). Objects deleted in this context are left out. Whatever
    /// this context changed in the relationship was changed through the loaded relationship, so
    /// the stored state is the current one when a relationship is first loaded.
    func loadRelatedObjects(of object: ManagedObject, through relationship: RelationshipDescription) throws -> RelatedObjects {
        guard let primaryKey = object.objectID.primaryKey else { return RelatedObjects([], isOrdered: relationship.isOrdered) }
        let store = try requireStore()
        let objectIDs = try store.relatedObjectIDs(of: relationship, in: object.entity, sources: [primaryKey])[primaryKey] ?? []
        let objects = objectIDs.map { self.object(with: $0) }.filter { !$0.isDeleted }
        return RelatedObjects(objects, isOrdered: relationship.isOrdered)
    }
}
