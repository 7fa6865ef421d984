import Foundation
import ObjectGraph

/// Where a PostgreSQL store lives, read from its URL:
/// `postgres://user[:password]@host[:port]/database` (or `postgresql://`). The port defaults to
/// 5432; the user, the host and the database are required.
struct PostgreSQLLocation: Sendable, CustomStringConvertible {
    let host: String
    let port: Int
    let user: String
    let password: String?
    let database: String

    static let schemes: Set<String> = ["postgres", "postgresql"]

    init(_ url: URL) throws {
        guard let scheme = url.scheme?.lowercased(), Self.schemes.contains(scheme) else {
            throw ObjectGraphError(.storeUnavailable, "A PostgreSQL store needs a postgres:// URL; \(Self.redacted(url)) is not one")
        }
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        guard let host = components?.host, !host.isEmpty else {
            throw ObjectGraphError(
                .storeUnavailable, "The PostgreSQL URL \(Self.redacted(url)) names no host (postgres://user@host:port/database)")
        }
        guard let user = components?.user, !user.isEmpty else {
            throw ObjectGraphError(
                .storeUnavailable, "The PostgreSQL URL \(Self.redacted(url)) names no user (postgres://user@host:port/database)")
        }
        let database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        guard !database.isEmpty, !database.contains("/") else {
            throw ObjectGraphError(
                .storeUnavailable, "The PostgreSQL URL \(Self.redacted(url)) names no database (postgres://user@host:port/database)")
        }
        self.host = host
        self.port = components?.port ?? 5432
        self.user = user.removingPercentEncoding ?? user
        self.password = components?.password.map { $0.removingPercentEncoding ?? $0 }
        self.database = database
    }

    /// The URL without its password, for messages.
    var description: String { "postgres://\(user)@\(host):\(port)/\(database)" }

    /// `url` without its password.
    static func redacted(_ url: URL) -> String {
        PersistentStoreDescription.withoutPassword(url)
    }
}
