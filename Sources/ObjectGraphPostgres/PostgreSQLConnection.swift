import Foundation
import Logging
import ObjectGraph
import PostgresNIO

/// A connection of one store to its PostgreSQL server, used by one thread at a time (the
/// writer's on the store's serial queue, a reader's by the caller the pool handed it to): each
/// call sends a statement and waits on that thread for the server's answer. The connection's
/// own work runs on postgres-nio's event loops, which never wait for anything. A statement it
/// runs again is prepared on the connection (`PostgreSQLStatementCache`).
///
/// A connection that went away (the server restarted, the network broke) is made again by the
/// next statement outside a transaction, after a few tries while the server refuses; inside a
/// transaction its loss is an error, the server having rolled the transaction back.
final class PostgreSQLConnection {
    /// The rows a statement returned and how many rows it changed (for a SELECT, how many it
    /// returned).
    struct Result {
        let rows: [PostgreSQLRow]
        let changedRows: Int
    }

    let location: PostgreSQLLocation
    private let logger: Logger
    /// The connection to the server; `nil` once it was lost, until the next statement.
    private var connection: PostgresConnection?
    /// The statements prepared on `connection`.
    private var statements = PostgreSQLStatementCache()
    private var isInTransaction = false
    /// How many times a live connection was lost: a read that saw this change may run again.
    private(set) var losses = 0

    /// Connects; a refused connection, a failed login, a missing database or a timeout is a
    /// `.storeUnavailable` error saying which.
    convenience init(_ location: PostgreSQLLocation) throws {
        self.init(connectingAtFirstStatement: location)
        do {
            connection = try Self.open(location, logger: logger).wait()
        } catch {
            throw PostgreSQLFailure(error, location: location).connectionError(location)
        }
    }

    /// A connection its first statement makes, as it makes a lost one again (a few tries while
    /// the server refuses; failing, the statement fails): for connections of a store already
    /// open, such as its readers', whose failure is the operation's.
    init(connectingAtFirstStatement location: PostgreSQLLocation) {
        self.location = location
        var logger = Logger(label: "ObjectGraph.PostgreSQL")
        logger.logLevel = .warning
        self.logger = logger
    }

    /// Runs `sql` with `bindings` for its `$1`, `$2`, … and waits for its rows.
    @discardableResult
    func execute(_ sql: String, _ bindings: [AttributeValue] = []) throws -> Result {
        try execute(sql, data: try PostgreSQLValues.data(bindings))
    }

    /// Runs `sql` with values already encoded (such as binary arrays of keys, which no
    /// `AttributeValue` holds) and waits for its rows.
    @discardableResult
    func execute(_ sql: String, data values: [PostgresData]) throws -> Result {
        let rows = Locked<[PostgreSQLRow]>([])
        let (countsChanges, tagged) = try send(sql, data: values) { row in rows.withLock { $0.append(PostgreSQLRow(row)) } }
        let received = rows.withLock { $0 }
        guard !countsChanges else { return Result(rows: [], changedRows: Int(try received.first?[0].decode(Int64.self) ?? 0)) }
        return Result(rows: received, changedRows: tagged ?? received.count)
    }

    /// Runs the query `sql` and hands each row to `onRow` on the connection's event loop as it
    /// arrives, so rows are decoded while the server is still sending the rest; returns after
    /// the last. An error `onRow` throws ends the query and is thrown here as it is.
    func forEachRow(_ sql: String, data values: [PostgresData], _ onRow: @escaping @Sendable (PostgreSQLRow) throws -> Void) throws {
        _ = try send(sql, data: values) { try onRow(PostgreSQLRow($0)) }
    }

