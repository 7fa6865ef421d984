import Foundation

/// What a store file says about itself, read without opening the store for use: which model
/// (name, version, hashes) wrote it, and its identifier. Compare it with a model through
/// `ManagedObjectModel.isConfiguration(compatibleWithStoreMetadata:)` to learn whether the store
/// opens with that model as it is or must be migrated first.
public struct StoreMetadata: Sendable {
    /// The name of the model that wrote the store.
    public let modelName: String
    /// The version number of the model that wrote the store.
    public let modelVersion: Int
    /// The version hash of the model that wrote the store (`ManagedObjectModel.versionHash`).
    public let modelVersionHash: String
    /// Each entity's version hash in the model that wrote the store, by entity name.
    public let entityVersionHashesByName: [String: String]
    /// The store's identifier, part of every object ID's URI.
    public let storeIdentifier: String
    /// When the store was created, as ISO 8601 text in UTC.
    public let createdAt: String
    /// The model that wrote the store, from the JSON the store keeps.
    public let model: ManagedObjectModel

    /// The metadata of a SQLite store, with the entity hashes of the model JSON the store keeps
    /// (so they are known even for stores written before entity hashes existed).
    package init(_ metadata: StoreMetadataRecord, path: String) throws {
        let writer = try Self.writingModel(of: metadata, path: path)
        modelName = metadata.modelName
        modelVersion = Int(metadata.modelVersion)
        modelVersionHash = metadata.modelHash
        entityVersionHashesByName = writer.entityVersionHashesByName
        storeIdentifier = metadata.storeIdentifier
        createdAt = metadata.createdAt
        model = writer
    }

    /// The model that wrote a store, from the JSON the store keeps.
    package static func writingModel(of metadata: StoreMetadataRecord, path: String) throws -> ManagedObjectModel {
        do {
            return try ManagedObjectModel(data: Data(metadata.modelJSON.utf8), sourceName: "the model kept in \(path)")
        } catch let error as ObjectGraphError {
            throw ObjectGraphError(.corruptStore, "The store at \(path) is damaged: the model it keeps cannot be read (\(error.message))")
        }
    }
}

extension PersistentStoreCoordinator {
    /// The metadata of the SQLite store file at `url`, read without opening the store for use
    /// (as Core Data's `metadataForPersistentStore(type:at:)`). Throws when there is no file, or
    /// the file is not an ObjectGraph store.
    public static func metadataForPersistentStore(at url: URL) throws -> StoreMetadata {
        let path = SQLiteStoreState.fileSystemPath(url)
        return try StoreMetadata(SQLiteStoreState.readMetadata(path: path), path: path)
    }
}

extension PersistentStoreCoordinator {
    /// What opening the SQLite store at `url` with `model` would do to migrate it, without doing
    /// it (a dry run): each SQL statement in order, with its bound values after it; `nil` when the
    /// store needs no migration. Throws `.modelMismatch` listing every change that cannot be
    /// inferred, each with its JSON path in `model`. Pass the `stages` and `mappings` the store's
    /// description will have: they decide what need not be inferred.
    public static func migrationPlan(
        forStoreAt url: URL, to model: ManagedObjectModel, stages: [MigrationStage] = [], mappings: [MappingModel] = []
    ) throws -> String? {
        try SQLiteStoreState.migrationPlan(path: SQLiteStoreState.fileSystemPath(url), to: model, stages: stages, mappings: mappings)?
            .description
    }
}

extension ManagedObjectModel {
    /// Whether a store with `metadata` opens with this model as it is: every entity has the same
    /// version hash in both (the test Core Data makes). When not, the store must be migrated.
    public func isConfiguration(compatibleWithStoreMetadata metadata: StoreMetadata) -> Bool {
        entityVersionHashesByName == metadata.entityVersionHashesByName
    }
}
