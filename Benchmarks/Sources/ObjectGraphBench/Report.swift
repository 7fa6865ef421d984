import BenchSQLite
import Foundation

/// The printed report: a header naming the machine, one line per finished run, and Markdown
/// tables (so the output pastes straight into Benchmarks/README.md).
enum Report {
    static func header(options: Options, directory: URL, postgres: String? = nil) -> String {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n")
            .first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown"
        let date = ISO8601DateFormatter().string(from: Date())
        let graphNote = options.workloads.contains { $0.group == "G" }
            ? "G1–G4: N books of N/10 authors (rows/s counts both); run by raw and objectgraph only\n"
            : ""
        let queryNote = options.workloads.contains(where: \.isQuery)
            ? "Q1–Q7: issue 4's queries and batches, raw and objectgraph only; Q3 on N books of N/10 authors; "
                + "rows/s counts rows returned (Q4: rows aggregated; Q5–Q7: rows changed)\n"
            : ""
        let concurrencyNote = options.workloads.contains(where: \.isConcurrency)
            ? "C1, C2: issue 5's concurrency, raw and objectgraph only; C1's time columns hold the whole workload (idle fetches, "
                + "inserting N rows, their save), its latencies are reported apart; C2's rows/s counts transactions\n"
            : ""
        let memoryNote = options.workloads.contains(where: \.isMemory)
            ? "M1: iterate N rows, fetch batches of \(WorkloadParameters(count: 0).fetchBatchSize), read name; judged by peak RSS (VmHWM)\n"
            : ""
        // One N list per group of workloads, when they differ (M1 has its own default).
        var countGroups: [(counts: [Int], workloads: [String])] = []
        for workload in options.workloads {
            let counts = options.counts(for: workload)
            if let index = countGroups.firstIndex(where: { $0.counts == counts }) {
                countGroups[index].workloads.append(workload.rawValue)
            } else {
                countGroups.append((counts, [workload.rawValue]))
            }
        }
        let countsText = countGroups.count == 1
            ? (countGroups.first?.counts ?? []).map(String.init).joined(separator: ",")
            : countGroups.map { "\($0.counts.map(String.init).joined(separator: ",")) (\($0.workloads.joined(separator: ",")))" }.joined(separator: "; ")
        return """
            ObjectGraph benchmarks — \(date)
            machine: \(ProcessInfo.processInfo.activeProcessorCount) cores (nproc), CPU \(cpu), SQLite \(String(cString: sqlite3_libversion()))\(postgres.map { ", \($0) (the benchmark's own server, loopback, default settings)" } ?? "")
            backends: \(options.backends.map(\.rawValue).joined(separator: ",")); workloads: \(options.workloads.map(\.rawValue).joined(separator: ",")); \
            N: \(countsText); 1 warm-up + \(options.repetitions) repetitions, each (backend, workload, N) in its own process
            \(graphNote)\(memoryNote)\(queryNote)\(concurrencyNote)stores in \(directory.path)

            """
    }

    static func line(_ result: RunResult) -> String {
        let workload = result.workload.rawValue.padding(toLength: 4, withPad: " ", startingAt: 0)
        let count = "N=\(result.count)".padding(toLength: 9, withPad: " ", startingAt: 0)
        let backend = result.backend.displayName.padding(toLength: 12, withPad: " ", startingAt: 0)
        return "\(workload) \(count) \(backend) median \(fixed(result.median, 4)) s (min \(fixed(result.min, 4)), max \(fixed(result.max, 4)))  "
            + "\(rate(result.rowsPerSecond)) rows/s  peak \(megabytes(result)) MB  ✓ \(result.checksum)"
            + (result.latencies.map { "  fetch latency idle \(milliseconds($0.idleMedian)) ms, during the save \(milliseconds($0.duringMedian)) ms (\(fixed($0.ratio, 2))×)" } ?? "")
    }

