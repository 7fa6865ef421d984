extension EntityClass {
    /// The object of the class's entity with key `primaryKey`, registered in `context`: a fault
    /// when not loaded yet, as `ManagedObjectContext.object(ofEntity:primaryKey:)` gives it
    /// (`let book = try Book.object(primaryKey: 42, in: context)`).
    public static func object(primaryKey: Int64, in context: ManagedObjectContext) throws -> Self {
        try typed(context.object(ofEntity: entityName, primaryKey: primaryKey))
    }

    /// The object of the class's entity with key `primaryKey`, its values loaded; throws
    /// `.objectNotFound` when there is none.
    public static func existingObject(primaryKey: Int64, in context: ManagedObjectContext) throws -> Self {
        try typed(context.existingObject(ofEntity: entityName, primaryKey: primaryKey))
    }

    /// The objects of the class's entity with these keys that exist, values loaded, in the order
    /// of the keys.
    public static func existingObjects(primaryKeys: [Int64], in context: ManagedObjectContext) throws -> [Self] {
        try context.existingObjects(ofEntity: entityName, primaryKeys: primaryKeys).map(typed)
    }

    /// `object` as this class; an error when the context's model registers another class for it.
    private static func typed(_ object: ManagedObject) throws -> Self {
        guard let typed = object as? Self else {
            throw ObjectGraphError(
                .typeMismatch,
                "\(object.objectID.shortDescription) is a \(type(of: object)), not a \(Self.self): register \(Self.self) with the model for \(entityName)",
                entityName: entityName, objectID: object.objectID)
        }
        return typed
    }
}
