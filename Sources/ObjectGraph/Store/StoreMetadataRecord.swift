import Foundation

/// What a store records about itself in `_objectgraph_metadata` (the SQLite store, and the
/// PostgreSQL store in the same table): enough to refuse a store written by another model, and
/// for migration to know which model wrote it.
package struct StoreMetadataRecord: Sendable, Equatable {
    /// The layout of our tables; bumped when it changes incompatibly.
    static let currentFormatVersion: Int64 = 1

    /// The keys of the metadata table.
    enum Key {
        static let formatVersion = "format_version"
        static let modelName = "model_name"
        static let modelVersion = "model_version"
        static let modelHash = "model_hash"
        static let modelJSON = "model_json"
        static let storeIdentifier = "store_uuid"
        static let createdAt = "created_at"

        static let all: Set<String> = [formatVersion, modelName, modelVersion, modelHash, modelJSON, storeIdentifier, createdAt]
    }

    var formatVersion: Int64
    var modelName: String
    var modelVersion: Int64
    var modelHash: String
    /// The model's canonical JSON, so a later version can migrate without the old model file.
    var modelJSON: String
    /// The store's UUID: `PersistentStore.identifier`.
    package var storeIdentifier: String
    /// When the store was created, ISO 8601 in UTC (text, for people reading the file).
    var createdAt: String

    /// Metadata for a new store of `model`, identified by `identifier` (a new UUID when `nil`).
    package init(newStoreFor model: ManagedObjectModel, identifier: String? = nil) {
        self.formatVersion = Self.currentFormatVersion
        self.modelName = model.name
        self.modelVersion = Int64(model.version)
        self.modelHash = model.versionHash
        self.modelJSON = String(decoding: model.canonicalJSON, as: UTF8.self)
        self.storeIdentifier = identifier ?? UUID().uuidString
        self.createdAt = UTCDateText.iso8601(Date())
    }

    /// The metadata stored in the database; a missing or malformed entry means damage.
    init(readFrom connection: SQLiteConnection) throws {
        let statement = try connection.prepare("SELECT \"key\", \"value\" FROM \(quoteIdentifier(StoreSchema.metadataTable))")
        var entries: [String: String] = [:]
        while try statement.step() {
            if let key = statement.text(at: 0) { entries[key] = statement.text(at: 1) }
        }
        try self.init(entries: entries, location: connection.path)
    }

    /// The metadata in `entries`, the table's rows as text; `location` names the store in errors.
    package init(entries: [String: String], location: String) throws {
        func require(_ key: String) throws -> String {
            guard let value = entries[key] else {
                throw ObjectGraphError(.corruptStore, "The store at \(location) is damaged: its metadata has no '\(key)' entry")
            }
            return value
        }
        func requireInteger(_ key: String) throws -> Int64 {
            let text = try require(key)
            guard let value = Int64(text) else {
                throw ObjectGraphError(
                    .corruptStore, "The store at \(location) is damaged: its metadata entry '\(key)' is '\(text)', not an integer")
            }
            return value
        }
        self.formatVersion = try requireInteger(Key.formatVersion)
        self.modelName = try require(Key.modelName)
        self.modelVersion = try requireInteger(Key.modelVersion)
        self.modelHash = try require(Key.modelHash)
        self.modelJSON = try require(Key.modelJSON)
        self.storeIdentifier = try require(Key.storeIdentifier)
        self.createdAt = try require(Key.createdAt)
    }

    /// Every entry, as the metadata table keeps it.
    package var entries: [(key: String, value: AttributeValue)] {
        [
            (Key.formatVersion, .integer(formatVersion)),
            (Key.modelName, .string(modelName)),
            (Key.modelVersion, .integer(modelVersion)),
            (Key.modelHash, .string(modelHash)),
            (Key.modelJSON, .string(modelJSON)),
            (Key.storeIdentifier, .string(storeIdentifier)),
            (Key.createdAt, .string(createdAt))
        ]
    }

    /// Inserts every entry (into a new store's empty metadata table).
    func write(to connection: SQLiteConnection) throws {
        let statement = try connection.prepare(
            "INSERT INTO \(quoteIdentifier(StoreSchema.metadataTable)) (\"key\", \"value\") VALUES (?, ?)")
        for (key, value) in entries {
            statement.reset()
            try statement.bind([.string(key), value])
            try statement.execute()
        }
    }

    /// Throws unless a store with this metadata can be opened with `model`: same format, same
    /// model hash. A different hash means the schema differs and the store needs migrating.
    package func checkCompatible(with model: ManagedObjectModel, path: String) throws {
        guard formatVersion <= Self.currentFormatVersion else {
            throw ObjectGraphError(
                .storeUnavailable,
                "The store at \(path) was written by a newer version of ObjectGraph (store format \(formatVersion); this version reads format \(Self.currentFormatVersion) and earlier)"
            )
        }
        guard modelHash == model.versionHash else {
            throw ObjectGraphError(
                .modelMismatch,
                "The store at \(path) was created with model '\(modelName)' version \(modelVersion) (hash \(modelHash)), but it is being opened with model '\(model.name)' version \(model.version) (hash \(model.versionHash)); it is not migrated automatically (shouldMigrateStoreAutomatically or shouldInferMappingModelAutomatically is off, or the store is read-only)"
            )
        }
    }
}
