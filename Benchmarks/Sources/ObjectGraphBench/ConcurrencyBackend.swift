import Foundation
import Synchronization

/// Issue 5's workloads on `Person` (in ObjectGraph's table, as the Q workloads): C1, the latency
/// of a small fetch while another connection or context saves a large transaction, against the
/// same fetch on an idle store; C2, four threads each committing many small transactions. As with
/// `Backend`, opening and closing are not timed; every other method is, commits included.
protocol ConcurrencyBackend: AnyObject {
    /// C1: runs `parameters.latencySamples` small fetches on an idle store, then saves `newRows`
    /// in one transaction on another thread and runs the same fetch, back to back, for as long
    /// as the save is in progress (at least once). Every fetch must return the same rows.
    func fetchLatencies(_ parameters: WorkloadParameters, newRows: [PersonRow]) throws -> FetchLatencies

    /// C2: `parameters.concurrentWriters` threads, thread `k` committing
    /// `parameters.writerTransactions` transactions, transaction `i` inserting
    /// `newRows[k × writerTransactions + i]` and changing the score of the `Person` whose id is
    /// `k × writerTransactions + i + 1` to `WorkloadParameters.newScore(score)`. Returns how
    /// many transactions committed.
    func concurrentSmallSaves(_ parameters: WorkloadParameters, newRows: [PersonRow]) throws -> Int

    func close() throws
}

/// What C1 measured: each fetch's latency in seconds, idle and during the save, and the checksum
/// of the rows every fetch returned (in order).
struct FetchLatencies: Sendable {
    var idle: [Double]
    var during: [Double]
    var rows: Checksum
}

/// C1's figures for a run: the median over repetitions of each repetition's median latency.
struct LatencyFigures: Codable, Sendable {
    var idleMedian: Double
    var duringMedian: Double
    /// Fetches measured during the save, per repetition (the smallest).
    var duringSamples: Int

    var ratio: Double { duringMedian / idleMedian }

    init(_ runs: [FetchLatencies]) {
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        }
        idleMedian = median(runs.map { median($0.idle) })
        duringMedian = median(runs.map { median($0.during) })
        duringSamples = runs.map(\.during.count).min() ?? 0
    }
}

/// Opens the `Person` store of `kind` for the concurrency workloads. Not timed.
func openConcurrencyBackend(_ kind: BackendKind, at location: StoreLocation) throws -> any ConcurrencyBackend {
    switch kind {
    case .raw: try RawSQLiteQueryBackend(location: location)
    case .objectGraph: try ObjectGraphQueryBackend(location: location)
    case .grdb, .objectGraphTyped, .objectGraphPrepared, .postgresRaw, .objectGraphPostgres: throw VerificationFailure(description: "\(kind.displayName) does not run the concurrency workloads")
    }
}

/// What threads of a workload share: a flag, and the first error any of them hit.
final class SharedRunState: Sendable {
    private let state = Mutex<(finished: Bool, error: (any Error)?)>((false, nil))

    var isFinished: Bool { state.withLock { $0.finished } }

    func finish() { state.withLock { $0.finished = true } }

    func fail(_ error: any Error) {
        state.withLock { state in
            if state.error == nil { state.error = error }
            state.finished = true
        }
    }

    /// Throws the first error recorded.
    func check() throws {
        if let error = state.withLock({ $0.error }) { throw error }
    }
}

/// Runs `fetch` `count` times back to back, or while `keepGoing` holds (at least once); returns
/// each call's latency in seconds. Throws if a fetch returns other rows than the first.
func measureFetches(count: Int? = nil, while keepGoing: () -> Bool = { true }, first: inout Checksum?, _ fetch: () throws -> Checksum) throws -> [Double] {
    let clock = ContinuousClock()
    var latencies: [Double] = []
    repeat {
        let start = clock.now
        let rows = try fetch()
        latencies.append((clock.now - start).seconds)
        if let first, rows != first {
            throw VerificationFailure(description: "a fetch returned \(rows), an earlier one \(first)")
        }
        first = rows
    } while count.map { latencies.count < $0 } ?? keepGoing()
    return latencies
}
