import Foundation

extension ManagedObjectContext {
    /// The objects (or object IDs) matching `request`, including the context's unsaved changes
    /// unless `includesPendingChanges` is `false`.
    ///
    /// Throws `.unknownEntity`, `.unknownKey` or `.typeMismatch` when the request does not fit
    /// the model — a mistake in a request is an error, never an empty result.
    public func fetch<Result: FetchRequestResult>(_ request: FetchRequest<Result>) throws -> [Result] {
        checkQueue("fetch(_:) of \(request.entityName)")
        processPendingMerges()
        if request.fetchBatchSize > 0 && Result.self is ManagedObject.Type {
            return Array(try fetch(request, batchSize: request.fetchBatchSize))
        }
        let store = try requireStore()
        if Result.self == FetchedValues.self { return try fetchValues(request, store: store) as! [Result] }
        if !request.includesPropertyValues && Result.self is ManagedObject.Type {
            // Faults for the matching IDs: registered objects as they are, the others without values.
            let objects = try fetch(request.returning(ManagedObjectID.self)).map(object(with:))
            return try typed(objects, as: Result.self)
        }
        let plan = try FetchPlan(request, model: store.model)
        if Result.self == ManagedObjectID.self && !hasPendingChanges(for: plan, in: request) {
            let snapshots = try store.fetch(plan.storeRequest)
            return snapshots.map { ManagedObjectID(space: store.idSpaces[$0.entityIndex], primaryKey: $0.primaryKey) as! Result }
        }
        let objects = try fetchObjects(plan, request: request, store: store)
        if request.shouldRefreshRefetchedObjects { _ = refreshObjects(updatedElsewhere: Set(objects.map(\.objectID))) }
        for keyPath in request.relationshipKeyPathsForPrefetching {
            try prefetch(keyPath, of: objects, entity: plan.entity)
        }
        if Result.self == ManagedObjectID.self { return objects.map { $0.objectID as! Result } }
        return try typed(objects, as: Result.self)
    }

    /// `objects` as `[Result]`, or the error naming the first object that is not a `Result`.
    private func typed<Result>(_ objects: [ManagedObject], as: Result.Type) throws -> [Result] {
        if Result.self == ManagedObject.self { return unsafeBitCast(objects, to: [Result].self) }
        // Objects of exactly the requested class (a typed fetch of a final generated class) are
        // checked by comparing their class, which costs a fraction of a dynamic cast.
        let requestedClass = ObjectIdentifier(Result.self)
        for object in objects where ObjectIdentifier(type(of: object)) != requestedClass && !(object is Result) {
            throw resultTypeMismatch(object, requested: Result.self)
        }
        // Every object is a `Result`, so `Result` is a class (or nothing was found): the array
        // already holds `Result` references and is passed on as it is, not copied element by
        // element through generic code.
        guard Result.self is ManagedObject.Type else { return [] }
        return unsafeBitCast(objects, to: [Result].self)
    }

    /// How many objects `request` would return, counting unsaved changes like `fetch` does.
    public func count<Result: FetchRequestResult>(for request: FetchRequest<Result>) throws -> Int {
        checkQueue("count(for:) of \(request.entityName)")
        processPendingMerges()
        let store = try requireStore()
        let plan = try FetchPlan(request, model: store.model)
        if !hasPendingChanges(for: plan, in: request) { return try store.count(plan.storeRequest) }
        return try fetchObjects(plan, request: request, store: store).count
    }

    /// The object with `objectID`, registered in this context. If it is not registered yet, a
    /// fault is returned without touching the store; reading it loads its values, and throws
    /// `.objectNotFound` if the object does not exist.
    public func object(with objectID: ManagedObjectID) -> ManagedObject {
        checkQueue("object(with: \(objectID.shortDescription))")
        processPendingMerges()
        if let object = registeredObject(for: objectID) { return object }
        return registeredFault(for: objectID)
    }

    /// The registered object for the saved `objectID`, or a new fault registered for it: what
    /// `object(with:)` does once its checks are done, for loops that have done them already.
    func registeredFault(for objectID: ManagedObjectID) -> ManagedObject {
        if let object = liveObject(objectID) { return object }
        let object = makeObject(objectID, snapshot: nil)
        register(object)
        return object
    }

    /// The object with `objectID`, loaded from the store if needed; throws `.objectNotFound`
    /// when no such object exists.
    public func existingObject(with objectID: ManagedObjectID) throws -> ManagedObject {
        checkQueue("existingObject(with: \(objectID.shortDescription))")
        processPendingMerges()
        if let object = registeredObject(for: objectID) {
            if object.isFault { try object.fulfillFault() }
            return object
        }
        let object = makeObject(objectID, snapshot: try storedSnapshot(of: objectID))
        register(object)
        return object
    }

