import Foundation

/// What the driver asks a child process to do, passed as one JSON argument.
struct ChildRequest: Codable, Sendable {
    enum Task: String, Codable, Sendable {
        /// Build a populated store (the backend's own W1 path) to copy before each repetition.
        case prepare
        /// Measure one workload.
        case run
    }

    var task: Task
    var backend: BackendKind
    var workload: Workload
    var parameters: WorkloadParameters
    var repetitions: Int
    /// The populated store to start from (prepare: the one to build).
    var template: URL
    /// The store the repetitions work on.
    var work: URL
    var modelsDirectory: URL
    /// The PostgreSQL server of the PostgreSQL backends (a URL of its administrative database);
    /// their stores are databases named after `template` and `work` (see `PostgreSQLDatabases`).
    var postgresURL: URL? = nil

    /// Where the backend's store for `file` (`template` or `work`) is: for the PostgreSQL backends,
    /// the database standing for it.
    func location(of file: URL) -> StoreLocation {
        var location = StoreLocation(url: file, indexed: workload.indexed, modelsDirectory: modelsDirectory)
        if backend.isPostgreSQL, let postgresURL {
            location.postgresURL = PostgreSQLDatabases.url(postgresURL, database: PostgreSQLDatabases.name(for: file))
        }
        return location
    }

    /// Makes the store at `file` empty, or a copy of `template`'s (untimed).
    func reset(_ file: URL, from template: URL?) throws {
        if backend.isPostgreSQL, let postgresURL {
            try PostgreSQLDatabases.recreate(
                PostgreSQLDatabases.name(for: file), from: template.map(PostgreSQLDatabases.name(for:)), server: postgresURL)
            return
        }
        removeDatabase(at: file)
        if let template { try FileManager.default.copyItem(at: template, to: file) }
    }
}

/// Every `Person` row of the store at `location`, checksummed with plain SQL.
func personTableChecksum(at location: StoreLocation) throws -> Checksum {
    try location.postgresURL.map(PostgreSQLDatabases.personChecksum(at:)) ?? tableChecksum(at: location.url)
}

/// One measured (backend, workload, N), as the child reports it to the driver.
struct RunResult: Codable, Sendable {
    var backend: BackendKind
    var workload: Workload
    var count: Int
    var rowsPerRepetition: Int
    var warmUpSeconds: Double
    var seconds: [Double]
    /// `VmHWM` after the warm-up run, counted from a reset just before its timed part.
    var peakKB: Int
    /// `VmRSS` at that reset: the process, its libraries, the generated data, the open store
    /// and whatever the workload's setup keeps (W5's fetched objects).
    var baselineKB: Int
    var checksum: String
    /// C1's latencies (the time columns then hold the whole workload).
    var latencies: LatencyFigures?

    var median: Double { let sorted = seconds.sorted(); return sorted[sorted.count / 2] }
    var min: Double { seconds.min() ?? 0 }
    var max: Double { seconds.max() ?? 0 }
    var rowsPerSecond: Double { Double(rowsPerRepetition) / median }
}

/// A wrong answer: the run stops and the driver reports it loudly.
struct VerificationFailure: Error, CustomStringConvertible {
    var description: String
}

/// The child side: runs what `request` asks in this process.
enum Worker {
    /// The prefix of the single stdout line that carries the result.
    static let resultMarker = "RESULT "

    static func prepare(_ request: ChildRequest) throws {
        try request.reset(request.template, from: nil)
        let location = request.location(of: request.template)
        let expected: Checksum?
        let found: Checksum
        if request.workload.isGraph {
            let graph = GraphDataset(bookCount: request.parameters.count, seed: request.parameters.seed)
            let backend = try openGraphBackend(request.backend, at: location)
            try backend.insertGraph(graph)
            try backend.close()
            expected = Expectation(.g1, graph: graph, parameters: request.parameters).table
            found = try graphTableChecksum(at: request.template)
        } else {
            let dataset = Dataset(count: request.parameters.count, seed: request.parameters.seed)
            if request.workload.usesObjectGraphPersonTable && request.backend == .raw {
                // ObjectGraph's table, filled by raw SQLite (ObjectGraph's own W1 path fills its store).
                let backend = try RawSQLiteQueryBackend(location: location)
                try backend.insert(dataset.rows)
                try backend.close()
            } else {
                let backend = try openBackend(request.backend, at: location)
                try backend.insert(dataset.rows)
                try backend.close()
            }
            expected = Expectation(.w1, dataset: dataset, parameters: request.parameters).table
            found = try personTableChecksum(at: location)
            if let postgresURL = location.postgresURL { try PostgreSQLDatabases.settle(at: postgresURL) }
        }
        guard found == expected else {
            throw VerificationFailure(description: "prepared \(request.backend.rawValue) store holds \(found), expected \(expected.map(String.init(describing:)) ?? "?")")
        }
    }

