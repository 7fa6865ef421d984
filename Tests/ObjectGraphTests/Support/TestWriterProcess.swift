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
        let arguments = [executable.path, directory.appendingPathComponent("Conformance.sqlite").path, modelURL.path] + commands
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0)=\($1)" }
        // Files, not pipes: the child can never block on a full pipe while this waits for it.
        let outputURL = directory.appendingPathComponent("writer-\(UUID().uuidString).out")
        let errorsURL = directory.appendingPathComponent("writer-\(UUID().uuidString).err")
        let status = try spawnAndWait(arguments, environment: variables, output: outputURL.path, errors: errorsURL.path)
        return Outcome(
            status: status,
            output: (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "",
            errors: (try? String(contentsOf: errorsURL, encoding: .utf8)) ?? "")
    }

    /// Starts the program `arguments[0]` and waits for it with `waitpid`, returning its exit
    /// status (or 128 + the signal that ended it). Not Foundation's `Process`: its
    /// `waitUntilExit()` can miss the child's exit when Swift Testing's exit-test monitor is
    /// waiting on children too, and the suite then hangs (seen under ThreadSanitizer).
    private static func spawnAndWait(_ arguments: [String], environment: [String], output: String, errors: String) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
        try #require(spawned == 0, "cannot start \(arguments[0]): error \(spawned)")
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            try #require(errno == EINTR, "waiting for \(arguments[0]) failed: errno \(errno)")
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as functions.
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
