/// A type a fetch can return: managed objects (or a generated subclass) or object IDs.
public protocol FetchRequestResult {}

extension ManagedObject: FetchRequestResult {}
extension ManagedObjectID: FetchRequestResult {}

/// A description of what to fetch: an entity, an optional predicate, a sort order and paging.
///
/// ```swift
/// var request = FetchRequest<ManagedObject>(entityName: "Book")
/// request.predicate = try FetchPredicate(format: "pages > %d", 300)
/// request.sortDescriptors = [FetchSortDescriptor(key: "title")]
/// let books = try context.fetch(request)
/// ```
public struct FetchRequest<Result: FetchRequestResult>: Sendable {
    /// The name of the entity to fetch. An unknown name fails when the request runs, with an
    /// `.unknownEntity` error that suggests the closest name.
    public var entityName: String {
        didSet { if entity?.name != entityName { entity = nil } }
    }
    /// The entity to fetch, as Core Data's typed `entity` property: setting it sets `entityName`;
    /// it is `nil` when the request was made from a name (or the name changed since). The
    /// request runs against the entity of that name in the context's model.
    public var entity: EntityDescription? {
        didSet { if let entity { entityName = entity.name } }
    }
    /// Which objects to return; all of the entity's objects when `nil`.
    public var predicate: FetchPredicate?
    /// The order of the results; ties (and an empty list) fall back to the order of creation.
    public var sortDescriptors: [FetchSortDescriptor] = []
    /// The most results to return; `0` means no limit.
    public var fetchLimit: Int = 0
    /// How many leading results to skip.
    public var fetchOffset: Int = 0
    /// Whether unsaved changes in the context take part: unsaved inserts that match are
    /// returned, deleted objects are not, changed values are matched as changed. `true` by default.
    public var includesPendingChanges: Bool = true
    /// For `FetchRequest<FetchedValues>`: the properties each result holds (attributes, key paths
    /// through to-one relationships, counts and aggregates). Sort descriptors then name these
    /// properties. Empty (the default) fetches every stored attribute of the entity, as Core
    /// Data's dictionary requests do without `propertiesToFetch`.
    public var propertiesToFetch: [FetchedProperty] = []
    /// For `FetchedValues` results: whether equal results are returned once.
    public var returnsDistinctResults: Bool = false
    /// For `FetchedValues` results: the attribute properties (by name) that group the objects;
    /// counts and aggregates are then per group.
    public var propertiesToGroupBy: [String] = []
    /// For `FetchedValues` results: which results (after grouping) are returned; its keys are the
    /// names of `propertiesToFetch`.
    public var havingPredicate: FetchPredicate?
    /// Rows to load per store request; `0` (the default) loads all at once. `fetch(_:)` returns an
    /// array, which holds every object in the end; for memory bounded by one batch while
    /// iterating a large result, use `fetch(_:batchSize:)`, which returns a collection that loads
    /// and releases batches as they are read.
    public var fetchBatchSize: Int = 0
    /// Whether objects of the entity's sub-entities are returned too. `true` by default.
    public var includesSubentities: Bool = true
    /// Whether fetched objects that were not registered yet come back as faults (`isFault` until
    /// a property is first used). They hold their row either way, so firing them does not go back
    /// to the store. `true` by default, as in Core Data.
    public var returnsObjectsAsFaults: Bool = true
    /// Whether fetched objects hold their stored values. With `false` the results are faults
    /// that load their values from the store when first used (each object then costs a store
    /// request): for a fetch that only needs the objects themselves or their IDs. Registered
    /// objects keep their values. `true` by default, as in Core Data.
    public var includesPropertyValues: Bool = true
    /// Whether objects the context holds already take the stored values this fetch finds, as
    /// Core Data's `shouldRefreshRefetchedObjects`: their unsaved changes stay on top, as in
    /// `refresh(_:mergeChanges: true)`. `false` by default: a fetch does not change the values
    /// of objects the context holds.
    public var shouldRefreshRefetchedObjects: Bool = false
    /// Relationships whose destinations are loaded with the results, a bounded number of store
    /// requests per key path however many objects are fetched (no "N + 1" queries): `["author"]`,
    /// or paths through several relationships, `["author.books"]`.
    public var relationshipKeyPathsForPrefetching: [String] = []

    /// A request for objects of the entity named `entityName`.
    public init(entityName: String) {
        self.entityName = entityName
    }

    /// A request for objects of `entity`.
    public init(entity: EntityDescription) {
        self.entityName = entity.name
        self.entity = entity
    }

    /// The same request returning `Other`: what a fetch of objects asks the store for their IDs.
    func returning<Other: FetchRequestResult>(_: Other.Type) -> FetchRequest<Other> {
        var request = FetchRequest<Other>(entityName: entityName, predicate: predicate, sortDescriptors: sortDescriptors)
        request.entity = entity
        request.fetchLimit = fetchLimit
        request.fetchOffset = fetchOffset
        request.includesPendingChanges = includesPendingChanges
        request.includesSubentities = includesSubentities
        return request
    }

    /// A request for objects of the entity named `entityName` matching `predicate`, sorted.
    public init(entityName: String, predicate: FetchPredicate?, sortDescriptors: [FetchSortDescriptor] = []) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
    }
}
