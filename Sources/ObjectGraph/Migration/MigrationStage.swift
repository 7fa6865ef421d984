import Foundation

/// Swift code that runs inside the migration from one model version to the next, in the same
/// transaction, for what inference cannot do: split `name` into `first` and `last`, compute a new
/// required value, remove duplicates before a new uniqueness constraint.
///
/// `prepare` runs before the step copies anything, on the objects as the older version holds
/// them; `complete` runs after, on the objects as the newer version holds them, with each
/// object's older values at hand (`MigrationObject.oldValue(forKey:)`). An attribute that is new
/// and required, without a default, is allowed when the step has a `complete` stage: the stage
/// must give every object a value, or the migration fails. Give the stages to the store through
/// `PersistentStoreDescription.migrationStages`.
public struct MigrationStage: Sendable {
    /// The version of the model the step starts from.
    public let sourceVersion: Int
    /// The version of the model the step leads to.
    public let destinationVersion: Int
    let prepare: (@Sendable (MigrationStageContext) throws -> Void)?
    let complete: (@Sendable (MigrationStageContext) throws -> Void)?

    /// A stage of the step from version `source` to version `destination` of a model.
    public init(
        from source: Int, to destination: Int,
        prepare: (@Sendable (MigrationStageContext) throws -> Void)? = nil,
        complete: (@Sendable (MigrationStageContext) throws -> Void)? = nil
    ) {
        self.sourceVersion = source
        self.destinationVersion = destination
        self.prepare = prepare
        self.complete = complete
    }
}

/// What a `MigrationStage` works with: the objects of the store, one entity at a time, as rows of
/// values (no contexts: the store is between two models).
public final class MigrationStageContext {
    /// The model the objects follow now: the older one in `prepare`, the newer in `complete`.
    public let model: ManagedObjectModel
    /// The model of the step's other end: the newer one in `prepare`, the older in `complete`.
    public let otherModel: ManagedObjectModel
    let target: any MigrationTarget
    /// In `complete`: the source entity of each entity (by index), whose old row `oldValue`
    /// reads from the old table.
    let sourceEntities: [EntityDescription?]
    /// The slots given a value, by entity index, for the check of new required attributes.
    var assigned: [Int: [Int: Set<Int64>]] = [:]

    init(model: ManagedObjectModel, otherModel: ManagedObjectModel, target: any MigrationTarget, sourceEntities: [EntityDescription?]) {
        self.model = model
        self.otherModel = otherModel
        self.target = target
        self.sourceEntities = sourceEntities
    }

    /// Calls `body` with each object of the entity named `entityName` (its own objects, not its
    /// sub-entities'), in key order.
    public func forEachObject(ofEntity entityName: String, _ body: (MigrationObject) throws -> Void) throws {
        let entity = try requireEntity(entityName)
        let filter = model.isInHierarchy(entity) ? " WHERE \(TableLayout.entityFilter([entity]))" : ""
        let keys = try target.integers(
            "SELECT \(quoteIdentifier(StoreSchema.primaryKeyColumn)) FROM \(quoteIdentifier(model.root(of: entity).name))\(filter) ORDER BY 1"
        )
        for key in keys { try body(MigrationObject(context: self, entity: entity, primaryKey: key)) }
    }

    func requireEntity(_ name: String) throws -> EntityDescription {
        guard let entity = model.entity(named: name) else {
            throw ObjectGraphError(
                .unknownEntity,
                "a migration stage asked for the entity \(name), which version \(model.version) of '\(model.name)' does not have")
        }
        return entity
    }
}

/// One object in a `MigrationStage`: read and change its values, or delete it (in `prepare`).
public struct MigrationObject {
    let context: MigrationStageContext
    /// The object's entity in the stage's model.
    public let entity: EntityDescription
    /// The object's primary key, which the migration keeps.
    public let primaryKey: Int64

    /// The value of the attribute `key`, as `value(forKey:)` of a managed object gives it.
    public func value(forKey key: String) throws -> Any? {
        let attribute = try storedAttribute(key, of: entity)
        return try read(attribute, of: entity, in: context.model).bridgedValue(as: attribute.type)
    }

    /// In `complete`: the value the object had for attribute `key` of the older model (its
    /// name there), or nil for an object that is new to the step's source.
    public func oldValue(forKey key: String) throws -> Any? {
        guard let source = context.sourceEntities[entity.index] else { return nil }
        let attribute = try storedAttribute(key, of: source)
        return try read(attribute, of: source, in: context.otherModel, tablePrefix: StoreMigration.oldTablePrefix).bridgedValue(
            as: attribute.type)
    }

    /// Sets the attribute `key`, with the conversions and checks of `setValue(_:forKey:)`.
    public func setValue(_ value: Any?, forKey key: String) throws {
        let attribute = try storedAttribute(key, of: entity)
        let stored = try AttributeValue(converting: value, toSlot: attribute.index, of: entity)
        let column = context.target.column(of: attribute, of: entity, in: context.model)
        try context.target.run(
            "UPDATE \(quoteIdentifier(context.model.root(of: entity).name)) SET \(quoteIdentifier(column)) = ? WHERE \(quoteIdentifier(StoreSchema.primaryKeyColumn)) = ?",
            [stored, .integer(primaryKey)])
        if !stored.isNull { context.assigned[entity.index, default: [:]][attribute.index, default: []].insert(primaryKey) }
    }

    /// Deletes the object's row, and its pairs in join tables (deleting in `prepare` removes
    /// what the older version holds, before anything is copied).
    public func delete() throws {
        let model = context.model
        try context.target.run(
            "DELETE FROM \(quoteIdentifier(model.root(of: entity).name)) WHERE \(quoteIdentifier(StoreSchema.primaryKeyColumn)) = \(primaryKey)",
            [])
        for (table, column) in RelationshipLayout(model: model).joinColumns(holding: entity, in: model) {
            try context.target.run("DELETE FROM \(quoteIdentifier(table.name)) WHERE \(quoteIdentifier(column)) = \(primaryKey)", [])
        }
        for source in model.entities {
            for relationship in source.ownRelationships
            where relationship.isToOne && model.entity(entity, isKindOf: model.entities[relationship.destinationIndex]) {
                try context.target.run(
                    "UPDATE \(quoteIdentifier(model.root(of: source).name)) SET \(quoteIdentifier(relationship.name)) = NULL WHERE \(quoteIdentifier(relationship.name)) = \(primaryKey)",
                    [])
            }
        }
    }

    private func storedAttribute(_ key: String, of entity: EntityDescription) throws -> AttributeDescription {
        let attribute = try entity.requireAttribute(key)
        guard !attribute.isTransient else {
            throw ObjectGraphError(
                .unknownKey, "\(entity.name).\(key) is transient: a migration stage reads and writes stored attributes only",
                entityName: entity.name, key: key)
        }
        return attribute
    }

    /// The object's value of `attribute` of `entity` in the table of `model` (its name after
    /// `tablePrefix`: the old tables while a step copies).
    private func read(
        _ attribute: AttributeDescription, of entity: EntityDescription, in model: ManagedObjectModel, tablePrefix: String = ""
    ) throws -> AttributeValue {
        let column = context.target.column(of: attribute, of: entity, in: model)
        return try context.target.value(
            "SELECT \(quoteIdentifier(column)) FROM \(quoteIdentifier(tablePrefix + model.root(of: entity).name)) WHERE \(quoteIdentifier(StoreSchema.primaryKeyColumn)) = ?",
            [.integer(primaryKey)], as: attribute.type)
    }
}
