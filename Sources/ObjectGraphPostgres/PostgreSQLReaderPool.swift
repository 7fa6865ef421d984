import Dispatch
import ObjectGraph

/// A connection of its own that reads a PostgreSQL store, with the store's shared tables
/// (see `PostgreSQLReading`): handed to one caller at a time by `PostgreSQLReaderPool`.
final class PostgreSQLReader: PostgreSQLReading {
    let connection: PostgreSQLConnection
    let schema: PostgreSQLStoreTables

    init(connection: PostgreSQLConnection, schema: PostgreSQLStoreTables) {
        self.connection = connection
        self.schema = schema
    }
}

/// The reading connections of a PostgreSQL store: opened on first need, up to `capacity`, each
/// handed to one caller at a time and taken back afterwards, so the store's reads run beside a
/// save on the writing connection and beside each other. Each is a session of its own at READ
/// COMMITTED: a statement sees every commit that finished before it started, so a read after a
/// save returned sees it. When every reader is busy, a caller waits for one, on its own thread.
final class PostgreSQLReaderPool: Sendable {
    // Why Sendable holds: the readers (whose connections are not thread-safe) live in `idle`
    // behind the lock while no one uses them, and are used by the one caller that took them
    // out, so a connection is used by one thread at a time, each use happening-after the
    // previous one (the lock orders the hand-over). `schema` is immutable and shared.
    private struct State {
        var idle: [PostgreSQLReader] = []
        var isClosed = false
    }

    /// How many readers a store opens at most: as many as the SQLite store's, enough for a few
    /// threads reading at once. Not an option: each is a server process, counted against the
    /// server's `max_connections` with every other instance's, and libpq's URL parameters (the
    /// store's options) have no such setting to borrow.
    static let capacity = 4

    private let state = Locked(State())
    /// Counts the readers free to hand out, opened or not.
    private let slots = DispatchSemaphore(value: capacity)
    private let schema: PostgreSQLStoreTables

    init(schema: PostgreSQLStoreTables) {
        self.schema = schema
    }

    /// Runs `body` with a reader no one else is using, and once more when the reader's
    /// connection was lost under it (the server restarted): a read changes nothing, and the
    /// second run connects again. Throws once the pool is closed.
    func read<T>(_ body: (PostgreSQLReader) throws -> T) throws -> T {
        slots.wait()
        defer { slots.signal() }
        let reader = try checkOut()
        defer { checkIn(reader) }
        let losses = reader.connection.losses
        do {
            return try body(reader)
        } catch  where reader.connection.losses != losses {
            return try body(reader)
        }
    }

    /// Closes the idle readers now and the others as they come back; later reads throw.
    func close() {
        let idle = state.withLock { state in
            state.isClosed = true
            defer { state.idle.removeAll() }
            return state.idle
        }
        for reader in idle { reader.connection.close() }
    }

    private func checkOut() throws -> PostgreSQLReader {
        let idle = try state.withLock { state in
            guard !state.isClosed else {
                throw ObjectGraphError(.invalidOperation, "The PostgreSQL store at \(schema.location) is closed")
            }
            return state.idle.popLast()
        }
        // A new reader connects at its first statement, outside the lock, a slot already held;
        // failing to, the read fails as one on a lost connection does.
        return idle ?? PostgreSQLReader(connection: PostgreSQLConnection(connectingAtFirstStatement: schema.location), schema: schema)
    }

    private func checkIn(_ reader: PostgreSQLReader) {
        let closed = state.withLock { state in
            if !state.isClosed { state.idle.append(reader) }
            return state.isClosed
        }
        if closed { reader.connection.close() }
    }
}