    static func tables(_ results: [RunResult], options: Options) -> String {
        var text = ""
        for count in options.allCounts {
            let forCount = results.filter { $0.count == count }
            guard !forCount.isEmpty else { continue }
            let workloads = options.workloads.filter { workload in forCount.contains { $0.workload == workload } }
            text += "\n### N = \(count)\n\n"
            text += "| workload | backend | median s | min s | max s | rows/s | × raw\(options.backends.contains(where: \.isPostgreSQL) ? " (PG: × raw PG)" : "") | peak MB (Δ warm-up) |\n"
            text += "|---|---|---:|---:|---:|---:|---:|---:|\n"
            for workload in workloads {
                for backend in options.backends {
                    guard let result = forCount.first(where: { $0.workload == workload && $0.backend == backend }) else { continue }
                    let raw = forCount.first { $0.workload == workload && $0.backend == backend.baseline }
                    let ratio = raw.map { fixed(result.median / $0.median, 2) + "×" } ?? "–"
                    text += "| \(workload.rawValue) | \(backend.displayName) | \(fixed(result.median, 4)) | \(fixed(result.min, 4)) | "
                        + "\(fixed(result.max, 4)) | \(rate(result.rowsPerSecond)) | \(ratio) | \(megabytes(result)) |\n"
                }
            }
            text += "\nRatios of medians (time; lower is better for the first backend named):\n\n"
            let postgres = forCount.contains { $0.backend.isPostgreSQL }
            // The user's path is ObjectGraph's column; the prepared shortcuts get one of their own.
            let prepared = forCount.contains { $0.backend == .objectGraphPrepared }
            text += "| workload | ObjectGraph / raw |\(prepared ? " ObjectGraph prepared / raw |" : "") GRDB / raw | ObjectGraph / GRDB |"
                + "\(postgres ? " ObjectGraph PG / raw PG |" : "")\n"
            text += "|---|---:|\(prepared ? "---:|" : "")---:|---:|\(postgres ? "---:|" : "")\n"
            for workload in workloads {
                func median(_ backend: BackendKind) -> Double? {
                    forCount.first { $0.workload == workload && $0.backend == backend }?.median
                }
                func ratio(_ top: BackendKind, _ bottom: BackendKind) -> String {
                    guard let top = median(top), let bottom = median(bottom) else { return "–" }
                    return fixed(top / bottom, 2) + "×"
                }
                text += "| \(workload.rawValue) \(workload.summary) | \(ratio(.objectGraph, .raw)) |\(prepared ? " \(ratio(.objectGraphPrepared, .raw)) |" : "")"
                    + " \(ratio(.grdb, .raw)) | \(ratio(.objectGraph, .grdb)) |"
                    + (postgres ? " \(ratio(.objectGraphPostgres, .postgresRaw)) |" : "") + "\n"
            }
            text += postgresVerdicts(forCount, workloads: workloads)
            text += memoryVerdict(forCount, options: options)
            text += queryVerdicts(forCount, workloads: workloads)
            text += typedVerdicts(forCount, workloads: workloads)
            text += concurrencyFigures(forCount, options: options)
        }
        return text
    }

    /// Issue 5's target for C1: the median fetch latency during the save at most this many
    /// times the idle one.
    static let c1RatioLimit = 2.0

    /// C1's latencies per backend with its verdict, and C2's throughput against raw SQLite's.
    private static func concurrencyFigures(_ results: [RunResult], options: Options) -> String {
        var text = ""
        let c1 = options.backends.compactMap { backend in results.first { $0.workload == .c1 && $0.backend == backend } }
        if !c1.isEmpty {
            text += "\nC1, median latency of the small fetch (median over repetitions of each one's median):\n\n"
            text += "| C1 backend | idle ms | during the save ms | during / idle | fetches during the save (fewest) |\n|---|---:|---:|---:|---:|\n"
            for result in c1 {
                guard let latencies = result.latencies else { continue }
                text += "| \(result.backend.displayName) | \(milliseconds(latencies.idleMedian)) | \(milliseconds(latencies.duringMedian)) | "
                    + "\(fixed(latencies.ratio, 2))× | \(latencies.duringSamples) |\n"
            }
            if let latencies = c1.first(where: { $0.backend == .objectGraph })?.latencies {
                text += "\n- C1 ObjectGraph during / idle \(fixed(latencies.ratio, 2))×: "
                    + (latencies.ratio <= c1RatioLimit ? "meets" : "MISSES") + " the ≤ \(fixed(c1RatioLimit, 1))× target\n"
            }
        }
        if let raw = results.first(where: { $0.workload == .c2 && $0.backend == .raw }),
           let objectGraph = results.first(where: { $0.workload == .c2 && $0.backend == .objectGraph }) {
            text += "\nC2, \(raw.rowsPerRepetition) transactions from \(WorkloadParameters(count: 0).concurrentWriters) threads: "
                + "raw SQLite \(fixed(raw.rowsPerSecond, 0)) tx/s, ObjectGraph \(fixed(objectGraph.rowsPerSecond, 0)) tx/s "
                + "(ObjectGraph / raw time \(fixed(objectGraph.median / raw.median, 2))×)\n"
        }
        return text
    }

