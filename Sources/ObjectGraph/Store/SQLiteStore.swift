import Dispatch
import Foundation

/// A store in a SQLite database file: one STRICT table per entity, written in one transaction per
/// save, read through cached prepared statements.
///
/// One writer and a few readers. Writes (saves, batch operations, key reservations) run on the
/// store's own serial queue, on the writer's connection; the synchronous `PersistentStore`
/// methods wait for it with `queue.sync`, so callers on any thread see each call complete. Reads
/// run on the calling thread, on a connection of the reader pool, so in WAL mode they neither
/// wait for a save nor for each other, and see every commit that finished before they started.
final class SQLiteStore: PersistentStore, @unchecked Sendable {
    // Why @unchecked Sendable is sound: every stored property but `state` is an immutable `let`
    // of a Sendable type. `state` (the writer's connection, its statements and the primary-key
    // counters, none thread-safe) is only ever touched inside `queue.sync` — in `init` and in
    // `withState` — and the queue is serial, so at most one thread uses it at a time and each use
    // happens-after the previous one. The tables `state` shares with the readers are safe to
    // share (see `SQLiteStoreTables`).

    let identifier: String
    let idSpaces: [ObjectIDSpace]
    let model: ManagedObjectModel
    let storeDescription: PersistentStoreDescription
    /// What the store recorded about itself when it was created.
    let metadata: StoreMetadataRecord
    private let queue: DispatchQueue
    private let state: SQLiteStoreState
    private let readers: SQLiteReaderPool
    private let changes: SQLiteChangeMonitor

