import Foundation
import ObjectGraph
import PostgresNIO

/// A statement or connection that failed, with what the server said: its SQLSTATE code
/// (`23505` for a unique violation…), message, detail and the column or constraint it names.
/// Turned into `ObjectGraphError`s that say what happened in the store's terms.
struct PostgreSQLFailure: Error, CustomStringConvertible {
    let sqlState: String?
    let message: String
    let detail: String?
    let column: String?
    let constraint: String?
    let sql: String?
    /// The server concerned, for messages.
    let location: PostgreSQLLocation?
    /// What became of the connection, when the failure is the connection's rather than the statement's.
    var trouble: ConnectionTrouble?

    /// How a connection failed.
    enum ConnectionTrouble: Sendable {
        /// No connection could be made (refused, timed out, login refused…).
        case unreachable
        /// The connection went away while a statement ran, or before it: nothing in flight was committed.
        case lost
        /// The connection went away while the server was committing: it committed all or nothing,
        /// but which is not known.
        case lostWhileCommitting
    }

    /// The connecting took longer than the location's `connect_timeout`.
    struct ConnectTimeout: Error {
        let seconds: Int
    }

    init(_ error: any Error, sql: String? = nil, location: PostgreSQLLocation?) {
        if let failure = error as? PostgreSQLFailure {
            self = failure
            return
        }
        self.sql = sql
        self.location = location
        var (state, detail, column, constraint): (String?, String?, String?, String?) = (nil, nil, nil, nil)
        if let timeout = error as? ConnectTimeout {
            message = "the server did not answer within \(timeout.seconds) s (connect_timeout=\(timeout.seconds))"
            trouble = .unreachable
        } else if let error = error as? PSQLError, let server = error.serverInfo {
            (state, detail, column, constraint) = (server[.sqlState], server[.detail], server[.columnName], server[.constraintName])
            message = server[.message] ?? "\(error.code)"
            trouble = Self.trouble(ofServerState: state)
        } else if case .server(let server)? = error as? PostgresError {
            // Prepared statements report errors in postgres-nio's older form.
            let fields = server.fields
            (state, detail, column, constraint) = (fields[.sqlState], fields[.detail], fields[.columnName], fields[.constraintName])
            message = fields[.message] ?? "\(error)"
            trouble = Self.trouble(ofServerState: state)
        } else if let error = error as? PostgresError {
            message = "\(error)"
            trouble = .lost
        } else if let error = error as? PSQLError {
            message = error.underlying.map { "\($0)" } ?? "\(error.code)"
            let connectionCodes: [PSQLError.Code] = [.connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown]
            if error.code == .sslUnsupported {
                state = Self.tlsUnsupported
                trouble = .unreachable
            } else {
                trouble = connectionCodes.contains(error.code) ? .lost : nil
            }
        } else {
            // Errors of the network (refused, reset) and of TLS come as NIO's and NIOSSL's own.
            message = "\(error)"
            trouble = .lost
        }
        (self.sqlState, self.detail, self.column, self.constraint) = (state, detail, column, constraint)
    }

