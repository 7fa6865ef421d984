import Foundation
import Logging
import ObjectGraph
import PostgresNIO
import Synchronization

extension PostgreSQLConnection {
    /// Opens a new connection to `location` on one of postgres-nio's event loops: encrypted as
    /// its `sslmode` says, its `statement_timeout` set for the session, connecting and logging in
    /// together bounded by its `connect_timeout`. The one way anything in the store connects (its
    /// own connection, and any other it needs, such as a listener's); the future fails with a
    /// `PostgreSQLFailure` (`connectionError(_:)` says it in words). Wait on it from a thread that
    /// is not an event loop's, or with `get()` in async code.
    static func open(_ location: PostgreSQLLocation, logger: Logger) -> EventLoopFuture<PostgresConnection> {
        let eventLoop = PostgresConnection.defaultEventLoopGroup.next()
        let configuration: PostgresConnection.Configuration
        do {
            configuration = try location.configuration()
        } catch {
            return eventLoop.makeFailedFuture(PostgreSQLFailure(error, location: location))
        }
        let attempt = PostgresConnection.connect(
            on: eventLoop, configuration: configuration, id: connectionNumbers.add(1, ordering: .relaxed).newValue, logger: logger)
        let promise = eventLoop.makePromise(of: PostgresConnection.self)
        attempt.cascade(to: promise)
        if let seconds = location.connectTimeout {
            // postgres-nio bounds the TCP connect only; a server that accepts and then says
            // nothing would keep the login waiting for ever.
            let timer = eventLoop.scheduleTask(in: .seconds(Int64(seconds))) {
                promise.fail(PostgreSQLFailure.ConnectTimeout(seconds: seconds))
            }
            promise.futureResult.whenComplete { _ in timer.cancel() }
        }
        // A connection made after the timeout fired is nobody's: close it.
        promise.futureResult.whenFailure { _ in attempt.whenSuccess { let _: EventLoopFuture<Void> = $0.close() } }
        return promise.futureResult.flatMapErrorThrowing { throw PostgreSQLFailure($0, location: location) }
    }

    /// Numbers for postgres-nio's connection IDs (in its log messages).
    private static let connectionNumbers = Atomic<Int>(0)
}

extension PostgreSQLLocation {
    /// postgres-nio's configuration for connecting here.
    fileprivate func configuration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        switch sslMode {
        case .disable:
            tls = .disable
        case .prefer, .require:
            // Encrypted but not checked, as libpq does without a root certificate.
            var settings = TLSConfiguration.makeClientConfiguration()
            settings.certificateVerification = .none
            settings.trustRoots = .certificates([])
            let context = try NIOSSLContext(configuration: settings)
            tls = sslMode == .prefer ? .prefer(context) : .require(context)
        case .verifyCA, .verifyFull:
            var settings = TLSConfiguration.makeClientConfiguration()
            settings.certificateVerification = sslMode == .verifyFull ? .fullVerification : .noHostnameVerification
            if let sslRootCertificate { settings.trustRoots = .file(sslRootCertificate) }
            tls = .require(try NIOSSLContext(configuration: settings))
        }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: tls)
        // The store's own timer (`open`) bounds connecting and logging in; postgres-nio's, for
        // the TCP connect alone, fires a second later so the store's says what happened.
        // Without connect_timeout, the network's own limits apply.
        configuration.options.connectTimeout = .seconds(Int64((connectTimeout ?? 3_600) + 1))
        if let statementTimeout { configuration.options.additionalStartupParameters = [("statement_timeout", statementTimeout)] }
        return configuration
    }
}
