/// The workloads of shared/BENCHMARKS.md (`Person`, W1–W6; `w3Indexed` is W3 against a store with
/// an index on `age`), the object-graph workloads of issue 3 (`Author` ↔ `Book`, G1–G4), the
/// memory workload M1 (iterating `Person` through a batched fetch, at its own default N) and the
/// query-language workloads of issue 4 (Q1–Q7: predicates, a grouped aggregate, batch update,
/// delete and insert; Q3 on the object graph, the others on `Person`) and the concurrency
/// workloads of issue 5 (C1: fetch latency during a large save; C2: four writers of small
/// transactions).
enum Workload: String, CaseIterable, Codable, Sendable {
    case w1 = "W1"
    case w2 = "W2"
    case w3 = "W3"
    case w3Indexed = "W3i"
    case w4 = "W4"
    case w5 = "W5"
    case w6 = "W6"
    case g1 = "G1"
    case g2 = "G2"
    case g3 = "G3"
    case g4 = "G4"
    case m1 = "M1"
    case q1 = "Q1"
    case q2 = "Q2"
    case q3 = "Q3"
    case q4 = "Q4"
    case q5 = "Q5"
    case q6 = "Q6"
    case q7 = "Q7"
    case c1 = "C1"
    case c2 = "C2"

    /// What the workload does, for the report.
    var summary: String {
        switch self {
        case .w1: "insert N, one transaction, fresh store"
        case .w2: "fetch all N, read every attribute"
        case .w3: "age BETWEEN 30 AND 40, sort name, limit 1000, ×100"
        case .w3Indexed: "W3 with an index on age"
        case .w4: "fetch all N, change score, save"
        case .w5: "delete every other row (N/2), save"
        case .w6: "key / object-ID lookups, random order, fresh context"
        case .g1: "create N/10 authors × 10 books, save, fresh store"
        case .g2: "fetch all N books, author prefetched, read both"
        case .g3: "all authors → books (prefetched), read every book"
        case .g4: "cascade-delete all authors (and N books), save"
        case .m1: "iterate all N in fetch batches of 500, read name"
        case .q1: "age == 42 (indexed), sort name, read names, ×100"
        case .q2: "name CONTAINS[cd] \"ob\", read names, ×20"
        case .q3: "authors: ANY books.title BEGINSWITH \"Be\", ×20"
        case .q4: "GROUP BY age: count, average score, ×5"
        case .q5: "batch update score where age < 49 (~N/2)"
        case .q6: "batch delete where age < 49 (~N/2)"
        case .q7: "batch insert N rows, one transaction, fresh store"
        case .c1: "age == 42 limit 10: latency during a save of N new rows / idle"
        case .c2: "4 writers × 1,000 transactions (insert one, change one)"
        }
    }

    /// The group a `--workloads` letter names: W, G, M, Q or C.
    var group: String { String(rawValue.prefix(1)) }

    /// Whether it is one of issue 4's query-language workloads (Q1–Q7).
    var isQuery: Bool { group == "Q" }

    /// Whether it is one of issue 5's concurrency workloads (C1, C2).
    var isConcurrency: Bool { group == "C" }

    /// Whether it works on a `Person` store with exactly ObjectGraph's table (`_pk`, `_version`
    /// and the attributes), which the raw backend then creates too: Q1, Q2, Q4–Q7, C1 and C2.
    /// (The W workloads' raw table is keyed by `id` and has no `_version`.)
    var usesObjectGraphPersonTable: Bool { (isQuery || isConcurrency) && !isGraph }

    /// Whether it is a batch operation (Q5–Q7), whose target is ≤ 1.5× raw; the other query
    /// workloads are fetches, whose target is ≤ 2.0× raw.
    var isBatch: Bool { self == .q5 || self == .q6 || self == .q7 }

    /// Whether the workload starts from a populated store (all but the inserts W1, G1 and Q7).
    var needsPopulatedStore: Bool { self != .w1 && self != .g1 && self != .q7 }

    /// Whether the store it starts from has the index on `age`.
    var indexed: Bool { self == .w3Indexed || self == .q1 || self == .c1 }

    /// Whether it works on the `Author` ↔ `Book` graph (`Models/BenchmarkGraph.json`) rather than
    /// on `Person`.
    var isGraph: Bool {
        switch self {
        case .g1, .g2, .g3, .g4, .q3: true
        case .w1, .w2, .w3, .w3Indexed, .w4, .w5, .w6, .m1, .q1, .q2, .q4, .q5, .q6, .q7, .c1, .c2: false
        }
    }

    /// Whether it is a memory workload (M1): judged by its peak RSS, and run by default at
    /// `defaultCounts` rather than at the W and G row counts.
    var isMemory: Bool { self == .m1 }

    /// The row counts it runs at when `--n` is not given: 1,000,000 for M1 and for the batch
    /// operations (so that Q5 and Q6 change ~500,000 rows and Q7 inserts a million), 100,000
    /// for the concurrency workloads (C1 saves N new rows), 100,000 and 20,000 for the others.
    var defaultCounts: [Int] {
        if isMemory || isBatch { return [1_000_000] }
        return isConcurrency ? [100_000] : [100_000, 20_000]
    }

    /// Whether `backend` runs it: GRDB does not run the object-graph, query or concurrency workloads.
    /// The typed backend runs only W1 and W2, the workloads issue 6 compares with dynamic access;
    /// the prepared one W5 and W6, the workloads with an untimed shortcut to compare with;
    /// the PostgreSQL backends W1–W6 and W3i (issue 20).
    func runs(on backend: BackendKind) -> Bool {
        switch backend {
        case .grdb: !(isGraph || isQuery || isConcurrency)
        case .objectGraphTyped: self == .w1 || self == .w2
        case .objectGraphPrepared: self == .w5 || self == .w6
        case .postgresRaw, .objectGraphPostgres: group == "W"
        case .raw, .objectGraph: true
        }
    }