    /// Sends `sql`, prepared when the cache says so, handing its rows to `onRow`; returns
    /// whether its one row is a change count (a prepared write) and the command tag's count of
    /// rows when the server gave one.
    private func send(
        _ sql: String, data values: [PostgresData], onRow: @escaping @Sendable (PostgresRow) throws -> Void
    ) throws -> (countsChanges: Bool, changedRows: Int?) {
        let connection = try live()
        var prepared: PostgreSQLStatementCache.Prepared?
        do {
            prepared = try statements.statement(sql, types: values.map(\.type), on: connection)
            guard let statement = prepared else {
                var binds = PostgresBindings(capacity: values.count)
                for value in values { binds.append(value) }
                let metadata = try Self.answer(
                    to: connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger, onRow), on: connection)
                return (false, metadata.rows)
            }
            try Self.answer(to: statement.query.execute(values, onRow), on: connection)
            return (statement.countsChanges, nil)
        } catch let error as ObjectGraphError {
            // Thrown by `onRow`: the rows, not the statement, were wrong.
            throw error
        } catch {
            var failure = PostgreSQLFailure(error, sql: sql, location: location)
            // The rows' types changed under the prepared statement (another connection altered a
            // table): the server refuses to run it again as it is, so the next run prepares it anew.
            if prepared != nil, failure.sqlState == Self.cachedPlanChangedResultType { statements.forget(sql) }
            if failure.trouble != nil || connection.isClosed {
                failure.trouble = .lost
                drop()
            }
            throw failure
        }
    }

    /// The SQLSTATE of "cached plan must not change result type".
    private static let cachedPlanChangedResultType = "0A000"

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws
    /// (the first error is the one thrown). A connection found lost at `BEGIN` is made again
    /// (nothing was sent yet); lost later, the transaction fails.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        do {
            try execute("BEGIN")
        } catch let failure as PostgreSQLFailure where failure.trouble == .lost {
            try execute("BEGIN")
        }
        isInTransaction = true
        defer { isInTransaction = false }
        let result: T
        do {
            result = try body()
        } catch {
            if connection != nil { _ = try? execute("ROLLBACK") }
            throw error
        }
        do {
            try execute("COMMIT")
        } catch var failure as PostgreSQLFailure where failure.trouble == .lost {
            failure.trouble = .lostWhileCommitting
            throw failure
        }
        return result
    }

    /// postgres-nio's live connection, for what the store's statements do not cover: LISTEN
    /// (see `PostgreSQLChangeListener`). Made again first when it was lost.
    func underlyingConnection() throws -> PostgresConnection {
        try live()
    }

    func close() {
        try? connection?.close().wait()
        connection = nil
        statements = PostgreSQLStatementCache()
    }

    /// The connection, made again when it was lost (outside a transaction): a few tries, a
    /// growing pause apart, while the server refuses (it may be restarting).
    private func live() throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        if connection != nil { drop() }
        guard !isInTransaction else {
            throw PostgreSQLFailure(Closed(), location: location)
        }
        var pause = 0.1
        for attempt in 1...Self.connectAttempts {
            do {
                let connection = try Self.open(location, logger: logger).wait()
                self.connection = connection
                return connection
            } catch let failure as PostgreSQLFailure where failure.mayPassSoon && attempt < Self.connectAttempts {
                Thread.sleep(forTimeInterval: pause)
                pause *= 3
            } catch {
                var failure = PostgreSQLFailure(error, location: location)
                failure.trouble = .unreachable
                throw failure
            }
        }
        preconditionFailure("the last attempt returns or throws")
    }

    /// Tries to reconnect before an operation gives up: 0.1 s, then 0.3 s apart.
    private static let connectAttempts = 3

    /// How many statements are prepared on the connection now.
    var preparedCount: Int { statements.preparedCount }

    /// Forgets a lost connection, and the statements prepared on it.
    private func drop() {
        try? connection?.close().wait()
        connection = nil
        statements = PostgreSQLStatementCache()
        losses += 1
    }

    /// Waits for `future`, the answer to a statement sent on `connection`. A statement sent just
    /// as the connection closed may never be answered (postgres-nio drops it without failing its
    /// future), so a wait that finds the connection closed, and still no answer a moment later,
    /// fails instead of waiting for ever.
    static func answer<T: Sendable>(to future: EventLoopFuture<T>, on connection: PostgresConnection) throws -> T {
        let answered = DispatchSemaphore(value: 0)
        let answer = Locked<Swift.Result<T, any Error>?>(nil)
        future.whenComplete { result in
            answer.withLock { $0 = result }
            answered.signal()
        }
        var seenClosed = false
        while answered.wait(timeout: .now() + .milliseconds(500)) == .timedOut {
            guard connection.isClosed else { continue }
            if seenClosed { throw Unanswered() }
            seenClosed = true
        }
        return try answer.withLock { $0! }.get()
    }

    /// A statement the server never answered: the connection closed as it was sent.
    private struct Unanswered: Error, CustomStringConvertible {
        var description: String { "the connection closed before the server answered" }
    }

    /// A connection lost earlier in the transaction.
    private struct Closed: Error, CustomStringConvertible {
        var description: String { "the connection was closed earlier in the transaction" }
    }
}

@available(*, unavailable)
extension PostgreSQLConnection: Sendable {}
