import Foundation

/// A PostgreSQL server of the tests' own, started once per test process from the system's
/// PostgreSQL programs (Debian's `postgresql` package: `initdb`, `pg_ctl`, `psql`) in a temporary
/// directory, listening on a free loopback port, with password authentication for the role
/// `objectgraph`. PostgreSQL refuses to run as root, so when the tests run as root the server
/// runs as the `postgres` user, in a directory that user owns.
///
/// A watchdog shell stops the server and removes its directory once the test process is gone,
/// however it ends. Where no server can be started (no PostgreSQL installed, or
/// `OBJECTGRAPH_POSTGRES_TESTS=0`), `shared` says why and one line saying so is printed: the
/// PostgreSQL store kind is then left out of the conformance suite (see `StoreKind`).
final class PostgreSQLTestServer: Sendable {
    static let user = "objectgraph"
    static let password = "objectgraph-test-password"

    let port: Int
    /// The folder of the server's programs.
    let programs: String

    /// The server of this test process, or why there is none.
    static let shared: Result<PostgreSQLTestServer, Unavailable> = {
        let result = Result { try PostgreSQLTestServer() }.mapError { $0 as? Unavailable ?? Unavailable(reason: "\($0)") }
        if case .failure(let unavailable) = result { print("PostgreSQL tests skipped: \(unavailable.reason)") }
        return result
    }()

    /// Whether a server runs, so the PostgreSQL store is tested.
    static var isAvailable: Bool { (try? shared.get()) != nil }

    struct Unavailable: Error {
        let reason: String
    }

    /// The server's files, its data folder, how its programs are run and its options.
    private let directory: String
    private let data: String
    private let runAs: [String]
    private let options: String

    /// Starts a server of its own, which a test may stop and start again (`stop`, `start`)
    /// without disturbing the shared one; with `tls`, it serves TLS with a self-signed
    /// certificate for `localhost` and 127.0.0.1 (`certificate` is its file).
    static func startOwn(tls: Bool = false) throws -> PostgreSQLTestServer {
        try PostgreSQLTestServer(tls: tls)
    }

    private init(tls: Bool = false) throws {
        if ProcessInfo.processInfo.environment["OBJECTGRAPH_POSTGRES_TESTS"] == "0" {
            throw Unavailable(reason: "OBJECTGRAPH_POSTGRES_TESTS=0")
        }
        guard let programs = Self.findPrograms() else {
            throw Unavailable(
                reason: "no PostgreSQL server programs found (install Debian's postgresql package: apt-get install -y postgresql)")
        }
        self.programs = programs
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ObjectGraphPostgres-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let runAs = try Self.serverUser(owning: directory)
        let passwordFile = directory + "/password"
        try Data(Self.password.utf8).write(to: URL(fileURLWithPath: passwordFile))
        if let owner = runAs.owner { _ = chown(passwordFile, owner.uid, owner.gid) }
        let data = directory + "/data"
        try Self.run(
            runAs.prefix + [
                "\(programs)/initdb", "-D", data, "-E", "UTF8", "--locale=C", "-A", "scram-sha-256", "-U", Self.user, "--pwfile",
                passwordFile
            ], in: directory, what: "initdb")
        var tlsOptions = ""
        if tls {
            try Self.run(
                runAs.prefix + [
                    "/usr/bin/openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost", "-addext",
                    "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", directory + "/server.key", "-out", directory + "/server.crt"
                ], in: directory, what: "openssl")
            try Self.run(runAs.prefix + ["/bin/chmod", "600", directory + "/server.key"], in: directory, what: "chmod")
            tlsOptions = " -c ssl=on -c ssl_cert_file=\(directory)/server.crt -c ssl_key_file=\(directory)/server.key"
        }
        Self.startWatchdog(programs: programs, data: data, directory: directory, runAs: runAs.prefix)
        (self.directory, self.data, self.runAs) = (directory, data, runAs.prefix)
        var lastFailure = ""
        // The port is free when chosen, but another process could take it before the server
        // binds it: a few tries.
        for _ in 0..<3 {
            let port = try Self.freePort()
            let options =
                "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
                + tlsOptions
            do {
                try Self.run(
                    runAs.prefix + [
                        "\(programs)/pg_ctl", "-D", data, "-l", directory + "/server.log", "-w", "-t", "30", "-o", options, "start"
                    ], in: directory, what: "pg_ctl start")
                (self.port, self.options) = (port, options)
                return
            } catch let failure as Unavailable {
                lastFailure = failure.reason
            }
        }
        throw Unavailable(reason: lastFailure)
    }

    /// The server's self-signed certificate, when it was started with TLS.
    var certificate: String { directory + "/server.crt" }

    /// Stops the server: `fast` ends its sessions (rolling back their transactions),
    /// `immediate` kills it as a crash would.
    func stop(mode: String = "fast") throws {
        try Self.run(runAs + ["\(programs)/pg_ctl", "-D", data, "-m", mode, "-w", "stop"], in: directory, what: "pg_ctl stop")
    }

