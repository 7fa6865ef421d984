import Foundation

/// The command line. Hand-parsed: the benchmark depends on nothing it does not measure.
struct Options {
    /// The PostgreSQL backends run only when named.
    var backends = BackendKind.allCases.filter { !$0.isPostgreSQL }
    var workloads = Workload.allCases
    /// `--n`: the row counts of every workload; `nil` runs each at its own `defaultCounts`
    /// (100,000 and 20,000 for W, G and Q1–Q4, 1,000,000 for M1 and Q5–Q7).
    var explicitCounts: [Int]?
    var repetitions = 5
    var queries = 100
    var lookups = 10_000
    var seed = Dataset.defaultSeed
    var directory: URL?
    var keep = false
    /// Print each child's command line instead of running it (to profile one run).
    var printCommands = false
    var modelsDirectory = Options.defaultModelsDirectory
    /// `--postgres-url`: the server of the PostgreSQL backends (else the benchmark starts its own).
    var postgresURL: URL?
    /// Set in a child process: the JSON request to carry out.
    var childRequest: ChildRequest?

    static let usage = """
        USAGE: objectgraph-bench [options]

          --backends LIST     raw,grdb,objectgraph,objectgraph-typed,objectgraph-prepared,pgraw,
                              objectgraph-pg (default: all but the PostgreSQL ones;
                              objectgraph-typed = the generated Person class, W1 and W2;
                              objectgraph-prepared = W5 on objects fetched and W6 on object
                              IDs built before the timer; pgraw = postgres-nio by hand
                              and objectgraph-pg = ObjectGraph's PostgreSQL store, W1–W6)
          --workloads LIST    W1,W2,W3,W3i,W4,W5,W6,G1,G2,G3,G4,M1,Q1,…,Q7,C1,C2, or the groups
                              W, G, M, Q, C, all (default: all; W3i = W3 with an index on age;
                              G = the object graph of N/10 authors × 10 books, raw and
                              objectgraph only; M1 = iterate N rows in fetch batches of 500,
                              peak memory; Q = issue 4's queries (Q1–Q4) and batch update,
                              delete and insert (Q5–Q7), raw and objectgraph only; C = issue
                              5's fetch latency during a large save (C1) and 4 concurrent
                              writers (C2), raw and objectgraph only)
          --n LIST            row counts of every chosen workload; books for G1–G4 and Q3
                              (default: 100000,20000 for W, G and Q1–Q4; 1000000 for M1
                              and Q5–Q7; 100000 for C1 and C2)
          --repetitions K     counted repetitions after the warm-up (default: 5)
          --queries K         W3 and Q1 queries per repetition (default: 100)
          --lookups K         W6 lookups per repetition (default: 10000)
          --seed S            data seed (default: \(Dataset.defaultSeed))
          --dir PATH          where the stores go (default: a new folder in the temporary directory)
          --keep              keep the stores afterwards
          --print-commands    print each child's command line instead of running it, to run one
                              under a profiler (use with --dir and --keep)
          --postgres-url URL  postgres://user[:password]@host:port/database of a server where
                              the user may create databases, for pgraw and objectgraph-pg
                              (default: a server of the benchmark's own, started with initdb
                              and pg_ctl on a loopback port, PostgreSQL's default settings)
          --models PATH       folder with Benchmark.json, BenchmarkIndexed.json and
                              BenchmarkGraph.json
                              (default: \(Options.defaultModelsDirectory.path))

        Quick check: objectgraph-bench --n 2000 --repetitions 1

        Modes with drivers of their own (first argument):
          --migration [N] [REPETITIONS]   M2, migrating N Person rows through a table rebuild
                                          (default: 1000000, 5)
          --backup-under-load [N] [K] [BACKUP_DIR]
                                          K backups of a store of N Person rows while 4 contexts
                                          save continuously (default: 200000, 5, beside the store)
          --remote-change-latency [SAVES] [POSTGRES_URL]
                                          commit-to-merge latency of another process's saves
                                          (mergesRemoteChanges), p50/p99, on SQLite and, given
                                          the URL of an empty database, PostgreSQL (default: 200)
        """

    /// `Models/` of the main package, found from this source file's location.
    static var defaultModelsDirectory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent() // ObjectGraphBench
            .deletingLastPathComponent() // Sources
            .deletingLastPathComponent() // Benchmarks
            .deletingLastPathComponent() // the main package
            .appendingPathComponent("Models")
    }

    /// The row counts `workload` runs at.
    func counts(for workload: Workload) -> [Int] {
        explicitCounts ?? workload.defaultCounts
    }

    /// Every row count some chosen workload runs at, in the order they first appear.
    var allCounts: [Int] {
        var all: [Int] = []
        for workload in workloads {
            for count in counts(for: workload) where !all.contains(count) { all.append(count) }
        }
        return all
    }

    init(arguments: [String]) throws {
        var remaining = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let next = remaining.popFirst() else { throw OptionError("\(flag) needs a value") }
            return next
        }
        func list<T>(_ flag: String, _ parse: (String) -> T?) throws -> [T] {
            try value(flag).split(separator: ",").map { item in
                guard let parsed = parse(item.trimmingCharacters(in: .whitespaces)) else {
                    throw OptionError("\(flag): unknown value '\(item)'")
                }
                return parsed
            }
        }
        func integer(_ flag: String) throws -> Int {
            guard let parsed = Int(try value(flag)), parsed >= 0 else { throw OptionError("\(flag) needs a non-negative integer") }
            return parsed
        }

        while let flag = remaining.popFirst() {
            switch flag {
            case "--backends": backends = try list(flag) { BackendKind(rawValue: $0.lowercased()) }
            case "--workloads":
                var chosen: [Workload] = []
                for workload in try list(flag, Workload.named).joined() where !chosen.contains(workload) { chosen.append(workload) }
                workloads = chosen
            case "--n": explicitCounts = try list(flag) { Int($0.replacingOccurrences(of: "_", with: "")).flatMap { $0 > 1 ? $0 : nil } }
            case "--repetitions": repetitions = max(1, try integer(flag))
            case "--queries": queries = try integer(flag)
            case "--lookups": lookups = try integer(flag)
            case "--seed":
                guard let parsed = UInt64(try value(flag)) else { throw OptionError("--seed needs an unsigned integer") }
                seed = parsed
            case "--dir": directory = URL(fileURLWithPath: try value(flag))
            case "--keep": keep = true
            case "--print-commands": printCommands = true
            case "--models": modelsDirectory = URL(fileURLWithPath: try value(flag))
            case "--postgres-url":
                guard let url = URL(string: try value(flag)), url.scheme?.hasPrefix("postgres") == true else {
                    throw OptionError("--postgres-url needs a postgres:// URL")
                }
                postgresURL = url
            case "--child-request":
                childRequest = try JSONDecoder().decode(ChildRequest.self, from: Data(try value(flag).utf8))
            case "--help", "-h": throw OptionError(nil)
            default: throw OptionError("unknown option '\(flag)'")
            }
        }
    }
}

/// A bad command line; `message == nil` asks for the usage alone.
struct OptionError: Error {
    var message: String?
    init(_ message: String?) { self.message = message }
}