    static func run(_ request: ChildRequest) throws -> RunResult {
        let expectation = Expectation(request.workload, parameters: request.parameters)
        let location = request.location(of: request.work)
        let clock = ContinuousClock()
        var seconds: [Double] = []
        var warmUpSeconds = 0.0
        var peakKB = 0
        var checksum = ""
        var baselineKB = 0
        var latencyRuns: [FetchLatencies] = []

        for repetition in 0...request.repetitions {
            try request.reset(request.work, from: request.workload.needsPopulatedStore ? request.template : nil)
            let store = try OpenStore(request.backend, for: request.workload, at: location)
            try prepare(request.workload, store: store, expectation: expectation)
            if repetition == 0 {
                // Measure the warm-up's timed work alone, not the data generation or the setup.
                baselineKB = ProcessMemory.resetPeak()
            }

            let start = clock.now
            let outcome = try perform(request.workload, store: store, expectation: expectation, parameters: request.parameters)
            let elapsed = (clock.now - start).seconds

            try store.close()
            if case .latencies(let latencies) = outcome, repetition > 0 { latencyRuns.append(latencies) }
            let label = "\(request.backend.rawValue) \(request.workload.rawValue) N=\(request.parameters.count) repetition \(repetition)"
            checksum = try verify(outcome, against: expectation, store: location, label: label)
            if repetition == 0 {
                warmUpSeconds = elapsed
                peakKB = ProcessMemory.peakKB
            } else {
                seconds.append(elapsed)
            }
        }
        if request.backend.isPostgreSQL, let server = request.postgresURL {
            try PostgreSQLDatabases.drop(PostgreSQLDatabases.name(for: request.work), server: server)
        }
        removeDatabase(at: request.work)
        return RunResult(
            backend: request.backend, workload: request.workload, count: request.parameters.count,
            rowsPerRepetition: expectation.rowsPerRepetition, warmUpSeconds: warmUpSeconds, seconds: seconds,
            peakKB: peakKB, baselineKB: baselineKB, checksum: checksum,
            latencies: latencyRuns.isEmpty ? nil : LatencyFigures(latencyRuns)
        )
    }

    /// What the timed part produced.
    private enum Outcome {
        case checksum(Checksum)
        case count(Int)
        /// Q4: the groups each query returned.
        case groups([[AgeGroup]])
        /// C1: the latencies, and the rows every fetch returned.
        case latencies(FetchLatencies)
        case nothing
    }

    /// An open store of either data set (`query`: `Person` in ObjectGraph's table).
    private enum OpenStore {
        case person(any Backend)
        case graph(any GraphBackend)
        case query(any QueryBackend)
        case concurrency(any ConcurrencyBackend)

        init(_ kind: BackendKind, for workload: Workload, at location: StoreLocation) throws {
            if workload.isGraph {
                self = .graph(try openGraphBackend(kind, at: location))
            } else if workload.isConcurrency {
                self = .concurrency(try openConcurrencyBackend(kind, at: location))
            } else if workload.usesObjectGraphPersonTable {
                self = .query(try openQueryBackend(kind, at: location))
            } else {
                self = .person(try openBackend(kind, at: location))
            }
        }

        func close() throws {
            switch self {
            case .person(let backend): try backend.close()
            case .graph(let backend): try backend.close()
            case .query(let backend): try backend.close()
            case .concurrency(let backend): try backend.close()
            }
        }
    }

    private static func prepare(_ workload: Workload, store: OpenStore, expectation: Expectation) throws {
        switch (workload, store) {
        case (.w5, .person(let backend)): try backend.prepareDelete(ids: expectation.ids)
        case (.w6, .person(let backend)): try backend.prepareLookups(ids: expectation.ids)
        case (.g4, .graph(let backend)): try backend.prepareCascadeDelete()
        default: break
        }
    }

