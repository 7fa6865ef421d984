import Foundation
import Testing

@testable import ObjectGraph

/// Loading a damaged store: a clear `.corruptStore` error naming the file and what to do, never a
/// crash, a hang or older data served without a word; with `recoversDamagedStore`, the store's
/// readable rows in a new store in its place, the damaged files kept aside.
@Suite struct DamagedStoreLoadingTests {
    @Test(arguments: SalvageCorpusTests.caseNames)
    func everyDamagedStoreIsRefusedWithAClearError(_ name: String) throws {
        let corpus = try CorruptionCorpus.load()
        let item = try #require(corpus.manifest.cases.first { $0.name == name })
        let folder = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let damaged = try corpus.copy(item, into: folder)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try corpus.model)
        let error = try #require(throws: ObjectGraphError.self) {
            try coordinator.addPersistentStore(with: PersistentStoreDescription(url: damaged))
        }
        #expect(error.kind == .corruptStore, "\(name): \(error)")
        #expect(error.message.contains(damaged.path), "\(name): \(error.message)")
        #expect(error.message.contains("objectgraph recover"), "\(name): \(error.message)")
        #expect(!error.message.contains("not a SQLite database"), "\(name): a damaged store is not called a stranger: \(error.message)")
        if item.kind.contains("-wal") {
            #expect(error.message.contains("lost committed changes"), "\(name): \(error.message)")
        }
    }

    @Test(arguments: SalvageCorpusTests.caseNames)
    func aDamagedStoreIsRecoveredWhenLoadingIfAsked(_ name: String) throws {
        let corpus = try CorruptionCorpus.load()
        let item = try #require(corpus.manifest.cases.first { $0.name == name })
        let folder = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let damaged = try corpus.copy(item, into: folder)
        let before = try Data(contentsOf: damaged)
        let container = PersistentContainer(name: "Corpus", managedObjectModel: try corpus.model)
        var description = PersistentStoreDescription(url: damaged)
        description.recoversDamagedStore = true
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let recovery = try #require(container.persistentStoreCoordinator.recoveredDamagedStore)
        #expect(recovery.cause.kind == .corruptStore)
        #expect(try Data(contentsOf: recovery.damagedStoreURL) == before, "the damaged file is kept aside as it was")
        #expect(recovery.damagedStoreURL.lastPathComponent.hasPrefix("\(damaged.deletingPathExtension().lastPathComponent).damaged-"))
        let context = container.newBackgroundContext()
        for table in corpus.manifest.tables {
            let count = try context.performAndWait { try context.count(for: FetchRequest<ManagedObject>(entityName: table)) }
            #expect(count == recovery.report.rowsRecovered(of: table))
            #expect(count >= item.intact[table] ?? 0, "\(name): \(table)")
        }
        try context.performAndWait {
            let tag = try context.insertNewObject(forEntityName: "Tag")
            try tag.setValue("new after recovery", forKey: "label")
            try context.save()
        }
    }

    @Test func aFileThatIsNotADatabaseIsSaidToBeSoAndIsNeverMovedAside() throws {
        let folder = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("notes.sqlite")
        let text = Data(String(repeating: "Dear diary,\nnothing happened today.\n", count: 400).utf8)
        try text.write(to: url)
        var description = PersistentStoreDescription(url: url)
        description.recoversDamagedStore = true
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try CorruptionCorpus.load().model)
        let error = try #require(throws: ObjectGraphError.self) { try coordinator.addPersistentStore(with: description) }
        #expect(error.kind == .corruptStore)
        #expect(error.message.contains("\(url.path) is not a SQLite database"), "\(error.message)")
        #expect(try Data(contentsOf: url) == text)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.sqlite"])
    }
}
