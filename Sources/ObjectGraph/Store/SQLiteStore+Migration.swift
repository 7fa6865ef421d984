import Foundation

/// Migrating a store file when it opens with a newer model than the one that wrote it.
extension SQLiteStoreState {
    /// Migrates the store on `connection`, written by the model `metadata` describes, to `model`
    /// (through `model.previousVersions` in between), inferring each step; throws
    /// `.modelMismatch` listing every difference that cannot be inferred, or the error that
    /// stopped the migration (which then changed nothing).
    static func migrate(
        _ connection: SQLiteConnection, from metadata: StoreMetadataRecord, to model: ManagedObjectModel,
        description: PersistentStoreDescription
    ) throws {
        let path = try migrationPath(
            on: connection, from: metadata, to: model, stages: description.migrationStages, mappings: description.mappingModels)
        do {
            try connection.transaction {
                try path.run(in: SQLiteMigrationTarget(connection), progress: description.migrationProgressReporter)
            }
        } catch {
            throw path.failure(error, location: connection.path)
        }
    }

    /// The copy `backsUpStoreBeforeMigrating` makes of the store at `path`, written by `version`.
    static func backupURL(of path: String, version: Int64) -> URL {
        URL(fileURLWithPath: path).deletingPathExtension().appendingPathExtension("before-migration-v\(version).sqlite")
    }

    /// Copies the store on `connection` (as it is, consistent) next to it before a migration;
    /// throws when the copy exists already (an earlier copy is never overwritten) or cannot be made.
    static func backUp(_ connection: SQLiteConnection, version: Int64) throws {
        let target = backupURL(of: connection.path, version: version).path
        let activity = "Cannot back up the store at \(connection.path) to \(target) before migrating it"
        guard !FileManager.default.fileExists(atPath: target) else {
            throw ObjectGraphError(.invalidOperation, "\(activity): that file exists already; move it away to make a new backup")
        }
        try connection.copy(into: target, activity: activity)
    }

    /// The migration of the store on `connection` from the model `metadata` describes to `model`.
    static func migrationPath(
        on connection: SQLiteConnection, from metadata: StoreMetadataRecord, to model: ManagedObjectModel,
        stages: [MigrationStage], mappings: [MappingModel]
    ) throws -> StoreMigrationPath {
        try StoreMigrationPath(
            from: StoreMetadata.writingModel(of: metadata, path: connection.path), to: model, stages: stages, mappings: mappings,
            in: SQLiteMigrationTarget(connection))
    }

    /// The migration opening the store at `path` with `model` (and `stages`) would run, read
    /// through a read-only connection; `nil` when the store needs none.
    static func migrationPlan(
        path: String, to model: ManagedObjectModel, stages: [MigrationStage], mappings: [MappingModel]
    ) throws -> StoreMigrationPath? {
        let connection = try openStoreForReading(path: path)
        defer { connection.close() }
        let metadata = try StoreMetadataRecord(readFrom: connection)
        guard metadata.needsMigration(to: model) else { return nil }
        return try migrationPath(on: connection, from: metadata, to: model, stages: stages, mappings: mappings)
    }
}

extension StoreMetadataRecord {
    /// Whether a store with this metadata must be migrated before it opens with `model`: same
    /// store format, another model hash.
    package func needsMigration(to model: ManagedObjectModel) -> Bool {
        formatVersion <= Self.currentFormatVersion && modelHash != model.versionHash
    }
}