    /// Gives the objects with temporary IDs their permanent IDs now, before they are saved. An
    /// object whose entity has a `primaryKey` attribute gets the ID its key names (and must have
    /// one); its key cannot change afterwards.
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        checkQueue("obtainPermanentIDs(for:)")
        let store = try requireStore()
        let temporary = objects.filter { $0.objectID.isTemporaryID && $0.isManaged(by: self) }
        for (_, group) in Dictionary(grouping: temporary, by: { ObjectIdentifier($0.entity) }) {
            let keys =
                try group[0].entity.primaryKeyIndex.map { slot in try declaredKeys(of: group, slot: slot) }
                ?? store.reservePrimaryKeys(for: group[0].entity, count: group.count)
            for (object, key) in zip(group, keys) {
                object.objectID = ManagedObjectID(space: store.idSpaces[object.entity.index], primaryKey: key)
                register(object)
            }
        }
    }

    /// The keys `objects` (of one entity) hold in their primary key at `slot`, or an error naming
    /// the first object without a valid one.
    private func declaredKeys(of objects: [ManagedObject], slot: Int) throws -> [Int64] {
        try objects.map { object in
            switch PrimaryKeyRule.key(from: object.values[slot]) {
            case .success(let key): return key
            case .failure(let problem):
                let name = object.entity.attributes[slot].name
                throw ObjectGraphError(
                    .validation,
                    "Cannot give \(object.objectID.shortDescription) a permanent ID: \(name) \(problem.reason(in: object.entity))",
                    entityName: object.entity.name, objectID: object.objectID, key: name)
            }
        }
    }

    /// Loads the stored values of a fault.
    func fulfillFault(_ object: ManagedObject) throws {
        object.fill(from: try storedSnapshot(of: object.objectID))
        object.awakeFromFetch()
    }

    /// The stored row of `objectID` (from the coordinator's row cache unless `fresh`), or
    /// `.objectNotFound`.
    func storedSnapshot(of objectID: ManagedObjectID, fresh: Bool = false) throws -> Snapshot {
        let store = try requireStore()
        if !fresh, let primaryKey = objectID.primaryKey, objectID.storeIdentifier == store.identifier,
            let cached = sharedRowCache?.row(entityIndex: objectID.entity.index, primaryKey: primaryKey)
        {
            return cached
        }
        guard let primaryKey = objectID.primaryKey, objectID.storeIdentifier == store.identifier,
            let snapshot = try store.snapshots(of: objectID.entity, primaryKeys: [primaryKey])[primaryKey]
        else {
            throw notFound(objectID)
        }
        return snapshot
    }

    /// Throws unless every entity `plan` fetches makes its objects as `Result` or a subclass.
    func checkObjectClasses<Result>(_ plan: FetchPlan, request: FetchRequest<Result>, model: ManagedObjectModel) throws {
        let entities = request.includesSubentities ? model.kinds(of: plan.entity) : [plan.entity]
        for entity in entities where !entity.isAbstract {
            let objectClass = objectClass(for: entity)
            guard objectClass is Result.Type else {
                var message = "\(entity.name) objects are made as \(objectClass), not the requested \(Result.self)"
                if objectClass == ManagedObject.self {
                    message +=
                        "; register the class for \(entity.name) with ManagedObjectModel.register(_:) before creating the container or coordinator"
                }
                throw ObjectGraphError(.typeMismatch, message, entityName: entity.name)
            }
        }
    }

    /// Why an object cannot be returned as the requested class, and what to do about it.
    func resultTypeMismatch(_ object: ManagedObject, requested: Any.Type) -> ObjectGraphError {
        let entity = object.entity
        var message = "a \(entity.name) object is a \(type(of: object)), not the requested \(requested)"
        if type(of: object) == ManagedObject.self {
            message +=
                "; register the class for \(entity.name) with ManagedObjectModel.register(_:) before creating the container or coordinator"
        }
        return ObjectGraphError(.typeMismatch, message, entityName: entity.name, objectID: object.objectID)
    }

    private func notFound(_ objectID: ManagedObjectID) -> ObjectGraphError {
        ObjectGraphError(
            .objectNotFound,
            "no \(objectID.entity.name) with ID \(objectID.shortDescription) exists in the store (it was never saved, was deleted, or belongs to another store)",
            entityName: objectID.entity.name, objectID: objectID)
    }

    var hasRegisteredObjects: Bool { !registered.isEmpty }

    /// Whether the object with `objectID` is registered and holds its values.
    func holdsLoadedObject(_ objectID: ManagedObjectID) -> Bool {
        liveObject(objectID).map { !$0.values.isEmpty } ?? false
    }

    /// The registered objects for stored rows, created where needed: one object per ID.
    /// `rowsMayLackValues` says whether the store was allowed to leave out the values of rows
    /// the context holds (`StoreFetchRequest.isAlreadyLoaded`).
    func registeredObjects(
        for snapshots: consuming [Snapshot], in spaces: [ObjectIDSpace], asFaults: Bool, rowsMayLackValues: Bool
    ) -> [ManagedObject] {
        // The rows of one fetch are distinct, so when the context holds no objects yet (a fresh
        // context's first fetch) none of them can be registered: each is added without a lookup.
        // And when every row has its values, no row's values are looked at: that would touch
        // every row's array again, long after the store wrote it and out of the processor's
        // caches for a large fetch.
        let registryWasEmpty = registered.isEmpty
        // Popping hands each row's values to its object without a copy (and without the retain
        // and release a copy costs, when the rows are not also in the row cache); the objects
        // come out last first and are written from the end.
        let total = snapshots.count
        // Not through `init(unsafeUninitializedCapacity:)` when there are no rows: for capacity 0
        // it hands out the standard library's one shared empty-array storage and then writes the
        // count (0) into it, a write that races with every other thread doing the same (a data
        // race ThreadSanitizer reports, e.g. from cascading deletes loading empty to-manys).
        guard total > 0 else { return [] }
        // The rows come out from the highest key down: announced, they still fill dense tables.
        registered.expect(total)
        defer { registered.expect(0) }
        return [ManagedObject](unsafeUninitializedCapacity: total) { buffer, initialized in
            var position = total
            while let snapshot = snapshots.popLast() {
                position -= 1
                let space = spaces[snapshot.entityIndex]
                let object =
                    registryWasEmpty
                    ? newRegisteredObject(
                        ManagedObjectID(space: space, primaryKey: snapshot.primaryKey), for: snapshot, asFault: asFaults,
                        mayLackValues: rowsMayLackValues)
                    : registeredObject(for: snapshot, in: space, asFault: asFaults, mayLackValues: rowsMayLackValues)
                (buffer.baseAddress! + position).initialize(to: object)
            }
            initialized = total
        }
    }

    /// The registered object for a stored row, created if needed (as a fault holding its row when
    /// `asFault`). `mayLackValues` says whether the store may have left out the row's values.
    func registeredObject(
        for snapshot: consuming Snapshot, in space: ObjectIDSpace, asFault: Bool = false, mayLackValues: Bool = true
    ) -> ManagedObject {
        let objectID = ManagedObjectID(space: space, primaryKey: snapshot.primaryKey)
        guard let object = liveObject(objectID) else {
            return newRegisteredObject(objectID, for: snapshot, asFault: asFault, mayLackValues: mayLackValues)
        }
        // A row without values is one the store skipped because the context holds it already.
        if object.values.isEmpty && snapshot.values.count == space.entity.rowWidth { object.fill(from: snapshot) }
        return object
    }

    /// A new object for a stored row the context does not hold, registered under `objectID`.
    @inline(__always)
    private func newRegisteredObject(
        _ objectID: ManagedObjectID, for snapshot: consuming Snapshot, asFault: Bool, mayLackValues: Bool
    ) -> ManagedObject {
        // A row the store skipped (the context held it) whose object is gone by now starts as a fault.
        // The row is consumed, not copied: a copy would retain its values array, a memory access
        // that misses the processor's caches for every row of a large fetch.
        let object =
            !mayLackValues || snapshot.values.count == objectID.entity.rowWidth
            ? makeObject(objectID, snapshot: consume snapshot, asFault: asFault)
            : makeObject(objectID, snapshot: nil, asFault: asFault)
        registered[objectID] = .passUnretained(object)
        return object
    }

    /// A new object for a stored row, as an instance of the class registered for its entity (which
    /// its ID's space holds).
    @inline(__always)
    func makeObject(_ objectID: ManagedObjectID, snapshot: consuming Snapshot?, asFault: Bool = false) -> ManagedObject {
        guard var snapshot else {
            return makeObject(ManagedObjectRow(objectID: objectID, storedValues: nil, version: 0, context: self, asFault: asFault))
        }
        let version = snapshot.version
        var isTaken = false
        return withUnsafeMutablePointer(to: &snapshot.values) { values in
            withUnsafeMutablePointer(to: &isTaken) { isTaken in
                let storedValues = MovableValues(values: values, isTaken: isTaken)
                return makeObject(
                    ManagedObjectRow(objectID: objectID, storedValues: storedValues, version: version, context: self, asFault: asFault))
            }
        }
    }

    /// The object for `row`, made by the class registered for its entity.
    @inline(__always)
    private func makeObject(_ row: ManagedObjectRow) -> ManagedObject {
        let objectClass = row.objectID.space.objectClass
        // Entities without a registered class keep the direct (inlined) initialiser call, which
        // is measurably cheaper in fetch loops than the call through the metatype.
        if objectClass == ManagedObject.self { return ManagedObject(row: row) }
        return objectClass.init(row: row)
    }

    /// The class of `entity`'s new objects: one array slot, sealed when the coordinator was made.
    @inline(__always)
    func objectClass(for entity: EntityDescription) -> ManagedObject.Type {
        persistentStoreCoordinator?.objectClasses[entity.index] ?? ManagedObject.self
    }
}

extension ManagedObject {
    /// Gives a fault its stored values.
    func fill(from snapshot: Snapshot) {
        values = snapshot.values
        // Destinations held for the old row may not be the new row's.
        relationshipHold.releaseToOnes()
        savedValues = SavedValues()
        rowVersion = snapshot.version
        isFault = false
    }
}
