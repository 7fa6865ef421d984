import Foundation
import ObjectGraph

/// Migrating a PostgreSQL store when it opens with a newer model than the one that wrote it:
/// the SQLite store's migration (`StoreMigrationPath`, the same inference, stages, mappings and
/// progress), run in PostgreSQL's types inside the transaction that opens the store.
extension PostgreSQLStoreState {
    /// Migrates the store on `connection`, written by the model `metadata` describes, to `model`,
    /// inside the caller's transaction; throws `.modelMismatch` listing every difference that
    /// cannot be inferred, or the error that stopped the migration (the caller's rollback then
    /// leaves the database as it was).
    static func migrate(
        on connection: PostgreSQLConnection, from metadata: StoreMetadataRecord, to model: ManagedObjectModel,
        description: PersistentStoreDescription
    ) throws {
        let location = connection.location.description
        if description.backsUpStoreBeforeMigrating {
            throw ObjectGraphError(
                .invalidOperation,
                "Cannot migrate the PostgreSQL store at \(location): backsUpStoreBeforeMigrating copies SQLite files only; back the database up with pg_dump, then open it without that option (the migration is one transaction either way)"
            )
        }
        let target = PostgreSQLMigrationTarget(connection)
        let path = try migrationPath(
            in: target, from: metadata, to: model, stages: description.migrationStages, mappings: description.mappingModels)
        do {
            try path.run(in: target, progress: description.migrationProgressReporter)
        } catch {
            throw path.failure(error, location: location)
        }
    }

    /// The migration of the store in `target` from the model `metadata` describes to `model`.
    private static func migrationPath(
        in target: PostgreSQLMigrationTarget, from metadata: StoreMetadataRecord, to model: ManagedObjectModel,
        stages: [MigrationStage], mappings: [MappingModel]
    ) throws -> StoreMigrationPath {
        try StoreMigrationPath(
            from: StoreMetadata.writingModel(of: metadata, path: target.location), to: model, stages: stages, mappings: mappings,
            in: target)
    }

    /// Reads the metadata of the store at `location` on a connection of its own, and passes it
    /// and the connection to `body`; throws when the database holds no store.
    static func withStoredMetadata<T>(
        at location: PostgreSQLLocation, _ body: (StoreMetadataRecord, PostgreSQLConnection) throws -> T
    ) throws -> T {
        let connection = try PostgreSQLConnection(location)
        defer { connection.close() }
        let metadata: StoreMetadataRecord
        do {
            let tables = try connection.execute(
                "SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1",
                [.string(StoreSchema.metadataTable)])
            guard !tables.rows.isEmpty else {
                throw ObjectGraphError(
                    .storeUnavailable,
                    "The database at \(location) holds no ObjectGraph store (no \(StoreSchema.metadataTable) table)")
            }
            metadata = try readMetadata(on: connection)
        } catch let failure as PostgreSQLFailure {
            throw failure.error("Cannot read the PostgreSQL store at \(location)")
        }
        return try body(metadata, connection)
    }

    /// The migration opening the store at `location` with `model` would run; `nil` when it needs none.
    static func migrationPlan(
        at location: PostgreSQLLocation, to model: ManagedObjectModel, stages: [MigrationStage], mappings: [MappingModel]
    ) throws -> StoreMigrationPath? {
        try withStoredMetadata(at: location) { metadata, connection in
            guard metadata.needsMigration(to: model) else { return nil }
            return try migrationPath(
                in: PostgreSQLMigrationTarget(connection), from: metadata, to: model, stages: stages, mappings: mappings)
        }
    }
}

extension PersistentStoreCoordinator {
    /// The metadata of the PostgreSQL store in the database `url` names
    /// (`postgres://user:password@host:port/database`), read without opening the store for use,
    /// as `metadataForPersistentStore(at:)` reads a SQLite file's.
    public static func metadataForPersistentStore(postgresURL url: URL) throws -> StoreMetadata {
        let location = try PostgreSQLLocation(url)
        return try PostgreSQLStoreState.withStoredMetadata(at: location) { metadata, _ in
            try StoreMetadata(metadata, path: location.description)
        }
    }

    /// What opening the PostgreSQL store at `url` with `model` would do to migrate it, without
    /// doing it (a dry run), as `migrationPlan(forStoreAt:to:stages:mappings:)` shows a SQLite
    /// file's: each SQL statement in order (with `?` for each bound value), its bound values
    /// after it; `nil` when the store needs no migration.
    public static func migrationPlan(
        forPostgresStoreAt url: URL, to model: ManagedObjectModel, stages: [MigrationStage] = [], mappings: [MappingModel] = []
    ) throws -> String? {
        try PostgreSQLStoreState.migrationPlan(at: PostgreSQLLocation(url), to: model, stages: stages, mappings: mappings)?.description
    }
}
