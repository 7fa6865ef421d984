import Foundation
import Testing

@testable import ObjectGraph

/// A store dumped to SQL text and loaded into a new file holds exactly the same data: every
/// value (reals to the bit, text with NUL, blobs), every key, relationship and the metadata.
@Suite struct DumpAndLoadTests {
    @Test func aDumpLoadsIntoTheSameStore() throws {
        let store = try TestStore(.sqlite)
        let doubles = [0.1, 1e300, -2.5e-300, .infinity, -.infinity, 9_007_199_254_740_992, 5, 1.0 / 3.0]
        try store.withNewContext { context in
            for (number, value) in doubles.enumerated() {
                _ = try context.insertItem(
                    "D\(number)",
                    [
                        "dbl": value, "flt": Float(value.isFinite ? 0.25 : 1), "title": "it's \u{0}\n\(number)",
                        "blob": Data([0, 1, 255, UInt8(number)]),
                        "uid": UUID(), "dec": Decimal(string: "123456789.123456789")!,
                        "stamp": Date(timeIntervalSinceReferenceDate: value.isFinite ? value : 1),
                        "link": URL(string: "https://example.com/\(number)")!, "info": ["k": "v'\(number)"],
                        "i64": Int64.min + Int64(number)
                    ])
            }
            try context.save()
        }
        let directory = try #require(store.directory)
        let dump = directory.appendingPathComponent("store.sql")
        try store.container.persistentStoreCoordinator.dump(to: dump)
        let text = try String(contentsOf: dump, encoding: .utf8)
        #expect(text.hasPrefix("-- ObjectGraph store dump of "))
        #expect(text.contains("CREATE TABLE \"Item\" ("))
        #expect(text.contains("INSERT INTO \"_objectgraph_metadata\" VALUES('model_hash',"))
        #expect(text.hasSuffix("COMMIT;\n"))

        let loaded = directory.appendingPathComponent("Loaded.sqlite")
        try PersistentStoreCoordinator.loadStore(fromDump: dump, into: loaded)
        let container = PersistentContainer(name: "Loaded", managedObjectModel: store.container.managedObjectModel)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: loaded)]
        try container.loadPersistentStores()
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        #expect(try container.persistentStoreCoordinator.checkIntegrity().isSound)
        #expect(
            container.persistentStoreCoordinator.persistentStoreIdentifier
                == store.container.persistentStoreCoordinator.persistentStoreIdentifier)
        let keys = store.container.managedObjectModel.entity(named: "Item")!.storedAttributes.map(\.name)
        func rows(_ container: PersistentContainer) throws -> [[String]] {
            let context = container.newBackgroundContext()
            return try context.performAndWait {
                try context.objects("Item", sortedBy: ["code"]).map { item in
                    try [String(item.objectID.primaryKey!)]
                        + keys.map { key in
                            let value = try item.value(forKey: key)
                            if let number = value as? NSNumber, String(cString: number.objCType) == "d" {
                                return String(number.doubleValue.bitPattern)
                            }
                            return String(describing: value)
                        }
                }
            }
        }
        #expect(try rows(container) == rows(store.container))
        #expect(try rows(container).count == doubles.count)

        let again = try #require(throws: ObjectGraphError.self) { try PersistentStoreCoordinator.loadStore(fromDump: dump, into: loaded) }
        #expect(again.message.contains("exists already"))
    }

    @Test func aBrokenDumpLeavesNoFile() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = directory.appendingPathComponent("broken.sql")
        try Data("BEGIN;\nCREATE TABLE \"T\" (\"a\" INTEGER);\nINSERT INTO \"T\" VALUES(1;\nCOMMIT;\n".utf8).write(to: dump)
        let target = directory.appendingPathComponent("New.sqlite")
        let error = try #require(throws: ObjectGraphError.self) { try PersistentStoreCoordinator.loadStore(fromDump: dump, into: target) }
        #expect(error.message.contains("Cannot load the dump"), "\(error.message)")
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }
}
