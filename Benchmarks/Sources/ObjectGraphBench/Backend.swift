import Foundation

/// One way of storing `Person` rows. Each instance is one open store; `open` and `close` are
/// not timed, every other method is (including its commit), except the `prepare…` ones, which
/// do the untimed setup a workload needs (finding the objects to delete or look up).
protocol Backend: AnyObject {
    /// W1: creates one object per row and saves them in one transaction.
    func insert(_ rows: [PersonRow]) throws

    /// W2: fetches every row into objects and reads every attribute of each.
    func fetchAll() throws -> Checksum

    /// W3: runs the age-range query `parameters.queries` times, reading every attribute of every
    /// result, in result order.
    func queryAgeRange(_ parameters: WorkloadParameters) throws -> Checksum

    /// W4: fetches every row, reads every attribute, sets `score` to
    /// `WorkloadParameters.newScore(score)` and saves in one transaction. Returns what it read.
    func updateAllScores() throws -> Checksum

    /// W5 setup: finds the objects with these ids.
    func prepareDelete(ids: [Int64]) throws
    /// W5: deletes the prepared objects and saves in one transaction; returns how many.
    func deletePrepared() throws -> Int

    /// W6 setup: finds whatever a lookup of these ids needs (nothing for a key, an object ID for
    /// ObjectGraph), in this order.
    func prepareLookups(ids: [Int64]) throws
    /// W6: looks each prepared key up on a fresh context and reads every attribute, in order.
    func lookUpPrepared() throws -> Checksum

    /// M1: iterates every row once, reading only `name`, with memory bounded by `batchSize`
    /// rather than by N (ObjectGraph: `fetch(_:batchSize:)`; raw SQLite and GRDB stream one
    /// statement). Returns the order-independent checksum of the names.
    func iterateNames(batchSize: Int) throws -> Checksum

    /// Closes the store, flushing nothing that a commit has not already made durable.
    func close() throws
}

/// Where a backend's store lives and which model variant it uses.
struct StoreLocation: Sendable {
    /// The database file.
    var url: URL
    /// Whether `age` is indexed (W3i).
    var indexed: Bool
    /// The folder holding Benchmark.json, BenchmarkIndexed.json and BenchmarkGraph.json
    /// (ObjectGraph only).
    var modelsDirectory: URL
    /// For the PostgreSQL backends: the database that stands for `url` (see `PostgreSQLDatabases`).
    var postgresURL: URL? = nil
}

/// Opens (creating if needed) the store of `kind` at `location`. Not timed.
func openBackend(_ kind: BackendKind, at location: StoreLocation) throws -> any Backend {
    switch kind {
    case .raw: try RawSQLiteBackend(location: location)
    case .grdb: try GRDBBackend(location: location)
    case .objectGraph: try ObjectGraphBackend(location: location)
    case .objectGraphTyped: try ObjectGraphBackend(location: location, typed: true)
    case .objectGraphPrepared: try ObjectGraphBackend(location: location, prepared: true)
    case .postgresRaw: try RawPostgreSQLBackend(location: location)
    case .objectGraphPostgres: try ObjectGraphBackend(location: location)
    }
}

/// Removes a SQLite database and its WAL side files.
func removeDatabase(at url: URL) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        try? FileManager.default.removeItem(atPath: url.path + suffix)
    }
}
