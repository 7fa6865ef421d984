import Foundation
import Testing

@testable import ObjectGraph

/// Salvage of every damaged store of the corpus: at least every provably intact row comes back,
/// every row that comes back is the original row (to-one keys cleared where the object pointed
/// at was lost), and the new store opens and passes the integrity check.
@Suite struct SalvageCorpusTests {
    static var caseNames: [String] {
        (try? CorruptionCorpus.load().manifest.cases.map(\.name)) ?? ["corpus unavailable"]
    }

    @Test(arguments: caseNames)
    func salvageRecoversEveryIntactRowAndNothingElse(_ name: String) throws {
        let corpus = try CorruptionCorpus.load()
        let item = try #require(corpus.manifest.cases.first { $0.name == name })
        let folder = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let damaged = try corpus.copy(item, into: folder)
        let before = try Data(contentsOf: damaged)
        let recovered = folder.appendingPathComponent("recovered.sqlite")
        let report = try PersistentStoreCoordinator.recover(damaged: damaged, into: recovered, model: try corpus.model)
        #expect(try Data(contentsOf: damaged) == before, "the damaged file is not changed")
        let original = corpus.url(item.original).path
        for table in corpus.manifest.tables {
            let intact = try #require(item.intact[table])
            #expect(
                report.rowsRecovered(of: table) >= intact,
                "\(name): \(table) \(report.rowsRecovered(of: table)) of \(intact) intact rows\n\(report)")
            let originalRows = try StoredRows.rows(of: table, in: original)
            let recoveredRows = try StoredRows.rows(of: table, in: recovered.path)
            #expect(recoveredRows.count == report.rowsRecovered(of: table))
            for (key, row) in recoveredRows {
                let expected = try #require(originalRows[key], "\(name): \(table) row \(key) is not in the original")
                let cleared = zip(row, expected).allSatisfy { $0 == $1 || $0.hasSuffix("=NULL") && $0.hasPrefix("author=") }
                #expect(cleared, "\(name): \(table) row \(key) differs: \(row) vs \(expected)")
            }
        }
        let container = PersistentContainer(name: "Recovered", managedObjectModel: try corpus.model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: recovered)]
        try container.loadPersistentStores()
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let integrity = try container.persistentStoreCoordinator.checkIntegrity()
        #expect(integrity.isSound, "\(integrity)")
    }

    @Test func anUndamagedStoreIsRecoveredWhole() throws {
        let corpus = try CorruptionCorpus.load()
        let folder = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recovered = folder.appendingPathComponent("recovered.sqlite")
        let original = corpus.url("original.sqlite")
        let report = try PersistentStoreCoordinator.recover(damaged: original, into: recovered)
        #expect(report.modelCameFromDamagedFile)
        #expect(report.damagedPages == 0 && report.findings.isEmpty, "\(report)")
        #expect(report.relationships.map(\.pairsRecovered) == [1200])
        for table in corpus.manifest.tables + ["_join_Book_tags"] {
            let expected = try StoredRows.rows(of: table == "_join_Book_tags" ? "Book" : table, in: original.path)
            #expect(try StoredRows.rows(of: table == "_join_Book_tags" ? "Book" : table, in: recovered.path) == expected)
        }
        #expect(
            try PersistentStoreCoordinator.metadataForPersistentStore(at: recovered).storeIdentifier
                == PersistentStoreCoordinator.metadataForPersistentStore(at: original).storeIdentifier, "object URIs still resolve")
    }

    /// The header's page count is trusted while its "version valid for" matches; a damaged one
    /// may record two billion pages. Salvage reads the pages there are, and finishes.
    @Test func aHeaderRecordingBillionsOfPagesIsReadAsFarAsTheFileGoes() throws {
        let corpus = try CorruptionCorpus.load()
        let folder = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = corpus.url("original.sqlite")
        var bytes = [UInt8](try Data(contentsOf: original))
        bytes.replaceSubrange(28..<32, with: [0x7F, 0xFF, 0xFF, 0xFF])
        let damaged = folder.appendingPathComponent("damaged.sqlite")
        try Data(bytes).write(to: damaged)
        let recovered = folder.appendingPathComponent("recovered.sqlite")
        let report = try PersistentStoreCoordinator.recover(damaged: damaged, into: recovered, model: try corpus.model)
        #expect(report.findings.contains { $0.contains("of the 2147483647 pages its header records") }, "\(report)")
        for table in corpus.manifest.tables {
            #expect(try StoredRows.rows(of: table, in: recovered.path) == StoredRows.rows(of: table, in: original.path))
        }
    }

    @Test func aStoreWhoseModelCannotBeReadNeedsOneGiven() throws {
        let corpus = try CorruptionCorpus.load()
        let folder = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let damaged = try corpus.copy(try #require(corpus.manifest.cases.first { $0.name == "metadata-page-zeroed" }), into: folder)
        let error = try #require(throws: ObjectGraphError.self) {
            try PersistentStoreCoordinator.recover(damaged: damaged, into: folder.appendingPathComponent("new.sqlite"))
        }
        #expect(error.kind == .corruptStore)
        #expect(error.message.contains("pass the model"), "\(error.message)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("new.sqlite").path))
    }

    @Test func salvageNeverOverwritesAFileAndSaysWhenThereIsNoFile() throws {
        let corpus = try CorruptionCorpus.load()
        let exists = try #require(throws: ObjectGraphError.self) {
            try PersistentStoreCoordinator.recover(damaged: corpus.url("original.sqlite"), into: corpus.url("truncated-25.sqlite"))
        }
        #expect(exists.message.contains("exists already"))
        let missing = try #require(throws: ObjectGraphError.self) {
            try PersistentStoreCoordinator.recover(damaged: corpus.url("nothing.sqlite"), into: corpus.url("new.sqlite"))
        }
        #expect(missing.kind == .storeUnavailable && missing.message.contains("no file"))
    }
}