    /// Seconds as milliseconds, three decimals.
    private static func milliseconds(_ seconds: Double) -> String {
        fixed(seconds * 1000, 3)
    }

    /// Issue 4's targets: fetches (Q1–Q4) at most this many times raw SQLite's time…
    static let queryFetchLimit = 2.0
    /// …and batch operations (Q5–Q7) at most this many times.
    static let queryBatchLimit = 1.5
    /// The batch insert of 1,000,000 rows (Q7) keeps ObjectGraph's peak RSS (the whole
    /// process's VmHWM) under this many MB.
    static let q7PeakLimitMB = 100.0

    /// For each query workload run by both raw SQLite and ObjectGraph: its ratio against its target.
    private static func queryVerdicts(_ results: [RunResult], workloads: [Workload]) -> String {
        var lines: [String] = []
        for workload in workloads where workload.isQuery {
            guard let raw = results.first(where: { $0.workload == workload && $0.backend == .raw }),
                  let objectGraph = results.first(where: { $0.workload == workload && $0.backend == .objectGraph })
            else { continue }
            let ratio = objectGraph.median / raw.median
            let limit = workload.isBatch ? queryBatchLimit : queryFetchLimit
            lines.append("- \(workload.rawValue) ObjectGraph / raw \(fixed(ratio, 2))×: "
                + (ratio <= limit ? "meets" : "MISSES") + " the ≤ \(fixed(limit, 1))× target (\(workload.isBatch ? "batch operation" : "fetch"))")
            if workload == .q7 {
                let peak = Double(objectGraph.peakKB) / 1024
                let target = objectGraph.count == 1_000_000 ? "" : " (the issue's target is stated at N = 1,000,000)"
                lines.append("- Q7 ObjectGraph peak RSS \(fixed(peak, 1)) MB at N = \(objectGraph.count): "
                    + (peak < q7PeakLimitMB ? "UNDER" : "NOT under") + " the \(fixed(q7PeakLimitMB, 0)) MB target\(target)")
            }
        }
        guard !lines.isEmpty else { return "" }
        return "\nIssue 4's targets (fetches ≤ \(fixed(queryFetchLimit, 1))× raw, batch operations ≤ \(fixed(queryBatchLimit, 1))× raw, "
            + "batch insert of 1,000,000 rows under \(fixed(q7PeakLimitMB, 0)) MB peak RSS):\n\n"
            + lines.joined(separator: "\n") + "\n"
    }

    /// Issue 20's target: ObjectGraph's PostgreSQL store at most this many times postgres-nio by hand.
    static let postgresLimit = 1.5

    /// For each workload run by both PostgreSQL backends: its ratio against the target.
    private static func postgresVerdicts(_ results: [RunResult], workloads: [Workload]) -> String {
        let lines = workloads.compactMap { workload -> String? in
            guard let raw = results.first(where: { $0.workload == workload && $0.backend == .postgresRaw }),
                  let objectGraph = results.first(where: { $0.workload == workload && $0.backend == .objectGraphPostgres })
            else { return nil }
            let ratio = objectGraph.median / raw.median
            return "- \(workload.rawValue) ObjectGraph PG / raw PG \(fixed(ratio, 2))×: " + (ratio <= postgresLimit ? "meets" : "MISSES")
                + " the ≤ \(fixed(postgresLimit, 1))× target"
        }
        guard !lines.isEmpty else { return "" }
        return "\nIssue 20's target (ObjectGraph's PostgreSQL store ≤ \(fixed(postgresLimit, 1))× postgres-nio by hand):\n\n"
            + lines.joined(separator: "\n") + "\n"
    }

