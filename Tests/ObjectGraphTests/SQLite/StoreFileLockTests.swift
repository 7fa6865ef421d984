import Foundation
import Testing

@testable import ObjectGraph

/// The lost-log check reads a store's `-shm` file outside SQLite. It must not do so while any
/// connection has the store: another process's log is live (reading it between two of that
/// process's writes once refused a healthy store), and closing a descriptor of a file drops every
/// POSIX lock this process holds on it, SQLite's included.
@Suite struct StoreFileLockTests {
    @Test func aStoreOpenInAnotherProcessIsSeenThroughItsSharedMemoryLock() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storePath = directory.appendingPathComponent("Held.sqlite").path
        let release = directory.appendingPathComponent("release").path
        let writer = try TestWriterProcess.start(["insert", "A", "a", "hold-until", release, "-"], storePath: storePath, in: directory)
        let deadline = Date().addingTimeInterval(60)
        while !writer.output.contains("holding"), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let whileHeld = SharedMemoryFile(path: storePath + "-shm")?.isOpenElsewhere
        try #require(FileManager.default.createFile(atPath: release, contents: nil))
        let outcome = try writer.finish()
        try #require(outcome.status == 0, "\(outcome.errors)")
        #expect(whileHeld == true, "the writer holds the store open")
        let afterwards = SharedMemoryFile(path: storePath + "-shm")
        #expect(afterwards == nil || afterwards?.isOpenElsewhere == false, "the writer has exited")
        #expect(WriteAheadLogCheck.problem(storePath: storePath) == nil)
    }

    @Test func openingAStoreAgainInThisProcessKeepsTheLocksOfItsFirstConnection() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Twice.sqlite")
        let first = try Self.loadedContainer(url)
        defer { first.persistentStoreCoordinator.removePersistentStore() }
        let context = first.newBackgroundContext()
        try context.performAndWait {
            _ = try context.insertObject("Item", ["code": "A"])
            try context.save()
        }
        let sharedMemory = url.path + "-shm"
        try #require(!(try Self.locksOfThisProcess(on: sharedMemory)).isEmpty, "SQLite locks the -shm file while the store is open")
        let second = try Self.loadedContainer(url)
        defer { second.persistentStoreCoordinator.removePersistentStore() }
        #expect(!(try Self.locksOfThisProcess(on: sharedMemory)).isEmpty, "opening the store again must not drop the locks")
    }

    private static func loadedContainer(_ url: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Locks", managedObjectModel: try ConformanceModel.load())
        container.persistentStoreDescriptions = [SQLiteFixtures.description(url)]
        try container.loadPersistentStores()
        return container
    }

    /// The POSIX locks this process holds on the file at `path`, as /proc/locks lists them.
    private static func locksOfThisProcess(on path: String) throws -> [Substring] {
        let inode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int)
        let locks = try String(contentsOfFile: "/proc/locks", encoding: .utf8)
        return locks.split(separator: "\n").filter { line in
            let fields = line.split(separator: " ")
            return fields.count >= 6 && fields[1] == "POSIX" && fields[4] == "\(getpid())" && fields[5].hasSuffix(":\(inode)")
        }
    }
}
