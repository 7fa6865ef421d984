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
    /// Whether the server could not be reached at all (or went away).
    let isConnectionFailure: Bool

    init(_ error: any Error, sql: String? = nil) {
        self.sql = sql
        guard let error = error as? PSQLError else {
            (sqlState, detail, column, constraint) = (nil, nil, nil, nil)
            message = "\(error)"
            isConnectionFailure = true
            return
        }
        if let server = error.serverInfo {
            sqlState = server[.sqlState]
            message = server[.message] ?? "\(error.code)"
            detail = server[.detail]
            column = server[.columnName]
            constraint = server[.constraintName]
            isConnectionFailure = false
        } else {
            (sqlState, detail, column, constraint) = (nil, nil, nil, nil)
            message = error.underlying.map { "\($0)" } ?? "\(error.code)"
            isConnectionFailure = [.connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown].contains(
                error.code)
        }
    }

    var description: String {
        var text = message
        if let detail { text += " (\(detail))" }
        if let sqlState { text += " [SQLSTATE \(sqlState)]" }
        return text
    }

    /// The error of a connection that could not be made to `location`.
    func connectionError(_ location: PostgreSQLLocation) -> ObjectGraphError {
        let reason: String
        switch sqlState {
        case "28P01", "28000":
            reason = "the server refused user '\(location.user)': wrong password or not allowed to log in (\(message))"
        case "3D000":
            reason =
                "the database '\(location.database)' does not exist on the server; create it first (CREATE DATABASE \(location.database))"
        case nil where message.localizedCaseInsensitiveContains("refused"):
            reason = "the connection was refused: no PostgreSQL server listens on \(location.host):\(location.port)"
        default:
            reason = description
        }
        return ObjectGraphError(.storeUnavailable, "Cannot open the PostgreSQL store at \(location): \(reason)")
    }

    /// A generic error for a failed statement, prefixed by what was being done.
    func error(_ doing: String, entityName: String? = nil, objectID: ManagedObjectID? = nil) -> ObjectGraphError {
        if isConnectionFailure {
            return ObjectGraphError(
                .storeUnavailable, "\(doing): the connection to the PostgreSQL server failed (\(message)); nothing was written",
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
