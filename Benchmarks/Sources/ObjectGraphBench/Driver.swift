import Foundation

/// The parent side: runs every selected (N, workload, backend) in its own child process of this
/// same executable, collects the results and prints the report.
struct Driver {
    let options: Options

    /// Runs everything; returns false if any run failed or gave a wrong answer.
    func run() throws -> Bool {
        let executable = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let directory = options.directory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("objectgraph-bench-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Printed commands need the folder (and their stores) to outlive this process.
        let keep = options.keep || options.printCommands
        defer { if !keep && options.directory == nil { try? FileManager.default.removeItem(at: directory) } }

        // The PostgreSQL backends' server: the one given, or one of our own for this run.
        var postgresURL = options.postgresURL
        var postgresVersion: String?
        var ownServer: PostgreSQLServer?
        if postgresURL == nil && options.backends.contains(where: \.isPostgreSQL) {
            ownServer = try PostgreSQLServer()
            postgresURL = ownServer?.url
            postgresVersion = ownServer?.version
        }
        defer { if !options.printCommands { ownServer?.stop() } }
        if !options.printCommands { show(Report.header(options: options, directory: directory, postgres: postgresVersion)) }
        var results: [RunResult] = []
        var failures: [String] = []
        var prepared: [URL: Bool] = [:]
        // Databases on a server given by --postgres-url, dropped at the end (our own server goes whole).
        var postgresTemplates: Set<URL> = []

        for count in options.allCounts {
            let parameters = WorkloadParameters(count: count, queries: options.queries, lookups: options.lookups, seed: options.seed)
            for workload in options.workloads where options.counts(for: workload).contains(count) {
                for backend in options.backends where workload.runs(on: backend) {
                    let template = directory.appendingPathComponent("template-\(backend.storeOwner.rawValue)-\(count)\(workload.storeVariant(for: backend)).sqlite")
                    var request = ChildRequest(
                        task: .prepare, backend: backend, workload: workload, parameters: parameters,
                        repetitions: options.repetitions, template: template,
                        work: directory.appendingPathComponent("work-\(backend.rawValue).sqlite"),
                        modelsDirectory: options.modelsDirectory, postgresURL: backend.isPostgreSQL ? postgresURL : nil
                    )
                    let label = "\(workload.rawValue) N=\(count) \(backend.displayName)"
                    if options.printCommands {
                        if workload.needsPopulatedStore && prepared[template] == nil {
                            prepared[template] = true
                            show(try command(executable, request))
                        }
                        request.task = .run
                        show(try command(executable, request))
                        continue
                    }
                    if workload.needsPopulatedStore && prepared[template] == nil {
                        if backend.isPostgreSQL { postgresTemplates.insert(template) }
                        let start = Date()
                        let output = try spawn(executable, request)
                        prepared[template] = output.succeeded
                        if output.succeeded {
                            log("prepared \(template.lastPathComponent) in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
                        } else {
                            failures.append("\(label): preparing the store failed (exit \(output.status))")
                        }
                    }
                    if workload.needsPopulatedStore && prepared[template] != true {
                        log("FAILED \(label): no populated store")
                        continue
                    }
                    request.task = .run
                    let output = try spawn(executable, request)
                    guard output.succeeded, let result = output.result else {
                        failures.append("\(label): FAILED (exit \(output.status)), see the error above")
                        log("FAILED \(label)")
                        continue
                    }
                    results.append(result)
                    show(Report.line(result))
                }
            }
        }
        if options.printCommands { return true }
        for template in prepared.keys where !keep { removeDatabase(at: template) }
        if let postgresURL, ownServer == nil, !keep {
            for template in postgresTemplates {
                try? PostgreSQLDatabases.drop(PostgreSQLDatabases.name(for: template), server: postgresURL)
            }
        }

        show(Report.tables(results, options: options))
        if !failures.isEmpty {
            show("\nFAILURES:\n" + failures.map { "  - " + $0 }.joined(separator: "\n"))
        }
        return failures.isEmpty
    }

    /// The shell command that runs one child, single-quoted for `sh`.
    private func command(_ executable: URL, _ request: ChildRequest) throws -> String {
        let json = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        return "'\(executable.path)' --child-request '\(json.replacingOccurrences(of: "'", with: "'\\''"))'"
    }

    private struct ChildOutput {
        var status: Int32
        var result: RunResult?
        var succeeded: Bool { status == 0 }
    }

    /// Runs one child and waits; its stderr goes straight to ours, its stdout carries the result.
    private func spawn(_ executable: URL, _ request: ChildRequest) throws -> ChildOutput {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--child-request", String(decoding: try JSONEncoder().encode(request), as: UTF8.self)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let result = text.split(separator: "\n")
            .first { $0.hasPrefix(Worker.resultMarker) }
            .flatMap { try? JSONDecoder().decode(RunResult.self, from: Data($0.dropFirst(Worker.resultMarker.count).utf8)) }
        return ChildOutput(status: process.terminationStatus, result: result)
    }

    /// Writes to stdout unbuffered, so that in a log the lines stay in order with the children's
    /// stderr and the progress lines.
    private func show(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    private func log(_ message: String) {
        FileHandle.standardError.write(Data(("  " + message + "\n").utf8))
    }
}