    /// Opens (or creates) the store `description` points at, for `model`.
    ///
    /// Throws `.storeUnavailable` (no URL, a directory, a directory that cannot be created, a
    /// SQLite database that is not an ObjectGraph store), `.readOnly` (a file that cannot be
    /// written, unless `isReadOnly`), `.corruptStore` (not a SQLite database), `.modelMismatch`
    /// (created by another model, and migration turned off or not inferable), `.busy` (another
    /// process kept it locked past the busy timeout) or `.invalidOperation` (bad pragmas). A store
    /// written by an earlier model is migrated first (see `PersistentStoreDescription`).
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
        self.readers = SQLiteReaderPool(schema: state.reader.schema, description: description)
        self.changes = try SQLiteChangeMonitor(path: path, description: description, writerDataVersion: state.countersDataVersion)
        self.model = model
        self.storeDescription = description
        self.metadata = state.metadata
        self.identifier = state.metadata.storeIdentifier
        self.idSpaces = state.idSpaces
    }

    deinit {
        // The last reference is gone, so nothing else can be using the state or the readers.
        readers.close()
        changes.close()
        state.close()
    }

    func save(_ request: SaveRequest) throws -> [Int64] {
        try write { try $0.save(request) }
    }

    func save(inParts parts: (_ apply: (SaveRequest) throws -> Void) throws -> Void) throws {
        _ = try write { state in
            try state.save { apply in
                // `parts` may not call a non-escaping `apply` (exclusivity); it never keeps it.
                try withoutActuallyEscaping(apply) { apply in try parts { _ = try apply($0) } }
                return []
            }
        }
    }

    func fetch(_ request: StoreFetchRequest) throws -> [Snapshot] {
        try readers.read { try $0.fetch(request) }
    }

    func count(_ request: StoreFetchRequest) throws -> Int {
        try readers.read { try $0.count(request) }
    }

    func snapshots(of entity: EntityDescription, primaryKeys: [Int64]) throws -> [Int64: Snapshot] {
        try readers.read { try $0.snapshots(of: entity, primaryKeys: primaryKeys) }
    }

    func relatedObjectIDs(
        of relationship: RelationshipDescription, in entity: EntityDescription, sources: [Int64]
    ) throws -> [Int64: [ManagedObjectID]] {
        try readers.read { try $0.relatedObjectIDs(of: relationship, in: entity, sources: sources) }
    }

    func relatedSnapshots(
        of relationship: RelationshipDescription, in entity: EntityDescription, sources: [Int64]
    ) throws -> [Int64: [Snapshot]] {
        try readers.read { try $0.relatedSnapshots(of: relationship, in: entity, sources: sources) }
    }

    func groupedValues(_ request: StoreGroupRequest) throws -> [[AttributeValue]]? {
        try readers.read { try $0.groupedValues(request) }
    }

    func execute(_ request: StoreBatchRequest) throws -> [ManagedObjectID] {
        try write { state in
            // The fast paths write rows directly; with history recorded, every batch goes through
            // the save path, which records it.
            if !state.recordsHistory {
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
            }
            var affected: [ManagedObjectID] = []
            _ = try state.save { apply in
                affected = try request.run(model: model, spaces: idSpaces, read: { try state.reader.fetch($0) }, apply: apply)
                return []
            }
            return affected
        }
    }

    func reservePrimaryKeys(for entity: EntityDescription, count: Int) throws -> [Int64] {
        try write { try $0.reservePrimaryKeys(for: entity, count: count) }
    }

    func fetchHistory(_ request: PersistentHistoryChangeRequest) throws -> [PersistentHistoryTransaction] {
        try request.checkToken(storeIdentifier: identifier)
        let stored = try withState { try $0.storedHistory(after: request) }
        return request.results(stored, storeIdentifier: identifier, model: model, idSpaces: idSpaces)
    }

    func deleteHistory(_ request: PersistentHistoryChangeRequest) throws -> Int {
        try request.checkToken(storeIdentifier: identifier)
        return try write { try $0.deleteHistory(request) }
    }

    /// Forgets and returns the numbers, up to `number`, of the history transactions this store
    /// wrote: a history fetch that reached `number` has seen all of them that committed (see
    /// `RemoteChangeSource`).
    func takeOwnHistoryTransactions(through number: Int64) throws -> Set<Int64> {
        try withState { state in
            let own = state.ownHistoryTransactions.filter { $0 <= number }
            state.ownHistoryTransactions.subtract(own)
            return own
        }
    }

    /// From now on, remembers the numbers of the history transactions this store writes, for
    /// `takeOwnHistoryTransactions(through:)`.
    func keepOwnHistoryTransactions() throws {
        try withState { $0.keepsOwnHistoryTransactions = true }
    }

    func currentHistoryToken() throws -> PersistentHistoryToken? {
        try withState { try $0.lastHistoryTransaction() }.map { PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: $0) }
    }

    func integrityProblems(quick: Bool) throws -> [IntegrityReport.Problem] {
        try withState { try $0.integrityProblems(quick: quick) }
    }

    /// SQLite's own check of the file alone (see `SQLiteStoreState.fileProblems(quick:)`).
    func fileProblems(quick: Bool) throws -> [IntegrityReport.Problem] {
        try withState { try $0.fileProblems(quick: quick) }
    }

    /// Closes the readers, then the writer: the last connection to close moves the WAL's pages
    /// into the database file and deletes the WAL, which only a connection that may write can
    /// do. So once the store is closed, the file alone holds everything.
    func close() {
        readers.close()
        changes.close()
        queue.sync { state.close() }
    }

    /// Counts the commits to the file since the store opened, by this store's writer or anyone
    /// else's (see `SQLiteChangeMonitor`); never waits for the writer.
    func dataGeneration() -> UInt64 {
        changes.generation()
    }

    /// Calls `observer` with the SQL of every statement the store runs, as it starts: the
    /// writer's on the store's queue, the readers' on the threads reading (so it must be
    /// thread-safe and must not call back into the store); `nil` stops it. For tests that
    /// check what a save or a fetch executes.
    func setStatementObserver(_ observer: (@Sendable (String) -> Void)?) {
        queue.sync { state.connection.statementObserver = observer }
        readers.setStatementObserver(observer)
    }

    /// Runs a write with the state on the store's queue; when it changed rows, tells the change
    /// monitor the commit was the store's own.
    private func write<T>(_ body: (SQLiteStoreState) throws -> T) throws -> T {
        try withState { state in
            let changesBefore = state.connection.totalChanges
            let result = try body(state)
            if state.connection.totalChanges != changesBefore {
                changes.absorbOwnCommit { try SQLiteStoreState.dataVersion(on: state.connection) }
            }
            return result
        }
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