    /// Starts the stopped server again, on the same port.
    func start() throws {
        try Self.run(
            runAs + ["\(programs)/pg_ctl", "-D", data, "-l", directory + "/server.log", "-w", "-t", "30", "-o", options, "start"],
            in: directory, what: "pg_ctl start")
    }

    /// A URL of the server for `database`, with the test role's password, or `password` instead.
    func url(database: String, password: String = PostgreSQLTestServer.password) -> URL {
        URL(string: "postgres://\(Self.user):\(password)@127.0.0.1:\(port)/\(database)")!
    }

    /// Creates an empty database with a new name and returns its name.
    func createDatabase() throws -> String {
        let name = "og_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try runSQL("CREATE DATABASE \(name)")
        return name
    }

    /// Drops the database `name`, closing any connection still using it.
    func dropDatabase(_ name: String) {
        try? runSQL("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Runs `sql` with `psql` in `database`.
    func runSQL(_ sql: String, in database: String = "postgres") throws {
        try Self.run(
            [
                "\(programs)/psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", "\(port)", "-U", Self.user, "-d",
                database, "-c", sql
            ],
            in: FileManager.default.temporaryDirectory.path, what: "psql", environment: ["PGPASSWORD": Self.password])
    }

    /// The folder of `initdb` and `pg_ctl`: `OBJECTGRAPH_POSTGRES_BIN`, else the newest of Debian's
    /// `/usr/lib/postgresql/*/bin`.
    private static func findPrograms() -> String? {
        if let configured = ProcessInfo.processInfo.environment["OBJECTGRAPH_POSTGRES_BIN"] { return configured }
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.compactMap(Int.init).sorted().reversed().map { "\(root)/\($0)/bin" }
            .first {
                FileManager.default.isExecutableFile(atPath: "\($0)/initdb") && FileManager.default.isExecutableFile(atPath: "\($0)/pg_ctl")
            }
    }

    /// How to run the server's programs: as the `postgres` user when this process is root (the
    /// directory is given to that user), else as ourselves.
    private static func serverUser(owning directory: String) throws -> (prefix: [String], owner: (uid: uid_t, gid: gid_t)?) {
        guard getuid() == 0 else { return ([], nil) }
        guard let entry = getpwnam("postgres") else {
            throw Unavailable(reason: "the tests run as root, and PostgreSQL refuses to; no 'postgres' user to run it as")
        }
        let owner = (entry.pointee.pw_uid, entry.pointee.pw_gid)
        guard chown(directory, owner.0, owner.1) == 0 else {
            throw Unavailable(reason: "cannot give \(directory) to the postgres user (errno \(errno))")
        }
        return (["/usr/bin/setpriv", "--reuid=\(owner.0)", "--regid=\(owner.1)", "--clear-groups"], owner)
    }

    /// Starts a shell that waits for this process to end, then stops the server at once and
    /// removes its directory.
    private static func startWatchdog(programs: String, data: String, directory: String, runAs: [String]) {
        let stop = (runAs + ["\(programs)/pg_ctl", "-D", data, "-m", "immediate", "stop"]).joined(separator: " ")
        let script = "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; \(stop) >/dev/null 2>&1; rm -rf '\(directory)'"
        let environment = ProcessInfo.processInfo.environment.map { "\($0)=\($1)" }
        _ = try? TestWriterProcess.spawn(["/bin/sh", "-c", script], environment: environment, output: "/dev/null", errors: "/dev/null")
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now.
    private static func freePort() throws -> Int {
        let (socket, port) = try boundSocket()
        close(socket)
        return port
    }

    /// A socket on a loopback port that takes connections (the kernel completes them) and never
    /// answers: a server that hangs. Close `socket` when done.
    static func silentListener() throws -> (socket: Int32, port: Int) {
        let (socket, port) = try boundSocket()
        guard listen(socket, 8) == 0 else {
            close(socket)
            throw Unavailable(reason: "cannot listen on a loopback port (errno \(errno))")
        }
        return (socket, port)
    }

    /// A TCP socket bound to a free port of 127.0.0.1, and the port.
    private static func boundSocket() throws -> (socket: Int32, port: Int) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Unavailable(reason: "cannot open a socket to find a free port (errno \(errno))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else {
            close(socket)
            throw Unavailable(reason: "cannot find a free loopback port (errno \(errno))")
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Runs a program to its end; a failure is `Unavailable`, with what it printed.
    private static func run(_ arguments: [String], in directory: String, what: String, environment: [String: String] = [:]) throws {
        let output = directory + "/\(what.replacingOccurrences(of: " ", with: "-"))-\(UUID().uuidString).log"
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0)=\($1)" }
        defer { try? FileManager.default.removeItem(atPath: output) }
        let status: Int32
        do {
            status = try TestWriterProcess.wait(
                for: TestWriterProcess.spawn(arguments, environment: variables, output: output, errors: output))
        } catch {
            throw Unavailable(reason: "\(what) could not be run: \(error)")
        }
        guard status == 0 else {
            let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            throw Unavailable(reason: "\(what) failed (status \(status)): \(printed.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
    }
}
