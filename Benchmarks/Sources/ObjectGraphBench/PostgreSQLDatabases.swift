import Foundation
import PostgresNIO

/// The PostgreSQL side of the benchmark's store handling, as the SQLite side copies files: a
/// store is a database on the server; a populated store is built once into a template database,
/// and before each repetition the work database is made again as a copy of it
/// (`CREATE DATABASE … TEMPLATE …`, untimed). Also the checks of what a workload left behind,
/// with plain SQL over both backends' identical `Person` table.
enum PostgreSQLDatabases {
    /// The database a store file name stands for on the server: "template-pgraw-100000-indexed"
    /// gives "bench_template_pgraw_100000_indexed".
    static func name(for store: URL) -> String {
        let stem = store.deletingPathExtension().lastPathComponent.lowercased()
        return "bench_" + String(stem.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    /// The URL of `database` on the server of `server` (any database's URL).
    static func url(_ server: URL, database: String) -> URL {
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false)!
        components.path = "/" + database
        return components.url!
    }

    /// Drops `database` if it exists and creates it again, empty or as a copy of `template`.
    static func recreate(_ database: String, from template: String? = nil, server: URL) throws {
        let connection = try BlockingPostgresConnection(server)
        defer { connection.close() }
        try connection.execute("DROP DATABASE IF EXISTS \(database) WITH (FORCE)")
        try connection.execute("CREATE DATABASE \(database)" + (template.map { " TEMPLATE \($0)" } ?? ""))
    }

    static func drop(_ database: String, server: URL) throws {
        let connection = try BlockingPostgresConnection(server)
        defer { connection.close() }
        try connection.execute("DROP DATABASE IF EXISTS \(database) WITH (FORCE)")
    }

    /// Vacuums and analyses a freshly filled database, so that every copy of it starts with the
    /// same statistics and visibility whichever backend filled it (autovacuum may or may not
    /// have come by yet).
    static func settle(at url: URL) throws {
        let connection = try BlockingPostgresConnection(url)
        defer { connection.close() }
        try connection.execute("VACUUM ANALYZE")
    }

    /// The checksum of every `Person` row in the database at `url` (`tableChecksum` of SQLite).
    static func personChecksum(at url: URL) throws -> Checksum {
        let connection = try BlockingPostgresConnection(url)
        defer { connection.close() }
        var checksum = Checksum()
        for row in try connection.execute("SELECT \(postgresPersonColumns) FROM \"Person\"") {
            checksum.add(try PersonRow(row))
        }
        return checksum
    }
}

/// The `Person` columns both PostgreSQL backends read, in `PersonRow` order: ObjectGraph's table,
/// whose `_pk` is `id` (the entity's primary key).
let postgresPersonColumns = #""_pk", "name", "email", "age", "score", "createdAt", "bio""#

extension PersonRow {
    /// A row of `postgresPersonColumns`.
    init(_ row: PostgresRow) throws {
        let (id, name, email, age, score, createdAt, bio) = try row.decode((Int64, String, String, Int64, Double, Double, String?).self)
        self.init(id: id, name: name, email: email, age: age, score: score, createdAt: createdAt, bio: bio)
    }
}

extension PostgresConnection.Configuration {
    /// The configuration of a `postgres://user[:password]@host[:port]/database` URL, without TLS
    /// (the server is on loopback).
    init(_ url: URL) throws {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), let host = components.host, let user = components.user
        else { throw VerificationFailure(description: "\(url) is not a postgres://user@host:port/database URL") }
        self.init(
            host: host, port: components.port ?? 5432, username: user, password: components.password,
            database: String(components.path.dropFirst()), tls: .disable)
    }
}

/// A connection for the benchmark's own bookkeeping (not measured), used from one thread that
/// waits for each answer.
final class BlockingPostgresConnection {
    private let connection: PostgresConnection
    private let logger = Logger(label: "objectgraph-bench.postgres")

    init(_ url: URL) throws {
        connection = try PostgresConnection.connect(
            on: PostgresConnection.defaultEventLoopGroup.next(), configuration: .init(url), id: 1, logger: logger
        ).wait()
    }

    @discardableResult
    func execute(_ sql: String) throws -> [PostgresRow] {
        try connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).wait().rows
    }

    func close() {
        try? connection.close().wait()
    }
}
