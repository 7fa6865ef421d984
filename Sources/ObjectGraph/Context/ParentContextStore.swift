import Foundation

/// The store a child context sees: its parent context. Reads answer with the parent's current
/// objects (its unsaved changes included) as rows; a save hands the child's changes to the
/// parent. Every call runs on the parent's queue. Batch requests and key reservations go
/// straight to the coordinator's store, as they do from the parent.
///
/// Rows name objects by primary key, so the parent's inserted objects get their permanent IDs
/// (as `obtainPermanentIDs(for:)` gives them) before a child reads anything; the child's own
/// inserted objects get theirs when it saves. IDs then mean the same object in every context.
final class ParentContextStore: PersistentStore, @unchecked Sendable {
    // Why @unchecked Sendable is sound: the three references are immutable; the contexts are
    // Sendable and are only used inside `parent.performAndWait` (the parent's queue) or, for
    // `child`, to name the origin of changes; `root` is a Sendable store.
    private let parent: ManagedObjectContext
    private let child: ManagedObjectContext
    private let root: any PersistentStore

    init(parent: ManagedObjectContext, child: ManagedObjectContext, root: any PersistentStore) {
        self.parent = parent
        self.child = child
        self.root = root
    }

    var identifier: String { root.identifier }
    var idSpaces: [ObjectIDSpace] { root.idSpaces }
    var model: ManagedObjectModel { root.model }
    var storeDescription: PersistentStoreDescription { root.storeDescription }

    func save(_ request: SaveRequest) throws -> [Int64] {
        try parent.performAndWait { try parent.apply(request, savedBy: child) }
        // The child's inserted objects came with permanent IDs: no keys to hand out.
        return []
    }

    func fetch(_ request: StoreFetchRequest) throws -> [Snapshot] {
        try parent.performAndWait {
            try parent.prepareForChildRead()
            return try parent.objects(matching: request).map { try $0.currentRow() }
        }
    }

    func count(_ request: StoreFetchRequest) throws -> Int {
        try parent.performAndWait {
            parent.propagateDeletes()
            return try parent.objects(matching: request).count
        }
    }

    func snapshots(of entity: EntityDescription, primaryKeys: [Int64]) throws -> [Int64: Snapshot] {
        try parent.performAndWait {
            try parent.prepareForChildRead()
            var rows: [Int64: Snapshot] = [:]
            for primaryKey in primaryKeys {
                guard
                    let object = try parent.liveOrStoredObject(ManagedObjectID(space: root.idSpaces[entity.index], primaryKey: primaryKey))
                else { continue }
                rows[primaryKey] = try object.currentRow()
            }
            return rows
        }
    }

    func relatedObjectIDs(
        of relationship: RelationshipDescription, in entity: EntityDescription, sources: [Int64]
    ) throws -> [Int64: [ManagedObjectID]] {
        try relatedObjects(of: relationship, in: entity, sources: sources).mapValues { $0.map(\.objectID) }
    }

    func relatedSnapshots(
        of relationship: RelationshipDescription, in entity: EntityDescription, sources: [Int64]
    ) throws -> [Int64: [Snapshot]] {
        try parent.performAndWait {
            try relatedObjects(of: relationship, in: entity, sources: sources).mapValues { try $0.map { try $0.currentRow() } }
        }
    }

    func groupedValues(_ request: StoreGroupRequest) throws -> [[AttributeValue]]? {
        // The child groups the rows it fetched through `fetch`, with the same result.
        nil
    }

    func execute(_ request: StoreBatchRequest) throws -> [ManagedObjectID] {
        try root.execute(request)
    }

    func reservePrimaryKeys(for entity: EntityDescription, count: Int) throws -> [Int64] {
        try root.reservePrimaryKeys(for: entity, count: count)
    }

    /// The store's own integrity: a parent's unsaved state is not a store to check.
    func integrityProblems(quick: Bool) throws -> [IntegrityReport.Problem] {
        try root.integrityProblems(quick: quick)
    }

    /// The store's own backup: a parent's unsaved state is not part of it.
    func backup(to url: URL) throws {
        try root.backup(to: url)
    }

    /// The store's own dump: a parent's unsaved state is not part of it.
    func dump(to url: URL) throws {
        try root.dump(to: url)
    }

    /// The store's own history: a save into a parent context is not a store transaction.
    func fetchHistory(_ request: PersistentHistoryChangeRequest) throws -> [PersistentHistoryTransaction] {
        try root.fetchHistory(request)
    }

    func deleteHistory(_ request: PersistentHistoryChangeRequest) throws -> Int {
        try root.deleteHistory(request)
    }

    func currentHistoryToken() throws -> PersistentHistoryToken? {
        try root.currentHistoryToken()
    }

    func close() {}

    /// The parent's current destinations of a to-many relationship for each source, in the
    /// relationship's order (by position when ordered, else by key), as the stores answer.
    private func relatedObjects(
        of relationship: RelationshipDescription, in entity: EntityDescription, sources: [Int64]
    ) throws -> [Int64: [ManagedObject]] {
        try parent.performAndWait {
            try parent.prepareForChildRead()
            var result: [Int64: [ManagedObject]] = [:]
            for primaryKey in sources {
                guard let owner = try parent.liveOrStoredObject(ManagedObjectID(space: root.idSpaces[entity.index], primaryKey: primaryKey))
                else { continue }
                let members = owner.loadedToMany[try owner.loadRelationship(relationship)]!
                let destinations =
                    relationship.isOrdered
                    ? members.objects : members.objects.sorted { ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0) }
                if !destinations.isEmpty { result[primaryKey] = destinations }
            }
            return result
        }
    }
}
