import Foundation

/// A PostgreSQL server of the benchmark's own, for the `pgraw` and `objectgraph-pg` backends when
/// no `--postgres-url` is given: a new cluster made by `initdb` in a temporary folder and
/// started by `pg_ctl` from the newest of Debian's `/usr/lib/postgresql/*/bin` (or
/// `OBJECTGRAPH_POSTGRES_BIN`), listening on a free loopback port, with PostgreSQL's default
/// settings (`fsync`, `synchronous_commit` and `full_page_writes` on) for both backends alike.
/// PostgreSQL refuses to run as root, so as root it runs as the `postgres` user. `stop()` stops
/// it and removes its folder.
final class PostgreSQLServer {
    static let user = "objectgraph"

    /// The URL of the server's `postgres` database (trust authentication: no password).
    let url: URL
    /// The server's version, for the report (`postgres --version`).
    let version: String
    private let programs: String
    private let directory: String
    private let runAs: [String]

    init() throws {
        guard let programs = Self.findPrograms() else {
            throw VerificationFailure(
                description: "no PostgreSQL server programs found (apt-get install -y postgresql, or give --postgres-url)")
        }
        self.programs = programs
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("objectgraph-bench-postgres-\(getpid())").path
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        runAs = try Self.serverUser(owning: directory)
        version = try Self.run(["\(programs)/postgres", "--version"], what: "postgres --version").trimmingCharacters(
            in: .whitespacesAndNewlines)
        let data = directory + "/data"
        _ = try Self.run(
            runAs + ["\(programs)/initdb", "-D", data, "-E", "UTF8", "--locale=C", "-A", "trust", "-U", Self.user], what: "initdb")
        let port = try Self.freePort()
        let options = "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1"
        _ = try Self.run(
            runAs + ["\(programs)/pg_ctl", "-D", data, "-l", directory + "/server.log", "-w", "-t", "60", "-o", options, "start"],
            what: "pg_ctl start")
        url = URL(string: "postgres://\(Self.user)@127.0.0.1:\(port)/postgres")!
    }

    /// Stops the server at once and removes its folder.
    func stop() {
        _ = try? Self.run(runAs + ["\(programs)/pg_ctl", "-D", directory + "/data", "-m", "fast", "-w", "stop"], what: "pg_ctl stop")
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func findPrograms() -> String? {
        if let configured = ProcessInfo.processInfo.environment["OBJECTGRAPH_POSTGRES_BIN"] { return configured }
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.compactMap(Int.init).sorted().reversed().map { "\(root)/\($0)/bin" }
            .first {
                FileManager.default.isExecutableFile(atPath: "\($0)/initdb") && FileManager.default.isExecutableFile(atPath: "\($0)/pg_ctl")
            }
    }

    /// The `setpriv` prefix that runs the server as `postgres` when this process is root (the
    /// folder is given to that user), else nothing.
    private static func serverUser(owning directory: String) throws -> [String] {
        guard getuid() == 0 else { return [] }
        guard let entry = getpwnam("postgres") else {
            throw VerificationFailure(description: "running as root, and PostgreSQL refuses to; no 'postgres' user to run it as")
        }
        guard chown(directory, entry.pointee.pw_uid, entry.pointee.pw_gid) == 0 else {
            throw VerificationFailure(description: "cannot give \(directory) to the postgres user (errno \(errno))")
        }
        return ["/usr/bin/setpriv", "--reuid=\(entry.pointee.pw_uid)", "--regid=\(entry.pointee.pw_gid)", "--clear-groups"]
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now.
    private static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw VerificationFailure(description: "cannot open a socket (errno \(errno))") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw VerificationFailure(description: "cannot find a free loopback port (errno \(errno))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs a program to its end and returns what it printed; a failure says what it printed.
    /// `posix_spawn` and `waitpid`, not Foundation's `Process`: its `waitUntilExit()` never returns
    /// for `pg_ctl start`, whose postmaster lives on.
    private static func run(_ arguments: [String], what: String) throws -> String {
        // A file, not a pipe: the server `pg_ctl` starts would keep a pipe open.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("objectgraph-bench-\(getpid())-\(UUID().uuidString).log")
            .path
        defer { try? FileManager.default.removeItem(atPath: log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Run from a folder the postgres user may enter, whoever runs the benchmark.
        let argv = (["/bin/sh", "-c", "cd /tmp && exec \"$0\" \"$@\""] + arguments).map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0)=\($1)") } + [nil]
        defer { for pointer in argv + environment { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environment)
        guard spawned == 0 else { throw VerificationFailure(description: "\(what) could not be started (error \(spawned))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw VerificationFailure(description: "waiting for \(what) failed (errno \(errno))") }
        }
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        // WIFEXITED and WEXITSTATUS, which Swift does not import as functions.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw VerificationFailure(description: "\(what) failed (wait status \(status)): \(output)")
        }
        return output
    }
}