    private static func perform(_ workload: Workload, store: OpenStore, expectation: Expectation, parameters: WorkloadParameters) throws -> Outcome {
        switch (workload, store) {
        case (.w1, .person(let backend)): try backend.insert(expectation.rows); return .nothing
        case (.w2, .person(let backend)): return .checksum(try backend.fetchAll())
        case (.w3, .person(let backend)), (.w3Indexed, .person(let backend)): return .checksum(try backend.queryAgeRange(parameters))
        case (.w4, .person(let backend)): return .checksum(try backend.updateAllScores())
        case (.w5, .person(let backend)): return .count(try backend.deletePrepared())
        case (.w6, .person(let backend)): return .checksum(try backend.lookUpPrepared())
        case (.m1, .person(let backend)): return .checksum(try backend.iterateNames(batchSize: parameters.fetchBatchSize))
        case (.g1, .graph(let backend)):
            guard let graph = expectation.graph else { throw VerificationFailure(description: "G1 has no input graph") }
            try backend.insertGraph(graph)
            return .nothing
        case (.g2, .graph(let backend)): return .checksum(try backend.fetchBooksWithAuthors())
        case (.g3, .graph(let backend)): return .checksum(try backend.walkAuthorsToBooks())
        case (.g4, .graph(let backend)): try backend.deleteAuthorsCascading(); return .nothing
        case (.q1, .query(let backend)): return .checksum(try backend.fetchEqualAgeSortedByName(parameters))
        case (.q2, .query(let backend)): return .checksum(try backend.searchNames(parameters))
        case (.q3, .graph(let backend)): return .checksum(try backend.authorsWithBookTitle(prefix: parameters.titlePrefix, queries: parameters.searches))
        case (.q4, .query(let backend)): return .groups(try backend.averageScoreByAge(parameters))
        case (.q5, .query(let backend)): return .count(try backend.batchUpdateScores(parameters))
        case (.q6, .query(let backend)): return .count(try backend.batchDelete(parameters))
        case (.c1, .concurrency(let backend)): return .latencies(try backend.fetchLatencies(parameters, newRows: expectation.rows))
        case (.c2, .concurrency(let backend)): return .count(try backend.concurrentSmallSaves(parameters, newRows: expectation.rows))
        case (.q7, .query(let backend)):
            guard let people = expectation.people else { throw VerificationFailure(description: "Q7 has no rows to insert") }
            return .count(try backend.batchInsert(people))
        default: throw VerificationFailure(description: "\(workload.rawValue) does not run on this store")
        }
    }

    /// Checks what the timed work returned and, for writes, the whole table it left behind;
    /// returns the checksum to report.
    private static func verify(_ outcome: Outcome, against expectation: Expectation, store: StoreLocation, label: String) throws -> String {
        var reported = ""
        switch outcome {
        case .checksum(let checksum):
            guard checksum == expectation.result else {
                throw VerificationFailure(description: "\(label): read \(checksum), expected \(expectation.result.map(String.init(describing:)) ?? "nothing")")
            }
            reported = checksum.description
        case .count(let count):
            guard count == expectation.resultCount else {
                throw VerificationFailure(description: "\(label): changed \(count) rows, expected \(expectation.resultCount ?? 0)")
            }
            reported = "\(count) \(expectation.countedChange)"
        case .groups(let results):
            guard let expected = expectation.groups else { throw VerificationFailure(description: "\(label): no expected groups") }
            guard results.count == expected.count else {
                throw VerificationFailure(description: "\(label): \(results.count) queries ran, expected \(expected.count)")
            }
            for (query, (groups, wantedGroups)) in zip(results, expected).enumerated() {
                let matches = groups.count == wantedGroups.count && zip(groups, wantedGroups).allSatisfy { found, wanted in
                    found.age == wanted.age && found.count == wanted.count
                        && abs(found.meanScore - wanted.meanScore) <= 1e-9 * max(1, abs(wanted.meanScore))
                }
                guard matches else {
                    throw VerificationFailure(description: "\(label): query \(query + 1) returned \(groups), expected \(wantedGroups)")
                }
            }
            let first = expected.first ?? []
            reported = "\(results.count) × \(first.count) groups of \(first.reduce(0) { $0 + $1.count }) rows"
        case .latencies(let latencies):
            guard latencies.rows == expectation.result else {
                throw VerificationFailure(description: "\(label): the fetches read \(latencies.rows), expected \(expectation.result.map(String.init(describing:)) ?? "nothing")")
            }
            reported = "\(latencies.idle.count) idle and \(latencies.during.count) fetches during the save read \(latencies.rows)"
        case .nothing:
            break
        }
        if let bumps = expectation.versionBumps {
            let found = try versionBumps(at: store.url)
            guard found == bumps else {
                throw VerificationFailure(description: "\(label): \(found) rows at version 2, expected \(bumps)")
            }
            reported += "; \(found) at version 2"
        }
        if let expected = expectation.table {
            let found = try expectation.tableIsGraph ? graphTableChecksum(at: store.url) : personTableChecksum(at: store)
            guard found == expected else {
                throw VerificationFailure(description: "\(label): the store holds \(found), expected \(expected)")
            }
            reported += (reported.isEmpty ? "" : "; ") + "table \(found)"
        }
        return reported
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}
