import Foundation
import Testing

@testable import ObjectGraph

/// Several processes creating the same new store file at the same moment: each waits for the
/// others' locks within the busy timeout, exactly one creates the schema, and all of them save.
/// And a store created in an empty file (which SQLite reads as an empty database) says so.
@Suite struct ConcurrentCreationTests {
    @Test func processesCreatingOneNewStoreAtOnceAllSucceed() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for attempt in 0..<50 {
            let writers = 2 + attempt % 3
            let storePath = directory.appendingPathComponent("Created-\(attempt).sqlite").path
            let outcomes = try TestWriterProcess.runTogether(
                (0..<writers).map { ["insert", "W\($0)", "writer \($0)"] }, storePath: storePath, in: directory, startTogether: true)
            for (writer, outcome) in outcomes.enumerated() {
                try #require(outcome.status == 0, "attempt \(attempt), writer \(writer) of \(writers): \(outcome.errors)")
            }
            let store = try SQLiteStore(
                description: SQLiteFixtures.description(URL(fileURLWithPath: storePath)), model: ConformanceModel.load())
            defer { store.close() }
            let item = try #require(store.model.entity(named: "Item"))
            #expect(try store.fetch(StoreFetchRequest(entity: item)).count == writers, "attempt \(attempt)")
        }
    }

    @Test func aStoreCreatedInAnEmptyFileSaysSo() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let emptyPath = directory.appendingPathComponent("Empty.sqlite").path
        try #require(FileManager.default.createFile(atPath: emptyPath, contents: Data()))
        let newPath = directory.appendingPathComponent("New.sqlite").path
        let outcomes =
            try TestWriterProcess.runTogether([["insert", "A", "a"]], storePath: emptyPath, in: directory)
            + TestWriterProcess.runTogether([["insert", "A", "a"]], storePath: newPath, in: directory)
        #expect(outcomes.map(\.status) == [0, 0], "\(outcomes.map(\.errors))")
        #expect(
            outcomes[0].errors.contains("\(emptyPath) was an empty file (0 bytes), not a store: a new, empty store was created in it"),
            "\(outcomes[0].errors)")
        #expect(!outcomes[1].errors.contains("empty file"), "a file that did not exist is simply new")
    }
}
