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
        let directory = try #require(store.directory)
        let storePath = directory.appendingPathComponent("Conformance.sqlite").path
        return try runTogether([commands], storePath: storePath, in: directory, environment: environment)[0]
    }

    /// Starts one writer per element of `commandLists` on the store file at `storePath` (the
    /// conformance model's JSON is written to `directory`), all at once, and waits for them all.
    /// With `startTogether`, each writer waits until the same instant before it opens the store,
    /// so they race as closely as processes can.
    /// With `asNobody` (for a test run as root, whom permissions do not stop), each writer runs
    /// as the user `nobody`.
    static func runTogether(
        _ commandLists: [[String]], storePath: String, in directory: URL, environment: [String: String] = [:], startTogether: Bool = false,
        asNobody: Bool = false
    ) throws -> [Outcome] {
        var environment = environment
        if startTogether {
            environment["OBJECTGRAPH_TEST_WRITER_START_AT"] = "\(Date().timeIntervalSince1970 + 0.05 * Double(commandLists.count))"
        }
        let started = try commandLists.map { commands in
            try start(commands, storePath: storePath, in: directory, environment: environment, asNobody: asNobody)
        }
        return try started.map { try $0.finish() }
    }

    /// A writer started by `start`, not yet waited for.
    struct Started {
        let pid: pid_t
        let outputURL: URL
        let errorsURL: URL

        /// What the writer printed so far.
        var output: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }

        /// Waits for the writer to exit.
        func finish() throws -> Outcome {
            Outcome(status: try wait(for: pid), output: output, errors: (try? String(contentsOf: errorsURL, encoding: .utf8)) ?? "")
        }
    }

    /// Starts one writer running `commands` on the store file at `storePath` (the conformance
    /// model's JSON is written to `directory`), without waiting for it.
    static func start(
        _ commands: [String], storePath: String, in directory: URL, environment: [String: String] = [:], asNobody: Bool = false
    ) throws -> Started {
        try #require(
            FileManager.default.isExecutableFile(atPath: executable.path),
            "\(executable.path) is missing: run `swift build --build-tests` first")
        let modelURL = directory.appendingPathComponent("Conformance.json")
        // Atomically: a writer started before may be reading it.
        try Data(ConformanceModel.json.utf8).write(to: modelURL, options: .atomic)
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0)=\($1)" }
        // Files, not pipes: the child can never block on a full pipe while this waits for it.
        let outputURL = directory.appendingPathComponent("writer-\(UUID().uuidString).out")
        let errorsURL = directory.appendingPathComponent("writer-\(UUID().uuidString).err")
        let asUser = asNobody ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let pid = try spawn(
            asUser + [executable.path, storePath, modelURL.path] + commands, environment: variables, output: outputURL.path,
            errors: errorsURL.path)
        return Started(pid: pid, outputURL: outputURL, errorsURL: errorsURL)
    }

    /// Starts the program `arguments[0]` with `posix_spawn`. Not Foundation's `Process`: its
    /// `waitUntilExit()` can miss the child's exit when Swift Testing's exit-test monitor is
    /// waiting on children too, and the suite then hangs (seen under ThreadSanitizer).
    ///
    /// The child gets no descriptor of this process but its standard input (`/dev/null`),
    /// output and errors. Inherited ones kept this process's pipes open after it ended, among
    /// them the test runner's (`swift test` then waited for ever for the tests' output to end)
    /// and ThreadSanitizer's symbolizer's.
    static func spawn(_ arguments: [String], environment: [String], output: String, errors: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let closeFrom = try #require(Self.closeFrom, "glibc 2.34 or later is needed (posix_spawn_file_actions_addclosefrom_np)")
        try #require(closeFrom(&actions, 3) == 0, "cannot ask posix_spawn to close inherited descriptors")
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
        try #require(spawned == 0, "cannot start \(arguments[0]): error \(spawned)")
        return pid
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module leaves out (it is declared for `_DEFAULT_SOURCE` only).
    private static let closeFrom = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }

    /// Waits for the child `pid` with `waitpid`; returns its exit status (or 128 + the signal that ended it).
    static func wait(for pid: pid_t) throws -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            try #require(errno == EINTR, "waiting for process \(pid) failed: errno \(errno)")
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as functions.
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
