import Foundation
import ObjectGraphPostgres

@testable import ObjectGraph

/// Where a migration test keeps its store, named by a URL either way: a SQLite file in a fresh
/// directory, or a fresh database of the tests' PostgreSQL server. Both are removed when the
/// value goes away.
final class MigrationStore: Sendable {
    /// The stores that migrate (the in-memory store starts from a file, see `InferredMigrationTests`).
    static var kinds: [StoreKind] { StoreKind.allCases.filter(\.keepsDataWhenReopened) }

    let url: URL
    private let directory: URL?
    private let database: String?

    /// A new, empty location of `kind`; a SQLite store is `name`.sqlite.
    init(_ kind: StoreKind, name: String) throws {
        switch kind {
        case .postgreSQL:
            let server = try PostgreSQLTestServer.shared.get()
            let database = try server.createDatabase()
            (self.database, directory, url) = (database, nil, server.url(database: database))
        default:
            let directory = try SQLiteFixtures.makeDirectory()
            (database, self.directory, url) = (nil, directory, directory.appendingPathComponent("\(name).sqlite"))
        }
    }

    deinit {
        if let directory { try? FileManager.default.removeItem(at: directory) }
        if let database, let server = try? PostgreSQLTestServer.shared.get() { server.dropDatabase(database) }
    }

    /// The description of the store at `url`, a file or a `postgres://` database.
    static func description(_ url: URL) -> PersistentStoreDescription {
        url.scheme == "postgres" ? PersistentStoreDescription(postgresURL: url) : PersistentStoreDescription(url: url)
    }

    /// The metadata of the store at `url`, read without opening it.
    static func metadata(_ url: URL) throws -> StoreMetadata {
        url.scheme == "postgres"
            ? try PersistentStoreCoordinator.metadataForPersistentStore(postgresURL: url)
            : try PersistentStoreCoordinator.metadataForPersistentStore(at: url)
    }

    /// The migration plan of the store at `url` to `model` (see `migrationPlan(forStoreAt:)`).
    static func plan(
        _ url: URL, to model: ManagedObjectModel, stages: [MigrationStage] = [], mappings: [MappingModel] = []
    ) throws -> String? {
        url.scheme == "postgres"
            ? try PersistentStoreCoordinator.migrationPlan(forPostgresStoreAt: url, to: model, stages: stages, mappings: mappings)
            : try PersistentStoreCoordinator.migrationPlan(forStoreAt: url, to: model, stages: stages, mappings: mappings)
    }
}
