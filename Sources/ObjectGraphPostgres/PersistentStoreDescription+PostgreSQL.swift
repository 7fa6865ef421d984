import Foundation
import ObjectGraph

extension PersistentStoreDescription.StoreType {
    /// A database on a PostgreSQL server (see `PersistentStoreDescription(postgresURL:)`).
    public static let postgreSQL = PersistentStoreDescription.StoreType(rawValue: "postgresql")
}

extension PersistentStoreDescription {
    /// A description of a PostgreSQL store in the database `postgresURL` names:
    /// `postgres://user:password@host:port/database` (the port defaults to 5432). The database
    /// must exist; the store creates its tables in it on first use, and refuses a database
    /// another model's store wrote. Contexts, fetch requests and saves work as with SQLite.
    ///
    /// The URL's query may set, with libpq's names and meanings:
    /// - `connect_timeout=SECONDS`: how long connecting and logging in may take (default 10; 0
    ///   waits as long as the network does);
    /// - `sslmode=disable|prefer|require|verify-ca|verify-full`: whether the connection is
    ///   encrypted (`prefer`, the default, encrypts when the server offers TLS; `require` always
    ///   encrypts; the `verify-` modes also check the server's certificate, against the
    ///   authorities in the PEM file `sslrootcert=PATH` or else the system's, and `verify-full`
    ///   that it names the host);
    /// - `statement_timeout=DURATION` (`500ms`, `5s`): the server cancels a statement running
    ///   longer, and the operation fails with a `.busy` error.
    ///
    /// When the connection is lost (the server restarted), the next operation connects again; a
    /// save that was under way fails with `.storeUnavailable` and nothing of it is written.
    public init(postgresURL: URL) {
        self.init(type: .postgreSQL, url: postgresURL)
        storeOpener = PersistentStoreOpener(
            open: { description, model in try PostgreSQLStore(description: description, model: model) },
            describe: { description in "PostgreSQL store at \(description.url.map(PostgreSQLLocation.redacted) ?? "<no URL>")" })
    }
}
