import CSQLite
import Foundation
import Testing

@testable import ObjectGraph

/// A store shipped where nothing may be written (read-only media, a folder owned by another
/// user): opened with `isReadOnly`, it reads, even though SQLite cannot create its `-shm` file
/// there. Run by another process as `nobody` when the tests run as root, whom permissions do not
/// stop; with the folder made read-only otherwise.
@Suite struct ReadOnlyDirectoryTests {
    /// A folder holding a closed store of the conformance model with `count` items and nothing
    /// beside it (closing checkpoints and removes `-wal` and `-shm`).
    private static func shippedStore(items count: Int) throws -> (directory: URL, path: String) {
        let store = try TestStore(.sqlite)
        try store.withNewContext { context in
            for number in 0..<count { _ = try context.insertItem("S\(number)") }
            try context.save()
        }
        let source = try #require(store.directory).appendingPathComponent("Conformance.sqlite")
        let directory = try SQLiteFixtures.makeDirectory()
        let path = directory.appendingPathComponent("Seed.sqlite").path
        store.container.persistentStoreCoordinator.removePersistentStore()
        try FileManager.default.copyItem(atPath: source.path, toPath: path)
        return (directory, path)
    }

    /// Runs the writer's `commands` read-only on the store at `path`, unable to write its folder.
    private static func readOnly(_ commands: [String], path: String, directory: URL) throws -> TestWriterProcess.Outcome {
        let asRoot = getuid() == 0
        if !asRoot { try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.path) }
        defer { if !asRoot { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path) } }
        let modelFolder = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: modelFolder) }
        return try TestWriterProcess.runTogether(
            [commands], storePath: path, in: modelFolder, environment: ["OBJECTGRAPH_TEST_WRITER_READ_ONLY": "1"], asNobody: asRoot)[0]
    }

    @Test func aStoreInAFolderThatCannotBeWrittenOpensReadOnly() throws {
        let (directory, path) = try Self.shippedStore(items: 3)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try Self.readOnly(["count", "Item", "-", "count", "Item", "-"], path: path, directory: directory)
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output == "3\n3\n")
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }

    @Test func unsavedChangesInAWALThatCannotBeReadAreNamed() throws {
        let (directory, path) = try Self.shippedStore(items: 1)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A commit left in the -wal file, as a process killed before its last close leaves it.
        var handle: OpaquePointer?
        try #require(sqlite3_open(path, &handle) == SQLITE_OK)
        try #require(sqlite3_exec(handle, "PRAGMA wal_autocheckpoint = 0; UPDATE \"Item\" SET \"title\" = 'x'", nil, nil, nil) == SQLITE_OK)
        let copy = directory.appendingPathComponent("Copy.sqlite").path
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix) }
        sqlite3_close(handle)
        let outcome = try Self.readOnly(["count", "Item", "-"], path: copy, directory: directory)
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("-wal file holds"), "\(outcome.errors)")
        #expect(outcome.errors.contains("is not writable"), "\(outcome.errors)")
    }
}
