import Dispatch

/// The reader connections of a SQLite store: opened on first need, up to `capacity`, each handed
/// to one caller at a time and taken back afterwards. In WAL mode a reader never waits for the
/// writer, and each read sees every commit that finished before it started, so fetches run
/// beside a long save and beside each other. When every reader is busy, a caller waits for one.
final class SQLiteReaderPool: Sendable {
    private struct State {
        var idle: [SQLiteReader] = []
        var isClosed = false
        var observer: (@Sendable (String) -> Void)?
        /// Bumped by each `setStatementObserver`; a reader whose number differs is updated
        /// when it is next handed out.
        var observerGeneration = 0
    }

    /// How many readers a store opens at most: enough for a few threads reading at once,
    /// few enough that their page caches stay small.
    static let capacity = 4

    private let state = Locked(State())
    /// Counts the readers free to hand out, opened or not.
    private let slots = DispatchSemaphore(value: capacity)
    private let schema: SQLiteStoreTables
    private let description: PersistentStoreDescription

    init(schema: SQLiteStoreTables, description: PersistentStoreDescription) {
        self.schema = schema
        self.description = description
    }

    /// Runs `body` with a reader no one else is using; throws once the pool is closed.
    func read<T>(_ body: (SQLiteReader) throws -> T) throws -> T {
        slots.wait()
        defer { slots.signal() }
        let reader = try checkOut()
        defer { checkIn(reader) }
        return try body(reader)
    }

    /// Calls `observer` with the SQL of every statement any reader runs (see
    /// `SQLiteStore.setStatementObserver`), from the thread running it.
    func setStatementObserver(_ observer: (@Sendable (String) -> Void)?) {
        state.withLock { state in
            state.observer = observer
            state.observerGeneration += 1
            // Idle readers are no one's: they change at once (and let go of the old observer);
            // readers in use change when they are next handed out.
            for reader in state.idle {
                reader.connection.statementObserver = observer
                reader.observerGeneration = state.observerGeneration
            }
        }
    }

    /// Closes the idle readers now and the others as they come back; later reads throw.
    func close() {
        let idle = state.withLock { state in
            state.isClosed = true
            defer { state.idle.removeAll() }
            return state.idle
        }
        for reader in idle { reader.close() }
    }

    private func checkOut() throws -> SQLiteReader {
        let (idle, observer, generation) = try state.withLock { state in
            guard !state.isClosed else {
                throw ObjectGraphError(.invalidOperation, "The store at \(schema.path) is closed")
            }
            return (state.idle.popLast(), state.observer, state.observerGeneration)
        }
        // Opening takes a while; it happens outside the lock, and a slot is already held.
        let reader = try idle ?? SQLiteReader(connection: Self.openConnection(path: schema.path, description: description), schema: schema)
        if reader.observerGeneration != generation {
            reader.connection.statementObserver = observer
            reader.observerGeneration = generation
        }
        return reader
    }

    private func checkIn(_ reader: SQLiteReader) {
        let closed = state.withLock { state in
            if !state.isClosed { state.idle.append(reader) }
            return state.isClosed
        }
        if closed { reader.close() }
    }

    /// A connection that only reads the store at `path`: opened read-only, `query_only`, with
    /// the description's busy timeout and pragmas (per-connection settings such as the cache
    /// size apply to readers too; the journal mode belongs to the file and is the writer's to set).
    static func openConnection(path: String, description: PersistentStoreDescription) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, readOnly: true, busyTimeout: description.busyTimeout)
        let settings = try SQLitePragmas.settings(for: description).filter { $0.name.lowercased() != "journal_mode" }
        try SQLitePragmas.apply(settings + [SQLitePragmas.Setting(name: "query_only", value: "1")], to: connection)
        return connection
    }
}
