import CSQLite
import Foundation
import Testing

@testable import ObjectGraph

/// Opening store files: every way it can go wrong says what is wrong with which path.
@Suite struct SQLiteStoreOpeningTests {
    private func open(
        _ url: URL, model: ManagedObjectModel = SQLiteFixtures.model(), readOnly: Bool = false, pragmas: [String: String] = [:]
    ) throws -> SQLiteStore {
        try SQLiteStore(description: SQLiteFixtures.description(url, readOnly: readOnly, pragmas: pragmas), model: model)
    }

    private func openError(
        _ url: URL, model: ManagedObjectModel = SQLiteFixtures.model(), readOnly: Bool = false, pragmas: [String: String] = [:]
    ) -> ObjectGraphError? {
        #expect(throws: ObjectGraphError.self) { try open(url, model: model, readOnly: readOnly, pragmas: pragmas) }
    }

    @Test func aDirectoryIsRefused() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = openError(directory)
        #expect(error?.kind == .storeUnavailable)
        #expect(error?.message.contains("\(directory.path): it is a directory") == true)
    }

    /// Core Data's tests open a SQLite store at /dev/null for a throwaway store: it keeps nothing.
    @Test func devNullIsAThrowawayStore() throws {
        func container() throws -> PersistentContainer {
            let container = PersistentContainer(name: "Scratch", model: SQLiteFixtures.model())
            container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
            try container.loadPersistentStores()
            return container
        }
        let first = try container()
        try first.viewContext.insertNewObject(forEntityName: "Sample").setValue("kept for now", forKey: "label")
        try first.viewContext.save()
        #expect(try first.viewContext.count(for: FetchRequest<ManagedObject>(entityName: "Sample")) == 1)
        #expect(try container().viewContext.count(for: FetchRequest<ManagedObject>(entityName: "Sample")) == 0)
        first.persistentStoreCoordinator.removePersistentStore()
    }

    @Test func missingParentDirectoriesAreCreated() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("a/b/c/Store.sqlite")
        let store = try open(url)
        store.close()
        #expect(FileManager.default.fileExists(atPath: url.path))
    }

    @Test func aParentThatIsAFileIsNamed() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("plain")
        try Data("x".utf8).write(to: file)
        let error = openError(file.appendingPathComponent("sub/Store.sqlite"))
        #expect(error?.kind == .storeUnavailable)
        #expect(error?.message.contains("\(file.path) is a file, not a directory") == true)
    }

    @Test(arguments: [Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }), Data("hello, world\n".utf8)])
    func aFileThatIsNotADatabaseIsRefused(contents: Data) throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("garbage.sqlite")
        try contents.write(to: url)
        let error = openError(url)
        #expect(error?.kind == .corruptStore)
        #expect(error?.message.contains("\(url.path) is not a SQLite database") == true)
        #expect(error?.sqliteCode == SQLITE_NOTADB)
        // Nothing was written to the file.
        #expect(try Data(contentsOf: url) == contents)
    }

    @Test func aForeignDatabaseIsRefused() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("other.sqlite")
        let connection = try SQLiteConnection(path: url.path, readOnly: false, busyTimeout: 1)
        try connection.execute("CREATE TABLE \"Invoices\" (\"id\" INTEGER)")
        connection.close()
        let error = openError(url)
        #expect(error?.kind == .storeUnavailable)
        #expect(error?.message.contains("is a SQLite database but not an ObjectGraph store") == true)
        #expect(error?.message.contains("Invoices") == true)
    }

    @Test func anotherModelsStoreNeedsMigration() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Club.sqlite")
        try open(url).close()
        // Without automatic migration (see the migration tests for what it does).
        var description = SQLiteFixtures.description(url)
        description.shouldMigrateStoreAutomatically = false
        let error = #expect(throws: ObjectGraphError.self) {
            try SQLiteStore(description: description, model: SQLiteFixtures.model(version: 2, hash: "hash-club-2"))
        }
        #expect(error?.kind == .modelMismatch)
        for part in ["'Club' version 1 (hash hash-club-1)", "'Club' version 2 (hash hash-club-2)", "migrated"] {
            #expect(error?.message.contains(part) == true, "\(part)")
        }
    }

    @Test func identifierAndMetadataSurviveReopening() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Club.sqlite")
        let first = try open(url)
        let identifier = first.identifier
        first.close()
        let second = try open(url)
        defer { second.close() }
        #expect(second.identifier == identifier)
        #expect(UUID(uuidString: identifier) != nil)
        #expect(second.metadata.modelName == "Club")
        #expect(second.metadata.modelHash == "hash-club-1")
        #expect(second.metadata.formatVersion == StoreMetadataRecord.currentFormatVersion)
        #expect(second.metadata.modelJSON == "{\"name\":\"Club\"}")
    }

    @Test func readOnlyStoresReadButRefuseWrites() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Club.sqlite")
        let writer = try open(url)
        _ = try writer.save(SaveRequest(inserts: [SQLiteFixtures.member(writer, 1, email: "a@x")]))
        writer.close()

        let reader = try open(url, readOnly: true)
        defer { reader.close() }
        #expect(try SQLiteFixtures.fetchAll(reader).count == 1)
        let saveError = #expect(throws: ObjectGraphError.self) {
            try reader.save(SaveRequest(inserts: [SQLiteFixtures.member(reader, 2, email: "b@x")]))
        }
        #expect(saveError?.kind == .readOnly)
        let reserveError = #expect(throws: ObjectGraphError.self) { try reader.reservePrimaryKeys(for: reader.model.entities[0], count: 1) }
        #expect(reserveError?.kind == .readOnly)
    }

    @Test func readOnlyNeedsAnExistingFile() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("missing.sqlite")
        let error = openError(url, readOnly: true)
        #expect(error?.kind == .storeUnavailable)
        #expect(error?.message.contains("there is no file there") == true)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    // Permission bits do not stop root, so this only means something for other users.
    @Test(.enabled(if: getuid() != 0, "root can write to read-only files"))
    func anUnwritableFileIsReportedBeforeSQLiteSeesIt() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Club.sqlite")
        try open(url).close()
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
        let error = openError(url)
        #expect(error?.kind == .readOnly)
        #expect(error?.message.contains("not writable") == true)
        let reader = try open(url, readOnly: true)
        reader.close()
    }

    @Test func pragmasAreValidatedAndApplied() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Club.sqlite")
        let injected = openError(url, pragmas: ["cache_size": "1; DROP TABLE Member"])
        #expect(injected?.kind == .invalidOperation)
        #expect(injected?.message.contains("must be a plain number or a word") == true)
        let badName = openError(url, pragmas: ["cache size": "1"])
        #expect(badName?.kind == .invalidOperation)
        let misspelled = openError(url, pragmas: ["cahce_size": "-2000"])
        #expect(misspelled?.message.contains("did you mean 'cache_size'?") == true)

        try open(url).close()
        #expect(try journalMode(of: url) == "wal")
        try open(url, pragmas: ["journal_mode": "DELETE", "cache_size": "-4000"]).close()
        #expect(try journalMode(of: url) == "delete")
    }

    private func journalMode(of url: URL) throws -> String? {
        let connection = try SQLiteConnection(path: url.path, readOnly: true, busyTimeout: 1)
        let statement = try connection.prepare("PRAGMA journal_mode")
        _ = try statement.step()
        return statement.text(at: 0)
    }

    @Test func aClosedStoreSaysSo() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try open(directory.appendingPathComponent("Club.sqlite"))
        store.close()
        store.close()
        let error = #expect(throws: ObjectGraphError.self) { try SQLiteFixtures.fetchAll(store) }
        #expect(error?.kind == .invalidOperation)
        #expect(error?.message.hasSuffix("is closed") == true)
    }
}
