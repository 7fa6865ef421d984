import Foundation
import Testing

/// Runs `ObjectGraphTestWriter` (built next to the test binary; see its main.swift) on a test
/// store's SQLite file: the second process of multi-process tests, and the process the
/// concurrency debug switch may stop.
enum TestWriterProcess {
    struct Outcome {
        let status: Int32
        let output: String
        let errors: String
    }

    static var executable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("ObjectGraphTestWriter")
    }

    /// Runs the writer's `commands` on `store` (a SQLite test store of the conformance model),
    /// with `environment` added to this process's, and waits for it.
    static func run(_ commands: [String], on store: TestStore, environment: [String: String] = [:]) throws -> Outcome {
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "\(executable.path) is missing: run `swift build --build-tests` first")
        let directory = try #require(store.directory)
        let modelURL = directory.appendingPathComponent("Conformance.json")
        try Data(ConformanceModel.json.utf8).write(to: modelURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = [directory.appendingPathComponent("Conformance.sqlite").path, modelURL.path] + commands
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        // Files, not pipes: the child can never block on a full pipe while this waits for it.
        let outputURL = directory.appendingPathComponent("writer-\(UUID().uuidString).out")
        let errorsURL = directory.appendingPathComponent("writer-\(UUID().uuidString).err")
        try Data().write(to: outputURL)
        try Data().write(to: errorsURL)
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorsURL)
        try process.run()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            output: try String(contentsOf: outputURL, encoding: .utf8),
            errors: try String(contentsOf: errorsURL, encoding: .utf8))
    }
}
