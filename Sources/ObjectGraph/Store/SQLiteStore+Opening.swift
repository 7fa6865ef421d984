import CSQLite
import Foundation
import Logging

/// Opening a store file: check the location before SQLite can give a vague error, open, prove the
/// file is a database, apply pragmas, create the schema in a new file or check the existing one.
extension SQLiteStoreState {
    static func open(path: String, description: PersistentStoreDescription, model: ManagedObjectModel) throws -> SQLiteStoreState {
        let pragmas = try SQLitePragmas.settings(for: description)
        let readOnly = description.isReadOnly
        try checkLocation(path: path, readOnly: readOnly)
        let wasEmptyFile = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) == 0
        try checkWriteAheadLog(path: path)
        let connection = try SQLiteConnection(path: path, readOnly: readOnly, busyTimeout: description.busyTimeout)
        let tableNames = try connection.retryingWhileBusy { try readTableNames(connection) }
        try SQLitePragmas.apply(pragmas, to: connection)
        if tableNames.isEmpty {
            guard !readOnly else {
                throw ObjectGraphError(.storeUnavailable, "The file \(path) is empty, so there is no store to open read-only")
            }
            if try createStore(for: model, identifier: description.identifierOfNewStore, on: connection), wasEmptyFile {
                // SQLite reads an empty file as an empty database; a failed copy or restore leaves
                // such files where a store was, so the program is told rather than left to wonder
                // where its data went.
                Logger(label: "ObjectGraph.Store").warning(
                    "\(path) was an empty file (0 bytes), not a store: a new, empty store was created in it")
            }
        } else {
            try checkIsObjectGraphStore(tableNames, path: path)
        }
        var metadata = try StoreMetadataRecord(readFrom: connection)
        if metadata.needsMigration(to: model), description.shouldMigrateStoreAutomatically,
            description.shouldInferMappingModelAutomatically, !readOnly
        {
            if description.backsUpStoreBeforeMigrating { try backUp(connection, version: metadata.modelVersion) }
            try migrate(connection, from: metadata, to: model, description: description)
            metadata = try StoreMetadataRecord(readFrom: connection)
        }
        try metadata.checkCompatible(with: model, path: path)
        let idSpaces = ObjectIDSpace.spaces(for: model, storeIdentifier: metadata.storeIdentifier)
        let relationshipLayout = RelationshipLayout(model: model)
        let layouts = Dictionary(
            uniqueKeysWithValues: model.entities.filter { model.root(of: $0) === $0 }.map {
                ($0.index, TableLayout(root: $0, model: model, relationshipLayout: relationshipLayout))
            })
        let strictTables = try readStrictTableNames(connection)
        let tables = model.entities.map {
            let layout = layouts[model.rootIndexes[$0.index]]!
            return StoreTable(
                entity: $0, layout: layout, isStrict: strictTables.contains(layout.root.name), model: model, idSpaces: idSpaces)
        }
        // Read the version first: a commit landing in between then only causes a needless reload.
        let dataVersion = try dataVersion(on: connection)
        let counters = try loadPrimaryKeyCounters(tables: tables, on: connection)
        if description.recordsPersistentHistory, !readOnly { try createHistoryTables(on: connection) }
        let state = SQLiteStoreState(
            connection: connection, isReadOnly: readOnly, metadata: metadata, model: model, idSpaces: idSpaces,
            relationshipLayout: relationshipLayout, tables: tables,
            primaryKeyCounters: counters, countersDataVersion: dataVersion)
        state.recordsHistory = description.recordsPersistentHistory
        return state
    }

    /// The metadata of the store at `path`, read through a read-only connection of its own.
    static func readMetadata(path: String) throws -> StoreMetadataRecord {
        let connection = try openStoreForReading(path: path)
        defer { connection.close() }
        return try StoreMetadataRecord(readFrom: connection)
    }

    /// A read-only connection to the ObjectGraph store at `path`, with the default busy timeout;
    /// throws when there is no file, or it is not an ObjectGraph store.
    static func openStoreForReading(path: String) throws -> SQLiteConnection {
        try checkLocation(path: path, readOnly: true)
        try checkWriteAheadLog(path: path)
        let connection = try SQLiteConnection(
            path: path, readOnly: true, busyTimeout: PersistentStoreDescription(url: URL(fileURLWithPath: path)).busyTimeout)
        let tableNames = try connection.retryingWhileBusy { try readTableNames(connection) }
        guard !tableNames.isEmpty else {
            throw ObjectGraphError(.storeUnavailable, "The file \(path) is empty: there is no store there yet")
        }
        try checkIsObjectGraphStore(tableNames, path: path)
        return connection
    }

    /// Throws when the store's `-wal` file lost commits it should hold (see `WriteAheadLogCheck`),
    /// before SQLite opens the store and answers from what is left.
    private static func checkWriteAheadLog(path: String) throws {
        guard FileManager.default.fileExists(atPath: path), let problem = WriteAheadLogCheck.problem(storePath: path) else { return }
        throw ObjectGraphError(
            .corruptStore,
            "The store at \(path) has lost committed changes: \(problem). Opened as it is, it would show older data, and its next save would overwrite what is left. \(DamagedStoreRecovery.hint(for: path)) (reading what the -wal file still holds); moving the -wal and -shm files away opens the store as it was at its last checkpoint"
        )
    }

    /// Throws unless a database with `tableNames` (not empty) is an ObjectGraph store.
    private static func checkIsObjectGraphStore(_ tableNames: Set<String>, path: String) throws {
        guard !tableNames.contains(StoreSchema.metadataTable) else { return }
        throw ObjectGraphError(
            .storeUnavailable,
            "\(path) is a SQLite database but not an ObjectGraph store (it has no \(StoreSchema.metadataTable) table; its tables are \(tableNames.sorted().joined(separator: ", ")))"
        )
    }

    /// Checks the path with the file system first, because SQLite reports most of these cases as
    /// a bare "unable to open database file". Creates missing parent directories for a new store.
    private static func checkLocation(path: String, readOnly: Bool) throws {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists && isDirectory.boolValue {
            throw ObjectGraphError(
                .storeUnavailable,
                "Cannot open the store at \(path): it is a directory, and a store is a file (for example \(path)/Store.sqlite)")
        }
        let directory = fileSystemPath(URL(fileURLWithPath: path).deletingLastPathComponent())
        if readOnly {
            guard exists else {
                throw ObjectGraphError(.storeUnavailable, "Cannot open the store at \(path) read-only: there is no file there")
            }
            guard access(path, R_OK) == 0 else {
                throw ObjectGraphError(
                    .storeUnavailable, "Cannot open the store at \(path): the file is not readable (\(lastSystemError()))")
            }
            return
        }
        if exists {
            guard access(path, R_OK | W_OK) == 0 else {
                throw ObjectGraphError(
                    .readOnly,
                    "Cannot open the store at \(path) for writing: the file is not writable (\(lastSystemError())); open it with isReadOnly to read it"
                )
            }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw ObjectGraphError(
                    .storeUnavailable,
                    "Cannot create the directory \(directory) for the store at \(path): \(directoryProblem(directory) ?? "\(error)")")
            }
        }
        guard access(directory, W_OK) == 0 else {
            throw ObjectGraphError(
                .storeUnavailable,
                "Cannot open the store at \(path) for writing: its directory \(directory) is not writable (\(lastSystemError())), and SQLite keeps its journal files next to the store; open it with isReadOnly to read it"
            )
        }
    }

    /// Why `directory` cannot be created, found by walking up to the first path that exists.
    private static func directoryProblem(_ directory: String) -> String? {
        var url = URL(fileURLWithPath: directory)
        while fileSystemPath(url) != "/" {
            var isDirectory: ObjCBool = false
            let path = fileSystemPath(url)
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                if !isDirectory.boolValue { return "\(path) is a file, not a directory" }
                if access(path, W_OK) != 0 { return "\(path) is not writable (\(lastSystemError()))" }
                return nil
            }
            url.deleteLastPathComponent()
        }
        return nil
    }

    /// The path of a file URL as the file system spells it: no percent-encoding, no trailing slash.
    static func fileSystemPath(_ url: URL) -> String {
        var path = url.standardizedFileURL.path(percentEncoded: false)
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    private static func lastSystemError() -> String {
        String(cString: strerror(errno))
    }

    /// The names of the tables SQLite keeps `STRICT` (every table a store creates is; a file
    /// rebuilt by other means might not be, and then its values are checked as they are read).
    private static func readStrictTableNames(_ connection: SQLiteConnection) throws -> Set<String> {
        let statement = try connection.prepare("SELECT name FROM pragma_table_list WHERE schema = 'main' AND strict = 1")
        var names: Set<String> = []
        while try statement.step() {
            if let name = statement.text(at: 0) { names.insert(name) }
        }
        return names
    }

    /// The names of the database's tables. This is the first read of the file, so it is where a
    /// file that is not a database shows itself (SQLITE_NOTADB comes on first read, not at open).
    private static func readTableNames(_ connection: SQLiteConnection) throws -> Set<String> {
        let activity = "Cannot read the store at \(connection.path)"
        do {
            let statement = try connection.prepare(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'", activity: activity)
            var names: Set<String> = []
            while try statement.step(explainingFailure: { $0.error(activity) }) {
                if let name = statement.text(at: 0) { names.insert(name) }
            }
            return names
        } catch let error as ObjectGraphError {
            guard let code = error.sqliteCode else { throw error }
            let suffix = "[\(SQLiteResultCode.describe(code))]"
            var explained: ObjectGraphError
            switch code & 0xFF {
            case SQLITE_NOTADB where DatabaseImage.looksLikeDamagedDatabase(path: connection.path):
                explained = ObjectGraphError(
                    .corruptStore,
                    "The store at \(connection.path) is damaged: its header is not a valid SQLite header, though its pages are a database's; \(DamagedStoreRecovery.hint(for: connection.path)) \(suffix)"
                )
            case SQLITE_NOTADB:
                explained = ObjectGraphError(.corruptStore, "\(connection.path) is not a SQLite database \(suffix)")
            case SQLITE_CORRUPT:
                explained = ObjectGraphError(
                    .corruptStore,
                    "The store at \(connection.path) is damaged: SQLite cannot read its schema; \(DamagedStoreRecovery.hint(for: connection.path)) \(suffix)"
                )
            default:
                throw error
            }
            explained.sqliteCode = code
            explained.sql = error.sql
            throw explained
        }
    }

    /// Creates the schema and metadata of a new store in one transaction. Another process may
    /// create the same store at the same moment; whoever gets the write lock second finds the
    /// metadata table and leaves the store as it is. Returns whether this call created it.
    private static func createStore(for model: ManagedObjectModel, identifier: String?, on connection: SQLiteConnection) throws -> Bool {
        try connection.transaction {
            let probe = try connection.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?")
            try probe.bind(.string(StoreSchema.metadataTable), at: 1)
            guard try !probe.step() else { return false }
            for statement in StoreSchema.statements(for: model) {
                try connection.execute(statement)
            }
            try StoreMetadataRecord(newStoreFor: model, identifier: identifier).write(to: connection)
            return true
        }
    }
}
