import Dispatch
import Foundation

/// A store in a SQLite database file: one STRICT table per entity, written in one transaction per
/// save, read through cached prepared statements.
///
/// All database work runs on the store's own serial queue; the synchronous `PersistentStore`
/// methods wait for it with `queue.sync`, so callers on any thread see each call complete.
final class SQLiteStore: PersistentStore, @unchecked Sendable {
    // Why @unchecked Sendable is sound: every stored property but `state` is an immutable `let`
    // of a Sendable type. `state` (the connection, its statements and the primary-key counters,
    // none thread-safe) is only ever touched inside `queue.sync` — in `init` and in `withState` —
    // and the queue is serial, so at most one thread uses it at a time and each use
    // happens-after the previous one.

    let identifier: String
    let idSpaces: [ObjectIDSpace]
    let model: ManagedObjectModel
    let storeDescription: PersistentStoreDescription
    /// What the store recorded about itself when it was created.
    let metadata: SQLiteStoreMetadata
    private let queue: DispatchQueue
    private let state: SQLiteStoreState

    /// Opens (or creates) the store `description` points at, for `model`.
    ///
    /// Throws `.storeUnavailable` (no URL, a directory, a directory that cannot be created, a
    /// SQLite database that is not an ObjectGraph store), `.readOnly` (a file that cannot be
    /// written, unless `isReadOnly`), `.corruptStore` (not a SQLite database), `.modelMismatch`
    /// (created by another model: migrate first) or `.invalidOperation` (bad pragmas).
    init(description: PersistentStoreDescription, model: ManagedObjectModel) throws {
        guard let url = description.url else {
            throw ObjectGraphError(.storeUnavailable, "A SQLite store needs a file URL; the store description has none")
        }
        guard url.isFileURL else {
            throw ObjectGraphError(.storeUnavailable, "A SQLite store needs a file URL; \(url.absoluteString) is not one")
        }
        let path = SQLiteStoreState.fileSystemPath(url)
        let queue = DispatchQueue(label: "ObjectGraph.SQLiteStore.\(url.lastPathComponent)")
        self.state = try queue.sync {
            try SQLiteStoreState.open(path: path, description: description, model: model)
        }
        self.queue = queue
        self.model = model
        self.storeDescription = description
        self.metadata = state.metadata
        self.identifier = state.metadata.storeIdentifier
        self.idSpaces = state.idSpaces
    }

    deinit {
        // The last reference is gone, so nothing else can be using the state.
        state.close()
    }

    func save(_ request: SaveRequest) throws -> [Int64] {
        try withState { try $0.save(request) }
    }

    func fetch(_ request: StoreFetchRequest) throws -> [Snapshot] {
        try withState { try $0.fetch(request) }
    }

    func count(_ request: StoreFetchRequest) throws -> Int {
        try withState { try $0.count(request) }
    }

    func snapshots(of entity: EntityDescription, primaryKeys: [Int64]) throws -> [Int64: Snapshot] {
        try withState { try $0.snapshots(of: entity, primaryKeys: primaryKeys) }
    }

    func relatedObjectIDs(of relationship: RelationshipDescription, in entity: EntityDescription, sources: [Int64]) throws -> [Int64: [ManagedObjectID]] {
        try withState { try $0.relatedObjectIDs(of: relationship, in: entity, sources: sources) }
    }

    func relatedSnapshots(of relationship: RelationshipDescription, in entity: EntityDescription, sources: [Int64]) throws -> [Int64: [Snapshot]] {
        try withState { try $0.relatedSnapshots(of: relationship, in: entity, sources: sources) }
    }

    func groupedValues(_ request: StoreGroupRequest) throws -> [[AttributeValue]]? {
        try withState { try $0.groupedValues(request) }
    }

    func execute(_ request: StoreBatchRequest) throws -> [ManagedObjectID] {
        try withState { state in
            // An update of attributes only is one UPDATE statement: no row needs reading first.
            if case .update(let values) = request.operation, values.keys.allSatisfy({ $0 < request.entity.attributes.count }) {
                return try state.updateInPlace(request, values)
            }
            // So is a delete of rows nothing else refers to (no foreign keys, no join tables).
            if case .delete = request.operation, !state.isReferenced(request.entity) {
                return try state.deleteInPlace(request)
            }
            // Inserted rows are written as they are made.
            if case .insert(let count, let row) = request.operation {
                return try state.insertInPlace(request.entity, count: count, row: row)
            }
            var affected: [ManagedObjectID] = []
            _ = try state.save { apply in
                affected = try request.run(model: model, spaces: idSpaces, read: { try state.fetch($0) }, apply: apply)
                return []
            }
            return affected
        }
    }

    func reservePrimaryKeys(for entity: EntityDescription, count: Int) throws -> [Int64] {
        try withState { try $0.reservePrimaryKeys(for: entity, count: count) }
    }

    func close() {
        queue.sync { state.close() }
    }

    /// Calls `observer` with the SQL of every statement the store runs, as it starts, on the
    /// store's queue (so it must not call back into the store); `nil` stops it. For tests that
    /// check what a save executes.
    func setStatementObserver(_ observer: (@Sendable (String) -> Void)?) {
        queue.sync { state.connection.statementObserver = observer }
    }

    /// Runs `body` with the state on the store's queue; throws once the store is closed.
    private func withState<T>(_ body: (SQLiteStoreState) throws -> T) throws -> T {
        try queue.sync {
            guard !state.isClosed else {
                throw ObjectGraphError(.invalidOperation, "The store at \(state.connection.path) is closed")
            }
            return try body(state)
        }
    }
}
