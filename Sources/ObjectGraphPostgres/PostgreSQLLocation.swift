import Foundation
import ObjectGraph

/// Where a PostgreSQL store lives and how to connect to it, read from its URL:
/// `postgres://user[:password]@host[:port]/database[?parameter=value&…]` (or `postgresql://`).
/// The port defaults to 5432; the user, the host and the database are required. The query
/// parameters are libpq's where libpq has one:
/// - `connect_timeout`: seconds to wait for a connection, login included (default 10; 0 waits
///   as long as the network does);
/// - `sslmode`: `disable`, `prefer` (the default, as libpq's), `require`, `verify-ca` or
///   `verify-full` (see `SSLMode`), with `sslrootcert` naming a PEM file of the certificate
///   authorities to trust for the two `verify-` modes (default: the system's);
/// - `statement_timeout`: sent to the server as the session's `statement_timeout` (PostgreSQL's
///   syntax: `500ms`, `5s`, or milliseconds), so it cancels a statement running longer.
/// Any other parameter is refused, as libpq refuses it.
struct PostgreSQLLocation: Sendable, CustomStringConvertible {
    let host: String
    let port: Int
    let user: String
    let password: String?
    let database: String
    /// How many seconds connecting and logging in may take; `nil` waits as long as the network does.
    let connectTimeout: Int?
    let sslMode: SSLMode
    /// The PEM file of the certificate authorities the `verify-` modes trust; `nil` trusts the system's.
    let sslRootCertificate: String?
    /// The session's `statement_timeout`, as written in the URL.
    let statementTimeout: String?

    /// Whether and how the connection is encrypted, as libpq's `sslmode` says.
    enum SSLMode: String, Sendable, CaseIterable {
        /// Never encrypted.
        case disable
        /// Encrypted when the server offers it, without checking its certificate; else in the clear.
        case prefer
        /// Always encrypted, without checking the server's certificate; a server without TLS is refused.
        case require
        /// Always encrypted, with a certificate signed by a trusted authority.
        case verifyCA = "verify-ca"
        /// As `verifyCA`, and the certificate names the host the URL names.
        case verifyFull = "verify-full"
    }

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

        var parameters: [String: String] = [:]
        for item in components?.queryItems ?? [] {
            guard Self.parameters.contains(item.name) else {
                throw ObjectGraphError(
                    .storeUnavailable,
                    "The PostgreSQL URL \(Self.redacted(url)) has the parameter '\(item.name)', which the store does not know; it knows \(Self.parameters.sorted().joined(separator: ", "))"
                )
            }
            parameters[item.name] = item.value ?? ""
        }
        func refuse(_ name: String, _ expected: String) -> ObjectGraphError {
            ObjectGraphError(
                .storeUnavailable, "The PostgreSQL URL \(Self.redacted(url)) sets \(name) to '\(parameters[name] ?? "")'; \(expected)")
        }
        switch parameters["connect_timeout"].map({ Int($0) }) {
        case nil: connectTimeout = 10
        case let seconds?? where seconds > 0: connectTimeout = seconds
        case let seconds?? where seconds == 0: connectTimeout = nil
        default: throw refuse("connect_timeout", "it takes a whole number of seconds (0 to wait as long as the network does)")
        }
        guard let sslMode = SSLMode(rawValue: parameters["sslmode"] ?? SSLMode.prefer.rawValue) else {
            throw refuse("sslmode", "it takes \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.sslMode = sslMode
        sslRootCertificate = parameters["sslrootcert"]
        if let sslRootCertificate {
            guard sslMode == .verifyCA || sslMode == .verifyFull else {
                throw refuse("sslrootcert", "it is used by sslmode=verify-ca and sslmode=verify-full only")
            }
            guard FileManager.default.isReadableFile(atPath: sslRootCertificate) else {
                throw refuse("sslrootcert", "that file cannot be read")
            }
        }
        // A certificate names hosts; postgres-nio checks the name only for a host given by name.
        if sslMode == .verifyFull, host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." }) {
            throw refuse(
                "sslmode",
                "sslmode=verify-full checks that the server's certificate names the host, which the store can do for a host name, not for the address \(host): use the server's name, or sslmode=verify-ca"
            )
        }
        statementTimeout = parameters["statement_timeout"]
        if statementTimeout?.isEmpty == true { throw refuse("statement_timeout", "it takes a duration such as 500ms or 5s") }
    }

    /// The query parameters a store URL may have.
    private static let parameters: Set<String> = ["connect_timeout", "sslmode", "sslrootcert", "statement_timeout"]

    /// The URL without its password or parameters, for messages.
    var description: String { "postgres://\(user)@\(host):\(port)/\(database)" }

    /// `url` without its password.
    static func redacted(_ url: URL) -> String {
        PersistentStoreDescription.withoutPassword(url)
    }
}
