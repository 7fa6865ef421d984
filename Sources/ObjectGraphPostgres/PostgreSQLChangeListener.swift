import Dispatch
import Foundation
import ObjectGraph
import PostgresNIO
import Synchronization

/// Hears the commits other stores make to a PostgreSQL store's database: a connection of its own
/// LISTENs on the store's channel, where every save that records history sends its transaction's
/// number (`pg_notify` in the saving transaction, so the server delivers it at commit, in commit
/// order). A notification of another store's commit moves the store's data generation and wakes
/// the `RemoteChangeObserver`, which reads the history after the last transaction it delivered.
///
/// When the connection is lost (the server restarted, the backend was terminated), the
/// generation is no longer trusted and the listener connects again, after `interval`, then
/// twice as long each time up to 5 s; once it listens again it wakes the observer, whose history
/// read catches up with everything committed meanwhile.
///
/// The payload carries the number only, not the saved object IDs: the history read that follows
/// gives them, each transaction exactly once and in order, and has no size limit (PostgreSQL's
/// payloads stop at 8,000 bytes). The number lets the listener skip the store's own commits
/// without a read.
final class PostgreSQLChangeListener: RemoteCommitWatch, @unchecked Sendable {
    // @unchecked: `connection` and `retryDelay` are only touched on `queue`; the rest is
    // immutable, atomic or Sendable.
    private let queue = DispatchQueue(label: "ObjectGraph.PostgreSQLChangeListener")
    private let location: PostgreSQLLocation
    private let channel: String
    private let interval: TimeInterval
    private let generation: PostgreSQLDataGeneration
    private let ownCommits: PostgreSQLOwnCommits
    private let wake: @Sendable () -> Void
    private let stopped = Atomic<Bool>(false)
    private var connection: PostgreSQLConnection?
    private var retryDelay: TimeInterval

    /// Connects and listens; throws when the first connection cannot be made.
    init(
        location: PostgreSQLLocation, channel: String, interval: TimeInterval, generation: PostgreSQLDataGeneration,
        ownCommits: PostgreSQLOwnCommits, wake: @escaping @Sendable () -> Void
    ) throws {
        self.location = location
        self.channel = channel
        self.interval = interval
        self.generation = generation
        self.ownCommits = ownCommits
        self.wake = wake
        retryDelay = interval
        try queue.sync { try listen() }
    }

    /// Stops listening and closes the connection (without waiting for it).
    func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        generation.distrust()
        queue.async {
            self.connection?.close()
            self.connection = nil
        }
    }

    /// Connects, listens, and once the server confirmed the LISTEN trusts the generation and
    /// wakes the observer to catch up. On `queue`.
    private func listen() throws {
        let connection = try PostgreSQLConnection(location)
        let channel = channel
        let underlying = try connection.underlyingConnection()
        underlying.addListener(channel: channel) { [weak self] _, notification in
            self?.heard(notification.payload)
        }
        do {
            // postgres-nio sends a LISTEN of its own for the listener, without telling when the
            // server has taken it; once this one is answered, the server listens.
            try connection.execute("LISTEN \(quoteIdentifier(channel))")
        } catch {
            connection.close()
            throw (error as? PostgreSQLFailure)?.error("Cannot listen for other stores' commits to the PostgreSQL store at \(location)")
                ?? error
        }
        self.connection = connection
        retryDelay = interval
        underlying.closeFuture.whenComplete { [weak self] _ in self?.lost() }
        generation.trust(interval: interval)
        wake()
    }

    /// A notification: on an event loop, so it only looks at the payload and hands on.
    private func heard(_ payload: String) {
        if let number = Int64(payload), ownCommits.contains(number) { return }
        generation.advance()
        wake()
    }

    /// The connection closed: on an event loop, so the new one is made on `queue`.
    private func lost() {
        guard !stopped.load(ordering: .sequentiallyConsistent) else { return }
        generation.distrust()
        queue.async { self.reconnect() }
    }

    /// Tries to listen again, after the current delay; on `queue`.
    private func reconnect() {
        connection?.close()
        connection = nil
        queue.asyncAfter(deadline: .now() + retryDelay) { [weak self] in
            guard let self, !self.stopped.load(ordering: .sequentiallyConsistent) else { return }
            do {
                try self.listen()
            } catch {
                self.retryDelay = min(self.retryDelay * 2, Self.longestRetryDelay)
                self.reconnect()
            }
        }
    }

    private static let longestRetryDelay: TimeInterval = 5
}