    /// What a server error says of the connection: class 08 is a connection exception;
    /// 57P01–57P03 an administrator's shutdown, a crash, a server not accepting connections yet.
    private static func trouble(ofServerState state: String?) -> ConnectionTrouble? {
        guard let state, state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state) else { return nil }
        return .lost
    }

    /// The `sqlState` given to a server that refused TLS (the server sends no error for it).
    private static let tlsUnsupported = "objectgraph-tls-unsupported"

    var description: String {
        var text = message
        if let detail { text += " (\(detail))" }
        if let sqlState, sqlState != Self.tlsUnsupported { text += " [SQLSTATE \(sqlState)]" }
        return text
    }

    /// Whether connecting again soon may work: the server refused or closed the connection (it
    /// may be restarting) or said it is starting up. A timeout, a refused login or TLS is not.
    var mayPassSoon: Bool {
        guard trouble != nil else { return false }
        return sqlState == "57P03" || (sqlState == nil && !message.hasPrefix("the server did not answer"))
    }

    /// Why connecting to `location` failed, in words a person can act on.
    private func connectionReason(_ location: PostgreSQLLocation) -> String {
        switch sqlState {
        case "28P01", "28000":
            return
                "the server refused user '\(location.user)': wrong password or not allowed to log in (\(message)); check the user and password of the URL"
        case "3D000":
            return
                "the database '\(location.database)' does not exist on the server; create it first (CREATE DATABASE \(location.database))"
        case "57P03":
            return "the server is starting up or shutting down (\(message)); try again in a moment"
        case Self.tlsUnsupported:
            return
                "the server does not offer TLS, which sslmode=\(location.sslMode.rawValue) asks for; turn TLS on at the server (ssl = on) or use sslmode=prefer"
        case nil where message.localizedCaseInsensitiveContains("refused"):
            return
                "the connection was refused: no PostgreSQL server listens on \(location.host):\(location.port); start it, or check the host and port of the URL"
        case nil where message.hasPrefix("the server did not answer"):
            return "\(message): check the host and port, or raise connect_timeout"
        case nil where message.contains("NIOSSL") || message.contains("BoringSSL"):
            return "the TLS handshake failed (\(message)); check the server's certificate and sslmode/sslrootcert"
        default:
            return description
        }
    }

    /// The error of a connection that could not be made to `location`.
    func connectionError(_ location: PostgreSQLLocation) -> ObjectGraphError {
        ObjectGraphError(.storeUnavailable, "Cannot open the PostgreSQL store at \(location): \(connectionReason(location))")
    }

    /// A generic error for a failed statement, prefixed by what was being done.
    func error(_ doing: String, entityName: String? = nil, objectID: ManagedObjectID? = nil) -> ObjectGraphError {
        let server = location.map { " at \($0.host):\($0.port)" } ?? ""
        let reconnects = "The store connects again at its next operation."
        switch trouble {
        case .unreachable?:
            let reason = location.map(connectionReason) ?? description
            return ObjectGraphError(
                .storeUnavailable,
                "\(doing): cannot reach the PostgreSQL server\(server): \(reason); nothing was read or written. \(reconnects)",
                entityName: entityName, objectID: objectID)
        case .lost?:
            return ObjectGraphError(
                .storeUnavailable,
                "\(doing): the connection to the PostgreSQL server\(server) was lost (\(message)); the transaction was not committed, so nothing was written (the server rolls it back). \(reconnects)",
                entityName: entityName, objectID: objectID)
        case .lostWhileCommitting?:
            return ObjectGraphError(
                .storeUnavailable,
                "\(doing): the connection to the PostgreSQL server\(server) was lost while committing (\(message)); the server applied all of the save or none of it, and cannot say which: fetch the objects again. \(reconnects)",
                entityName: entityName, objectID: objectID)
        case nil:
            break
        }
        if sqlState == "57014", message.contains("statement timeout") {
            let limit = location?.statementTimeout.map { " (statement_timeout=\($0))" } ?? ""
            return ObjectGraphError(
                .busy,
                "\(doing): the server cancelled a statement that ran longer than the store's statement_timeout\(limit); nothing was written. Trying again later may succeed, or raise statement_timeout",
                entityName: entityName, objectID: objectID)
        }
        return ObjectGraphError(.invalidOperation, "\(doing): PostgreSQL said: \(description)", entityName: entityName, objectID: objectID)
    }

    /// The column names of a unique violation's detail: "Key (first, last)=(a, b) already
    /// exists." gives ["first", "last"] (names quoted by the server when they need it).
    var constrainedColumns: [String] {
        guard let detail, let open = detail.range(of: "Key ("), let close = detail.range(of: ")=", range: open.upperBound..<detail.endIndex)
        else { return [] }
        return detail[open.upperBound..<close.lowerBound].split(separator: ",").map {
            let name = $0.trimmingCharacters(in: .whitespaces)
            return name.hasPrefix("\"") && name.hasSuffix("\"") && name.count >= 2
                ? String(name.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"") : name
        }
    }
}
