import Dispatch
import Foundation
import ObjectGraph

/// A store in a PostgreSQL database: the SQLite store's tables in PostgreSQL's types (see
/// `PostgreSQLSchema`), written in one transaction per save with row versions checked
/// (optimistic locking), read with the predicate compiler shared with SQLite in PostgreSQL's
/// dialect.
///
/// One writing connection, owned by the store's serial queue: saves, batch requests (which read
/// inside their transaction), key reservations and the history run there with `queue.sync`
/// and wait there for the server. The public reads (fetches, counts, rows by key,
/// relationships, groups, the integrity check) run on the caller's thread on a reading
/// connection of `PostgreSQLReaderPool` (up to four, opened as reads need them), so they go on
/// beside a save in progress and beside each other, and see every save that returned. Callers
/// on any thread wait for the server on their own thread; no event-loop thread ever waits. A
/// lost connection is made again by the next call (see `PostgreSQLConnection`); a read it broke
/// runs again. A store that `mergesRemoteChanges` has one more connection, which listens
/// (`PostgreSQLChangeListener`).
final class PostgreSQLStore: PersistentStore, @unchecked Sendable {
    // Why @unchecked Sendable is sound: every stored property but `state` is an immutable `let`
    // of a Sendable type or an atomic. `state` (the writing connection, not thread-safe) is only
    // touched inside `queue.sync`, and the queue is serial.

    let identifier: String
    let idSpaces: [ObjectIDSpace]
    let model: ManagedObjectModel
    let storeDescription: PersistentStoreDescription
    private let queue: DispatchQueue
    private let state: PostgreSQLStoreState
    private let readers: PostgreSQLReaderPool
    private let location: PostgreSQLLocation
    private let ownCommits: PostgreSQLOwnCommits
    /// See `dataGeneration()`.
    private let generation = PostgreSQLDataGeneration()

    /// Connects to the database `description.url` names and opens the store there, creating its
    /// tables in an empty database. Throws `.storeUnavailable` (no server, refused login, no such
    /// database, a database holding tables of something else), `.modelMismatch` (a store of
    /// another model that cannot be migrated, or with migration turned off), the error that
    /// stopped a migration (which then changed nothing) or `.invalidOperation` (options the
    /// PostgreSQL store does not support yet).
    init(description: PersistentStoreDescription, model: ManagedObjectModel) throws {
        guard let url = description.url else {
            throw ObjectGraphError(.storeUnavailable, "A PostgreSQL store needs a postgres:// URL; the store description has none")
        }
        let location = try PostgreSQLLocation(url)
        if description.isReadOnly {
            throw ObjectGraphError(
                .invalidOperation,
                "The PostgreSQL store at \(location) cannot be opened read-only yet (isReadOnly); use a role that may only read")
        }
        let queue = DispatchQueue(label: "ObjectGraph.PostgreSQLStore.\(location.database)")
        self.state = try queue.sync { try PostgreSQLStoreState.open(location, model: model, description: description) }
        self.queue = queue
        self.readers = PostgreSQLReaderPool(schema: state.schema)
        self.location = location
        self.ownCommits = state.ownCommits
        self.model = model
        self.storeDescription = description
        self.identifier = state.metadata.storeIdentifier
        self.idSpaces = state.idSpaces
    }

    deinit {
        readers.close()
        state.close()
    }

    func save(_ request: SaveRequest) throws -> [Int64] {
        try withState { try $0.save(request) }
    }

    func save(inParts parts: (_ apply: (SaveRequest) throws -> Void) throws -> Void) throws {
        _ = try withState { state in
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
        try withState { state in
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

    /// The schema, metadata, rows' entities and references (see
    /// `PostgreSQLStoreState.integrityProblems()`); `quick` changes nothing, the server keeping
    /// its own pages checked.
    func integrityProblems(quick: Bool) throws -> [IntegrityReport.Problem] {
        do {
            return try readers.read { try $0.integrityProblems() }
        } catch let failure as PostgreSQLFailure {
            throw failure.error("Cannot check the integrity of the PostgreSQL store at \(location)")
        }
    }

    func backup(to url: URL) throws {
        throw notYet("backups (use pg_dump)")
    }

    func dump(to url: URL) throws {
        throw notYet("dumps to SQL text (use pg_dump)")
    }

    func fetchHistory(_ request: PersistentHistoryChangeRequest) throws -> [PersistentHistoryTransaction] {
        try request.checkToken(storeIdentifier: identifier)
        let stored = try withHistory("read") { try $0.storedHistory(after: request) }
        return request.results(stored, storeIdentifier: identifier, model: model, idSpaces: idSpaces)
    }

    func deleteHistory(_ request: PersistentHistoryChangeRequest) throws -> Int {
        try request.checkToken(storeIdentifier: identifier)
        return try withHistory("delete") { try $0.deleteHistory(request) }
    }

    func currentHistoryToken() throws -> PersistentHistoryToken? {
        try withHistory("read") { try $0.lastHistoryTransaction() }.map {
            PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: $0)
        }
    }

    func close() {
        readers.close()
        queue.sync { state.close() }
    }

    /// See `PostgreSQLDataGeneration`: while the store listens for others' commits, a number
    /// that moves when one is announced (and at least every `remoteChangePollInterval`);
    /// otherwise one that moves at every call.
    func dataGeneration() -> UInt64 {
        generation.current()
    }

    private func notYet(_ feature: String) -> ObjectGraphError {
        ObjectGraphError(.invalidOperation, "The PostgreSQL store does not support \(feature) yet")
    }

    /// Runs `body` with the state on the store's queue, a statement's failure reported as a
    /// failure to `doing` ("read", "delete") the store's history.
    private func withHistory<T>(_ doing: String, _ body: (PostgreSQLStoreState) throws -> T) throws -> T {
        do {
            return try withState(body)
        } catch let failure as PostgreSQLFailure {
            throw failure.error("Cannot \(doing) the persistent history of the PostgreSQL store at \(location)")
        }
    }

    /// Runs `body` with the state on the store's queue; throws once the store is closed.
    private func withState<T>(_ body: (PostgreSQLStoreState) throws -> T) throws -> T {
        try queue.sync {
            guard !state.isClosed else {
                throw ObjectGraphError(.invalidOperation, "The PostgreSQL store at \(state.connection.location) is closed")
            }
            return try body(state)
        }
    }
}

extension PostgreSQLStore: RemoteChangeSource {
    func takeOwnHistoryTransactions(through number: Int64) throws -> Set<Int64> {
        ownCommits.take(through: number)
    }

    /// Opens a connection of its own that LISTENs on the store's notification channel (see
    /// `PostgreSQLChangeListener`); while it listens, the store's data generation is trusted.
    func watchRemoteCommits(interval: TimeInterval, wake: @escaping @Sendable () -> Void) throws -> any RemoteCommitWatch {
        let channel = try withState { $0.notificationChannel }
        ownCommits.startKeeping()
        return try PostgreSQLChangeListener(
            location: location, channel: channel, interval: interval, generation: generation, ownCommits: ownCommits, wake: wake)
    }
}
