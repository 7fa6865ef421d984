import Foundation
import Synchronization
import Testing

@testable import ObjectGraph

/// Online backup: a copy taken while contexts keep saving is one consistent snapshot that opens
/// and passes the integrity check.
@Suite struct OnlineBackupTests {
    @Test func aBackupTakenDuringSavesOpensWholeAndSound() throws {
        let store = try TestStore(.sqlite)
        try store.withNewContext { context in
            for number in 0..<500 { _ = try context.insertItem("I\(number)", ["i64": number]) }
            try context.save()
        }
        let stop = Atomic<Bool>(false)
        let saves = Atomic<Int>(0)
        let finished = DispatchGroup()
        for writer in 0..<4 {
            let context = store.newContext(name: "writer \(writer)")
            finished.enter()
            Thread {
                var number = 0
                while !stop.load(ordering: .relaxed) {
                    context.performAndWait {
                        _ = try? context.insertItem("W\(writer)-\(number)")
                        if (try? context.save()) != nil { saves.add(1, ordering: .relaxed) }
                    }
                    number += 1
                }
                finished.leave()
            }.start()
        }
        let directory = try #require(store.directory)
        var copies: [URL] = []
        for copy in 0..<3 {
            Thread.sleep(forTimeInterval: 0.05)
            let url = directory.appendingPathComponent("Backup-\(copy).sqlite")
            try store.container.persistentStoreCoordinator.backup(to: url)
            copies.append(url)
        }
        stop.store(true, ordering: .relaxed)
        finished.wait()
        #expect(saves.load(ordering: .relaxed) > 0, "the writers saved meanwhile")
        var counts: [Int] = []
        for url in copies {
            let container = PersistentContainer(name: "Backup", managedObjectModel: store.container.managedObjectModel)
            container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
            try container.loadPersistentStores()
            defer { container.persistentStoreCoordinator.removePersistentStore() }
            #expect(try container.persistentStoreCoordinator.checkIntegrity().isSound)
            counts.append(try InferredMigrationTests.count("Item", in: container))
        }
        #expect(counts.allSatisfy { $0 >= 500 })
        #expect(counts == counts.sorted(), "later copies hold at least what earlier ones held")
        let again = try #require(throws: ObjectGraphError.self) { try store.container.persistentStoreCoordinator.backup(to: copies[0]) }
        #expect(again.message.contains("exists already"))
    }

    @Test func anInMemoryStoreHasNoFileToBackUp() throws {
        let store = try TestStore(.inMemory)
        let error = try #require(throws: ObjectGraphError.self) {
            try store.container.persistentStoreCoordinator.backup(
                to: FileManager.default.temporaryDirectory.appendingPathComponent("none.sqlite"))
        }
        #expect(error.kind == .invalidOperation)
    }
}

extension OnlineBackupTests {
    @Test func aBackupIsRestoredInPlaceAndContextsAreTold() throws {
        let store = try TestStore(.sqlite)
        try store.withNewContext { context in
            for code in ["A1", "A2", "A3"] { _ = try context.insertItem(code) }
            try context.save()
        }
        let coordinator = store.container.persistentStoreCoordinator
        let identifier = coordinator.persistentStoreIdentifier
        let backup = try #require(store.directory).appendingPathComponent("Backup.sqlite")
        try coordinator.backup(to: backup)
        let context = store.newContext()
        try context.performAndWait {
            _ = try context.insertItem("B1")
            context.delete(try #require(try context.item("A1")))
            try context.save()
        }
        let told = Locked(0)
        let observer = NotificationCenter.default.addObserver(
            forName: PersistentStoreCoordinator.didRestoreNotification, object: coordinator, queue: nil
        ) { _ in
            told.withLock { $0 += 1 }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try coordinator.restore(from: backup)
        #expect(told.withLock { $0 } == 1)
        #expect(coordinator.persistentStoreIdentifier == identifier)
        try context.performAndWait {
            context.reset()
            #expect(try context.objects("Item", sortedBy: ["code"]).map(\.label) == ["A1", "A2", "A3"])
            _ = try context.insertItem("C1")
            try context.save()
        }
        try store.reopen()
        #expect(try store.storedCount("Item") == 4)
        #expect(FileManager.default.fileExists(atPath: backup.path), "the backup is left as it was")
    }

    @Test func aBadBackupLeavesTheStoreAsItWas() throws {
        let store = try TestStore(.sqlite)
        _ = try store.savedItem("KEEP")
        let bad = try #require(store.directory).appendingPathComponent("bad.sqlite")
        try Data("not a database".utf8).write(to: bad)
        let error = try #require(throws: ObjectGraphError.self) { try store.container.persistentStoreCoordinator.restore(from: bad) }
        #expect(error.kind == .corruptStore, "\(error)")
        #expect(try store.storedCount("Item") == 1)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: try #require(store.directory).path).filter {
            $0.hasPrefix(".restoring-")
        }
        #expect(leftovers.isEmpty)
    }
}

extension OnlineBackupTests {
    @Test func automaticBackupsAreTakenEveryFewSavesAndPruned() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let backups = directory.appendingPathComponent("Backups")
        let container = PersistentContainer(name: "Conformance", managedObjectModel: try ConformanceModel.load())
        var description = PersistentStoreDescription(url: directory.appendingPathComponent("Conformance.sqlite"))
        description.automaticBackups = AutomaticBackups(directory: backups, keep: 2, everySaves: 3)
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        for number in 1...10 {
            try context.performAndWait {
                _ = try context.insertItem("S\(number)")
                try context.save()
            }
            // One at a time, so each backup is of its own moment and their names differ.
            container.persistentStoreCoordinator.waitForPendingBackups()
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: backups.path).sorted()
        #expect(names.count == 2, "\(names)")
        #expect(names.allSatisfy { $0.hasPrefix("Conformance-") && $0.hasSuffix(".sqlite") })
        var counts: [Int] = []
        for name in names {
            let copy = PersistentContainer(name: "Copy", managedObjectModel: container.managedObjectModel)
            copy.persistentStoreDescriptions = [PersistentStoreDescription(url: backups.appendingPathComponent(name))]
            try copy.loadPersistentStores()
            defer { copy.persistentStoreCoordinator.removePersistentStore() }
            #expect(try copy.persistentStoreCoordinator.checkIntegrity(quick: true).isSound)
            counts.append(try InferredMigrationTests.count("Item", in: copy))
        }
        #expect(counts == [6, 9], "the backups after the 6th and the 9th save are kept")
    }
}