    /// The populated store `backend` starts from, as a file-name suffix: one per data set and
    /// schema. ObjectGraph's `Person` stores are the same for the W, M and Q workloads; raw
    /// SQLite's Q stores have ObjectGraph's table, unlike its W stores.
    func storeVariant(for backend: BackendKind) -> String {
        if isGraph { return "-graph" }
        let table = usesObjectGraphPersonTable && backend == .raw ? "-ogtable" : ""
        return table + (indexed ? "-indexed" : "")
    }

    /// The workloads a `--workloads` item names: one workload, or `W` (W1–W6 with W3i), `G`
    /// (G1–G4), `M` (M1), `Q` (Q1–Q7), `C` (C1, C2) or `all`.
    static func named(_ name: String) -> [Workload]? {
        switch name.lowercased() {
        case "all": allCases
        case "w", "g", "m", "q", "c": allCases.filter { $0.group.lowercased() == name.lowercased() }
        default: allCases.first { $0.rawValue.lowercased() == name.lowercased() }.map { [$0] }
        }
    }
}

/// The three things measured.
enum BackendKind: String, CaseIterable, Codable, Sendable {
    case raw
    case grdb
    case objectGraph = "objectgraph"
    /// ObjectGraph through the generated `Person` class's typed properties (issue 6): W1 and W2.
    case objectGraphTyped = "objectgraph-typed"
    /// ObjectGraph with the untimed shortcuts issue 21's user's path leaves out: W5 deletes objects
    /// fetched before the timer, W6 looks up object IDs built before it.
    case objectGraphPrepared = "objectgraph-prepared"
    /// postgres-nio by hand against a PostgreSQL server (issue 20): W1–W6.
    case postgresRaw = "pgraw"
    /// ObjectGraph's PostgreSQL store on the same server: W1–W6.
    case objectGraphPostgres = "objectgraph-pg"

    /// Whether its store is a PostgreSQL database rather than a SQLite file.
    var isPostgreSQL: Bool { self == .postgresRaw || self == .objectGraphPostgres }

    /// The backend whose populated store it starts from: the prepared variant reads ObjectGraph's.
    var storeOwner: BackendKind { self == .objectGraphPrepared ? .objectGraph : self }

    /// The backend its ratios are taken against: raw SQLite, or raw postgres-nio for ObjectGraph
    /// on PostgreSQL.
    var baseline: BackendKind { isPostgreSQL ? .postgresRaw : .raw }

    /// The name printed in tables.
    var displayName: String {
        switch self {
        case .raw: "raw SQLite"
        case .grdb: "GRDB 7.10"
        case .objectGraph: "ObjectGraph"
        case .objectGraphTyped: "ObjectGraph typed"
        case .objectGraphPrepared: "ObjectGraph prepared"
        case .postgresRaw: "raw PG"
        case .objectGraphPostgres: "ObjectGraph PG"
        }
    }
}

/// Parameters every workload shares.
struct WorkloadParameters: Codable, Sendable {
    /// Rows in the store (N).
    var count: Int
    /// W3: how many times the query runs per repetition.
    var queries = 100
    /// W3: the fetch limit.
    var queryLimit = 1000
    /// W3: the inclusive age range.
    var ageRange: ClosedRange<Int64> = 30...40
    /// W6: how many lookups per repetition.
    var lookups = 10000
    /// M1: the fetch batch size (ObjectGraph's `fetch(_:batchSize:)`).
    var fetchBatchSize = 500
    /// Q1: the age every fetched `Person` has (`age == 42`); Q1 runs `queries` times.
    var equalAge: Int64 = 42
    /// Q2: the `CONTAINS[cd]` needle (ASCII, lower case: matches about 3% of the names, a few
    /// of them only thanks to `[c]`, those starting with "Ob").
    var nameNeedle = "ob"
    /// Q2 and Q3: queries per repetition.
    var searches = 20
    /// Q3: the `BEGINSWITH` prefix of some book title of every fetched author (about 1% of them).
    var titlePrefix = "Be"
    /// Q4: queries per repetition.
    var aggregates = 5
    /// Q5 and Q6: the batch changes every `Person` with `age` below this (18–48 of 18–80: 31 of
    /// the 63 ages, 49% of the rows).
    var batchAgeLimit: Int64 = 49
    /// Q5: the score every matching row gets. A few rows may hold it already, so the check reads
    /// the rows' `_version`s too: exactly the matching rows must have gone from 1 to 2.
    var batchScore = 1.5
    /// C1: the fetch's limit (the first rows with `age == equalAge`, in key order) …
    var smallFetchLimit = 10
    /// … and how many fetches measure its idle latency.
    var latencySamples = 200
    /// C2: writer threads (each with its own context or connection) and transactions each, at
    /// most: each transaction changes a row of its own, so fewer when N is small (`--n 2000`).
    var concurrentWriters = 4
    var transactionsPerWriter = 1_000

    /// C2's transactions per writer at this N.
    var writerTransactions: Int { min(transactionsPerWriter, count / concurrentWriters) }
    /// The data seed.
    var seed = Dataset.defaultSeed

    /// W4's change: deterministic, and different from the old score for every generated value (0–100).
    static func newScore(_ old: Double) -> Double { 200.25 - old }
}
