import Foundation
import Logging
import ObjectGraph
import PostgresNIO

/// One connection to a PostgreSQL server, owned by one store and used only on that store's
/// serial queue: each call sends a statement and waits there for the server's answer. The
/// connection's own work runs on postgres-nio's event loops, which never wait for anything.
final class PostgreSQLConnection {
    /// The rows a statement returned and how many rows it changed.
    struct Result {
        let rows: [PostgresRow]
        let changedRows: Int
    }

    let location: PostgreSQLLocation
    /// postgres-nio's connection (also for LISTEN: see `PostgreSQLChangeListener`).
    let connection: PostgresConnection
    private let logger: Logger

    /// Connects; a refused connection, a failed login or a missing database is a
    /// `.storeUnavailable` error saying which.
    init(_ location: PostgreSQLLocation) throws {
        self.location = location
        var logger = Logger(label: "ObjectGraph.PostgreSQL")
        logger.logLevel = .warning
        self.logger = logger
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: .disable)
        configuration.options.connectTimeout = .seconds(10)
        do {
            connection = try PostgresConnection.connect(
                on: PostgresConnection.defaultEventLoopGroup.next(), configuration: configuration, id: 1, logger: logger
            ).wait()
        } catch {
            throw PostgreSQLFailure(error).connectionError(location)
        }
    }

    /// Runs `sql` with `bindings` for its `$1`, `$2`, … and waits for its rows.
    @discardableResult
    func execute(_ sql: String, _ bindings: [AttributeValue] = []) throws -> Result {
        var binds = PostgresBindings(capacity: bindings.count)
        for value in bindings { try PostgreSQLValues.bind(value, to: &binds) }
        do {
            let result = try connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).wait()
            return Result(rows: result.rows, changedRows: result.metadata.rows ?? 0)
        } catch {
            throw PostgreSQLFailure(error, sql: sql)
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws
    /// (the first error is the one thrown).
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        let result: T
        do {
            result = try body()
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
        try execute("COMMIT")
        return result
    }

    func close() {
        try? connection.close().wait()
    }
}

@available(*, unavailable)
extension PostgreSQLConnection: Sendable {}
