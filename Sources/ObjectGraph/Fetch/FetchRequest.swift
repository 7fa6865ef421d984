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
    /// The name of the entity to fetch.
    public var entityName: String
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
    /// properties.
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
    /// Relationships whose destinations are loaded with the results, a bounded number of store
    /// requests per key path however many objects are fetched (no "N + 1" queries): `["author"]`,
    /// or paths through several relationships, `["author.books"]`.
    public var relationshipKeyPathsForPrefetching: [String] = []

    /// A request for objects of the entity named `entityName`.
    public init(entityName: String) {
        self.entityName = entityName
    }

    /// A request for objects of the entity named `entityName` matching `predicate`, sorted.
    public init(entityName: String, predicate: FetchPredicate?, sortDescriptors: [FetchSortDescriptor] = []) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
    }
}
