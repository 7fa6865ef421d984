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
    public init(postgresURL: URL) {
        self.init(type: .postgreSQL, url: postgresURL)
        storeOpener = PersistentStoreOpener(
            open: { description, model in try PostgreSQLStore(description: description, model: model) },
            describe: { description in "PostgreSQL store at \(description.url.map(PostgreSQLLocation.redacted) ?? "<no URL>")" })
    }
}
