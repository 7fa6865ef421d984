import Foundation

/// Migrating a store file when it opens with a newer model than the one that wrote it.
extension SQLiteStoreState {
    /// Migrates the store on `connection`, written by the model `metadata` describes, to `model`,
    /// inferring the mapping; throws `.modelMismatch` listing every difference that cannot be
    /// inferred, or the error that stopped the migration (which then changed nothing).
    static func migrate(_ connection: SQLiteConnection, from metadata: SQLiteStoreMetadata, to model: ManagedObjectModel) throws {
        let (migration, versions) = try inferredMigration(on: connection, from: metadata, to: model)
        do {
            try migration.run(on: connection)
        } catch let error as ObjectGraphError {
            var explained = ObjectGraphError(error.kind, "Cannot migrate the store at \(connection.path) \(versions): \(error.message); the store is unchanged")
            explained.sqliteCode = error.sqliteCode
            explained.sql = error.sql
            throw explained
        }
    }
}

extension SQLiteStoreState {
    /// The migration of the store on `connection` from the model `metadata` describes to
    /// `model`, and the words naming both versions; throws `.modelMismatch` listing every
    /// difference that cannot be inferred.
    static func inferredMigration(on connection: SQLiteConnection, from metadata: SQLiteStoreMetadata, to model: ManagedObjectModel) throws -> (SQLiteMigration, versions: String) {
        let old = try StoreMetadata.writingModel(of: metadata, path: connection.path)
        let versions = "from model '\(old.name)' version \(old.version) to '\(model.name)' version \(model.version)"
        let mapping = ModelMapping(from: old, to: model)
        guard mapping.issues.isEmpty else {
            var error = ObjectGraphError(
                .modelMismatch,
                "Cannot migrate the store at \(connection.path) \(versions): \(mapping.issues.count) \(mapping.issues.count == 1 ? "change cannot" : "changes cannot") be inferred:\n"
                    + mapping.issues.map { "  \($0)" }.joined(separator: "\n"))
            error.issues = mapping.issues
            throw error
        }
        return (try SQLiteMigration(mapping, on: connection), versions)
    }

    /// The migration opening the store at `path` with `model` would run, read through a
    /// read-only connection; `nil` when the store needs none.
    static func migrationPlan(path: String, to model: ManagedObjectModel) throws -> SQLiteMigration? {
        let metadata = try readMetadata(path: path)
        guard metadata.needsMigration(to: model) else { return nil }
        let connection = try SQLiteConnection(path: path, readOnly: true, busyTimeout: PersistentStoreDescription(url: URL(fileURLWithPath: path)).busyTimeout)
        defer { connection.close() }
        return try inferredMigration(on: connection, from: metadata, to: model).0
    }
}

extension SQLiteStoreMetadata {
    /// Whether a store with this metadata must be migrated before it opens with `model`: same
    /// store format, another model hash.
    func needsMigration(to model: ManagedObjectModel) -> Bool {
        formatVersion <= Self.currentFormatVersion && modelHash != model.versionHash
    }
}
