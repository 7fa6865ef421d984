/// The workloads of shared/BENCHMARKS.md (`Person`, W1–W6; `w3Indexed` is W3 against a store with
/// an index on `age`), the object-graph workloads of issue 3 (`Author` ↔ `Book`, G1–G4) and the
/// memory workload M1 (iterating `Person` through a batched fetch, at its own default N).
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
        }
    }

    /// Whether the workload starts from a populated store (all but W1 and G1).
    var needsPopulatedStore: Bool { self != .w1 && self != .g1 }

    /// Whether the store it starts from has the index on `age`.
    var indexed: Bool { self == .w3Indexed }

    /// Whether it works on the `Author` ↔ `Book` graph (`Models/BenchmarkGraph.json`) rather than
    /// on `Person`.
    var isGraph: Bool {
        switch self {
        case .g1, .g2, .g3, .g4: true
        case .w1, .w2, .w3, .w3Indexed, .w4, .w5, .w6, .m1: false
        }
    }

    /// Whether it is a memory workload (M1): judged by its peak RSS, and run by default at
    /// `defaultCounts` rather than at the W and G row counts.
    var isMemory: Bool { self == .m1 }

    /// The row counts it runs at when `--n` is not given.
    var defaultCounts: [Int] { isMemory ? [1_000_000] : [100_000, 20_000] }

    /// Whether `backend` runs it: GRDB does not run the object-graph workloads.
    func runs(on backend: BackendKind) -> Bool { !(isGraph && backend == .grdb) }

    /// The populated store it starts from, as a file-name suffix: one per data set and schema.
    var storeVariant: String { isGraph ? "-graph" : indexed ? "-indexed" : "" }

    /// The workloads a `--workloads` item names: one workload, or `W` (W1–W6 with W3i), `G`
    /// (G1–G4), `M` (M1) or `all`.
    static func named(_ name: String) -> [Workload]? {
        switch name.lowercased() {
        case "all": allCases
        case "w": allCases.filter { !$0.isGraph && !$0.isMemory }
        case "g": allCases.filter(\.isGraph)
        case "m": allCases.filter(\.isMemory)
        default: allCases.first { $0.rawValue.lowercased() == name.lowercased() }.map { [$0] }
        }
    }
}

/// The three things measured.
enum BackendKind: String, CaseIterable, Codable, Sendable {
    case raw
    case grdb
    case objectGraph = "objectgraph"

    /// The name printed in tables.
    var displayName: String {
        switch self {
        case .raw: "raw SQLite"
        case .grdb: "GRDB 7.10"
        case .objectGraph: "ObjectGraph"
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
    /// The data seed.
    var seed = Dataset.defaultSeed

    /// W4's change: deterministic, and different from the old score for every generated value (0–100).
    static func newScore(_ old: Double) -> Double { 200.25 - old }
}
