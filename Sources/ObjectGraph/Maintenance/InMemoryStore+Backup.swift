import Foundation

extension InMemoryStore {
    /// Backups are of store files; an in-memory store has none yet.
    func backup(to url: URL) throws {
        throw ObjectGraphError(
            .invalidOperation,
            "Cannot back up an in-memory store to \(url.path): backups copy a SQLite store's file, and an in-memory store has none")
    }

    /// Dumps are of store files too.
    func dump(to url: URL) throws {
        throw ObjectGraphError(
            .invalidOperation,
            "Cannot dump an in-memory store to \(url.path): dumps are of a SQLite store's file, and an in-memory store has none")
    }
}