    /// Issue 6's targets for typed generated accessors: at most this many times the dynamic
    /// (key-based) figure, and at most `typedRawLimit` times raw SQLite.
    static let typedDynamicLimit = 1.10
    static let typedRawLimit = 2.0

    /// W1 and W2 through the generated class against dynamic access and raw SQLite.
    private static func typedVerdicts(_ results: [RunResult], workloads: [Workload]) -> String {
        var lines: [String] = []
        for workload in workloads {
            guard let typed = results.first(where: { $0.workload == workload && $0.backend == .objectGraphTyped }) else { continue }
            var parts: [String] = []
            if let dynamic = results.first(where: { $0.workload == workload && $0.backend == .objectGraph }) {
                let ratio = typed.median / dynamic.median
                parts.append("typed / dynamic \(fixed(ratio, 2))× (" + (ratio <= typedDynamicLimit ? "meets" : "MISSES") + " ≤ \(fixed(typedDynamicLimit, 2))×)")
            }
            if let raw = results.first(where: { $0.workload == workload && $0.backend == .raw }) {
                let ratio = typed.median / raw.median
                parts.append("typed / raw \(fixed(ratio, 2))× (" + (ratio <= typedRawLimit ? "meets" : "MISSES") + " ≤ \(fixed(typedRawLimit, 1))×)")
            }
            if !parts.isEmpty { lines.append("- \(workload.rawValue): " + parts.joined(separator: ", ")) }
        }
        guard !lines.isEmpty else { return "" }
        return "\nIssue 6's targets for typed generated accessors:\n\n" + lines.joined(separator: "\n") + "\n"
    }

    /// The issue's memory target for M1: iterating 1,000,000 rows in batches of 500 keeps
    /// ObjectGraph's peak RSS (the whole process's VmHWM) under this many MB.
    static let m1PeakLimitMB = 150.0

    /// M1's peak memory per backend, and whether ObjectGraph's is under the limit.
    private static func memoryVerdict(_ results: [RunResult], options: Options) -> String {
        let memory = results.filter(\.workload.isMemory)
        guard let count = memory.first?.count else { return "" }
        var text = "\nPeak memory, M1 at N = \(count) (VmHWM of the whole process during the warm-up run; Δ over the RSS just before its timed part):\n\n"
        for result in memory {
            text += "- \(result.backend.displayName): peak RSS \(megabytes(result)) MB\n"
        }
        if let objectGraph = memory.first(where: { $0.backend == .objectGraph }) {
            let peak = Double(objectGraph.peakKB) / 1024
            let under = peak < m1PeakLimitMB
            let target = count == 1_000_000 ? "" : " (the issue's target is stated at N = 1,000,000)"
            text += "\nM1 ObjectGraph peak RSS \(fixed(peak, 1)) MB at N = \(count): "
                + (under ? "UNDER" : "NOT under") + " the \(fixed(m1PeakLimitMB, 0)) MB target\(target)\n"
        }
        return text
    }

    /// Rows per second, short: 757k, 1.21M.
    private static func rate(_ value: Double) -> String {
        value >= 1_000_000 ? fixed(value / 1_000_000, 2) + "M" : fixed(value / 1000, 0) + "k"
    }

    /// Peak memory and how much of it the warm-up run added: "45.2 (+20.1)".
    private static func megabytes(_ result: RunResult) -> String {
        "\(fixed(Double(result.peakKB) / 1024, 1)) (+\(fixed(Double(result.peakKB - result.baselineKB) / 1024, 1)))"
    }

    private static func fixed(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }
}
