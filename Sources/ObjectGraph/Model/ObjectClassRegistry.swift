/// The class of each entity's objects: `ManagedObject` unless a subclass was registered.
///
/// Registration happens before the model is used: the first coordinator made for the model seals
/// the table and keeps a copy, so creating objects reads one array slot by entity index, without a
/// lock, and every context of every coordinator agrees on the classes.
final class ObjectClassRegistry: Sendable {
    private struct State {
        var classes: [ManagedObject.Type]
        /// The registered classes by entity index, as registered (kept to check inheritance).
        var registered: [(any EntityClass.Type)?]
        var isSealed = false
    }

    private let state: Locked<State>

    init(entityCount: Int) {
        state = Locked(
            State(
                classes: Array(repeating: ManagedObject.self, count: entityCount),
                registered: Array(repeating: nil, count: entityCount)))
    }

    /// The classes by entity index; no registration is accepted afterwards.
    func seal() -> [ManagedObject.Type] {
        state.withLock { state in
            state.isSealed = true
            return state.classes
        }
    }

    /// The class registered for `entity` so far.
    func objectClass(for entity: EntityDescription) -> ManagedObject.Type {
        state.withLock { $0.classes[entity.index] }
    }

    /// Registers `objectClass` for `entity`, after checking that it fits the classes registered
    /// for the entity's ancestors and descendants.
    func register(_ objectClass: any EntityClass.Type, for entity: EntityDescription, in model: ManagedObjectModel) throws {
        try state.withLock { state in
            if state.isSealed {
                throw ObjectGraphError(
                    .invalidOperation,
                    "cannot register \(objectClass) for \(entity.name): the model '\(model.name)' is already used by a coordinator; register classes before creating the container or coordinator",
                    entityName: entity.name)
            }
            for ancestor in model.ancestors(of: entity) {
                if let ancestorClass = state.registered[ancestor.index], !isSubclass(objectClass, of: ancestorClass) {
                    throw Self.inheritanceMismatch(subclass: objectClass, entity: entity, ancestorClass: ancestorClass, ancestor: ancestor)
                }
            }
            for descendant in model.subentities(of: entity) {
                if let descendantClass = state.registered[descendant.index], !isSubclass(descendantClass, of: objectClass) {
                    throw Self.inheritanceMismatch(
                        subclass: descendantClass, entity: descendant, ancestorClass: objectClass, ancestor: entity)
                }
            }
            state.registered[entity.index] = objectClass
            state.classes[entity.index] = objectClass
        }
    }

    private static func inheritanceMismatch(
        subclass: any EntityClass.Type, entity: EntityDescription, ancestorClass: any EntityClass.Type, ancestor: EntityDescription
    ) -> ObjectGraphError {
        ObjectGraphError(
            .typeMismatch,
            "\(subclass) (for \(entity.name)) must be a subclass of \(ancestorClass) (for \(ancestor.name)), because \(entity.name) inherits from \(ancestor.name) and a fetch of \(ancestor.name) returns \(entity.name) objects as \(ancestorClass)",
            entityName: entity.name)
    }
}

/// Whether `candidate` is `ancestor` or one of its subclasses (opening `ancestor`, so the test
/// uses its dynamic class).
private func isSubclass(_ candidate: any EntityClass.Type, of ancestor: any EntityClass.Type) -> Bool {
    func test<Ancestor: EntityClass>(_: Ancestor.Type) -> Bool { candidate is Ancestor.Type }
    return test(ancestor)
}

extension ManagedObjectModel {
    /// Makes `classes` the classes of their entities' objects: every object a context creates
    /// for an entity — fetched, faulted, inserted with `insertNewObject(forEntityName:)` — is then
    /// an instance of its class, so `context.fetch(Book.fetchRequest())` returns `[Book]`.
    ///
    /// Register before creating a container or coordinator for the model. Throws
    /// `.unknownEntity` for a class whose `entityName` is not in the model, `.typeMismatch` when a
    /// sub-entity's class does not inherit from its parent entity's class, or when a generated
    /// class was generated from a different version of the model, and `.invalidOperation` once
    /// the model is in use.
    public func register(_ classes: [any EntityClass.Type]) throws {
        for objectClass in classes {
            let entity = try requireEntity(objectClass.entityName)
            if let generated = objectClass as? any GeneratedEntityClass.Type, generated._modelVersionHash != versionHash {
                throw ObjectGraphError(
                    .typeMismatch,
                    "\(objectClass) was generated from another version of the model '\(name)' (hash \(generated._modelVersionHash.prefix(12)), this model's is \(versionHash.prefix(12))); generate it again from this model",
                    entityName: entity.name)
            }
            try classRegistry.register(objectClass, for: entity, in: self)
        }
    }

    /// Registers `classes`; see `register(_:)` taking an array.
    public func register(_ classes: any EntityClass.Type...) throws {
        try register(classes)
    }

    /// The class of `entity`'s objects: the registered class, or `ManagedObject`.
    public func objectClass(for entity: EntityDescription) -> ManagedObject.Type {
        classRegistry.objectClass(for: entity)
    }

    /// `entity`'s parent, its parent's parent, and so on.
    func ancestors(of entity: EntityDescription) -> [EntityDescription] {
        var result: [EntityDescription] = []
        var current = entity.parentName.flatMap(self.entity(named:))
        while let next = current {
            result.append(next)
            current = next.parentName.flatMap(self.entity(named:))
        }
        return result
    }
}

/// What generated classes add to `EntityClass`: the version hash of the model they were generated
/// from, so registering them with another version of the model fails instead of reading the
/// wrong slots. For generated code; hand-written classes do not need it.
public protocol GeneratedEntityClass: EntityClass {
    /// The `versionHash` of the model the class was generated from.
    static var _modelVersionHash: String { get }
}
