import Foundation
import ObjectGraph
import PostgresNIO

/// Everything about an open PostgreSQL store's writing that is not thread-safe: the writing
/// connection and the history of the save in progress, with the tables it shares with the
/// readers. Owned by one `PostgreSQLStore` and touched only on that store's serial queue. It
/// reads too (`PostgreSQLReading`), where a read must see the transaction it has open.
final class PostgreSQLStoreState: PostgreSQLReading {
    let connection: PostgreSQLConnection
    let metadata: StoreMetadataRecord
    let schema: PostgreSQLStoreTables
    /// Whether saves record persistent history (the description's `recordsPersistentHistory`).
    let recordsHistory: Bool
    /// The history of the transaction in progress, when history is recorded.
    var pendingHistory: PendingHistory?
    /// The history transactions this store committed (see `PostgreSQLOwnCommits`).
    let ownCommits = PostgreSQLOwnCommits()
    /// Whether the history tables were found (see `requireHistoryTables`).
    var hasHistoryTables = false
    /// Whether the save in progress writes each row alone: it is being made again because the
    /// server refused a statement writing many rows (see `ArrayStatementRefused`).
    var writesRowByRow = false
    private(set) var isClosed = false

    private init(connection: PostgreSQLConnection, metadata: StoreMetadataRecord, model: ManagedObjectModel, recordsHistory: Bool) {
        self.connection = connection
        self.metadata = metadata
        self.recordsHistory = recordsHistory
        hasHistoryTables = recordsHistory
        schema = PostgreSQLStoreTables(model: model, storeIdentifier: metadata.storeIdentifier, location: connection.location)
    }

    /// Connects to `location` and opens the store there: creates the schema in a database
    /// without one, checks the metadata of one with a store, and migrates a store an earlier
    /// model version wrote when `description` allows it. Stores opening at once (other
    /// processes) take turns through an advisory lock, so only one creates or migrates the
    /// schema and the others wait for it, then open what it made. When the description records
    /// persistent history, the history tables are made too if they are not there yet.
    static func open(
        _ location: PostgreSQLLocation, model: ManagedObjectModel, description: PersistentStoreDescription
    ) throws -> PostgreSQLStoreState {
        let recordsHistory = description.recordsPersistentHistory
        let connection = try PostgreSQLConnection(location)
        do {
            let metadata = try connection.transaction {
                try connection.execute("SELECT pg_advisory_xact_lock($1)", [.integer(schemaLock)])
                let existing = try connection.execute(
                    "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema()")
                let names = try Set(existing.rows.map { try $0[0].decode(String.self) })
                var metadata: StoreMetadataRecord
                if names.contains(StoreSchema.metadataTable) {
                    metadata = try readMetadata(on: connection)
                    if metadata.needsMigration(to: model), description.shouldMigrateStoreAutomatically,
                        description.shouldInferMappingModelAutomatically
                    {
                        try migrate(on: connection, from: metadata, to: model, description: description)
                        metadata = try readMetadata(on: connection)
                    }
                    try metadata.checkCompatible(with: model, path: location.description)
                } else {
                    guard names.isEmpty else {
                        throw ObjectGraphError(
                            .storeUnavailable,
                            "The database at \(location) holds tables but no ObjectGraph store (no \(StoreSchema.metadataTable) table); use an empty database"
                        )
                    }
                    metadata = try create(model, identifier: description.identifierOfNewStore, on: connection)
                }
                if recordsHistory { try createHistoryTables(on: connection) }
                return metadata
            }
            return PostgreSQLStoreState(connection: connection, metadata: metadata, model: model, recordsHistory: recordsHistory)
        } catch let failure as PostgreSQLFailure {
            connection.close()
            throw failure.error("Cannot open the PostgreSQL store at \(location)")
        } catch {
            connection.close()
            throw error
        }
    }

    /// The advisory lock key every store takes while opening ("ObjGraph" in ASCII).
    private static let schemaLock: Int64 = 0x4F62_6A47_7261_7068

    /// Creates `model`'s schema and metadata (the store identified by `identifier`, or a new
    /// UUID) inside the caller's transaction.
    private static func create(
        _ model: ManagedObjectModel, identifier: String?, on connection: PostgreSQLConnection
    ) throws -> StoreMetadataRecord {
        // One round trip for the whole schema: each statement run by one anonymous block.
        let statements = PostgreSQLSchema.statements(for: model).enumerated().map { number, statement in
            "EXECUTE $ddl\(number)$\(statement)$ddl\(number)$;"
        }
        try connection.execute("DO $objectgraph$ BEGIN\n\(statements.joined(separator: "\n"))\nEND $objectgraph$")
        let metadata = StoreMetadataRecord(newStoreFor: model, identifier: identifier)
        let entries = metadata.entries
        let rows = entries.indices.map { "($\(2 * $0 + 1), $\(2 * $0 + 2))" }
        try connection.execute(
            "INSERT INTO \(quoteIdentifier(StoreSchema.metadataTable)) (\"key\", \"value\") VALUES \(rows.joined(separator: ", "))",
            entries.flatMap { [.string($0.key), $0.value] })
        return metadata
    }

    /// The store's metadata, as `create` wrote it.
    static func readMetadata(on connection: PostgreSQLConnection) throws -> StoreMetadataRecord {
        let result = try connection.execute("SELECT \"key\", \"value\" FROM \(quoteIdentifier(StoreSchema.metadataTable))")
        var entries: [String: String] = [:]
        for cells in result.rows {
            entries[try cells[0].decode(String.self)] = try cells[1].decode(String.self)
        }
        return try StoreMetadataRecord(entries: entries, location: connection.location.description)
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        connection.close()
    }
}

@available(*, unavailable)
extension PostgreSQLStoreState: Sendable {}
