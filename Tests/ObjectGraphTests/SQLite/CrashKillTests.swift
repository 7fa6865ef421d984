import Foundation
import Testing

@testable import ObjectGraph

/// Crash safety: a process saving in a loop, killed (SIGKILL) at random moments. After each kill
/// the store opens, passes the integrity check, and holds every save that returned and no part of
/// one that did not (each save writes an Item and a Person of one name: both or neither).
///
/// Ten kills a run; `OBJECTGRAPH_CRASH_KILLS=100 swift test --filter CrashKillTests` runs a
/// hundred (about 30 s).
@Suite struct CrashKillTests {
    @Test func killedWhileSavingTheStoreHoldsEveryAcknowledgedSaveAndNoHalfOfOne() throws {
        let kills = ProcessInfo.processInfo.environment["OBJECTGRAPH_CRASH_KILLS"].flatMap(Int.init) ?? 10
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let modelURL = directory.appendingPathComponent("Conformance.json")
        try Data(ConformanceModel.json.utf8).write(to: modelURL)
        var generator = SystemRandomNumberGenerator()
        var acknowledgedInAll = 0
        for round in 0..<kills {
            let store = directory.appendingPathComponent("Crash-\(round).sqlite")
            let output = directory.appendingPathComponent("out-\(round)")
            let pid = try TestWriterProcess.spawn(
                [TestWriterProcess.executable.path, store.path, modelURL.path, "save-loop", "100000", "-"],
                environment: ProcessInfo.processInfo.environment.map { "\($0)=\($1)" },
                output: output.path, errors: directory.appendingPathComponent("err-\(round)").path)
            // Odd rounds kill at any moment, store creation included; even rounds first wait for
            // a save to return, so a slow machine (ThreadSanitizer) still kills mid-loop.
            if round.isMultiple(of: 2) { Self.waitForFirstAcknowledgement(in: output) }
            Thread.sleep(forTimeInterval: Double.random(in: 0.1...0.4, using: &generator))
            kill(pid, SIGKILL)
            _ = try TestWriterProcess.wait(for: pid)

            let acknowledged = (try String(contentsOf: output, encoding: .utf8)).split(separator: "\n").compactMap {
                $0.split(separator: " ").last.flatMap { Int($0) }
            }
            let last = acknowledged.last ?? -1
            acknowledgedInAll += acknowledged.count
            guard FileManager.default.fileExists(atPath: store.path) else {
                #expect(acknowledged.isEmpty, "kill \(round): no store, yet saves returned")
                continue
            }
            let container = try InferredMigrationTests.open(store, ConformanceModel.json)
            defer { container.persistentStoreCoordinator.removePersistentStore() }
            let report = try container.persistentStoreCoordinator.checkIntegrity()
            #expect(report.isSound, "kill \(round): \(report)")
            let context = container.newBackgroundContext()
            let (items, people) = try context.performAndWait {
                (
                    Set(try context.objects("Item").compactMap { try $0.get("code", as: String.self) }),
                    Set(try context.objects("Person").compactMap { try $0.get("name", as: String.self) })
                )
            }
            #expect(items == people, "kill \(round): a save was kept in part")
            let saved = Set(items.compactMap { Int($0.dropFirst()) })
            // Every save that returned is there; at most the one in flight besides.
            #expect(saved.isSuperset(of: 0..<(last + 1)), "kill \(round): acknowledged saves are missing")
            #expect(saved.isSubset(of: 0...(last + 1)), "kill \(round): \(saved.count) saves for \(last + 1) acknowledged")
        }
        #expect(acknowledgedInAll > 0, "the writers saved before they were killed")
    }

    /// Waits (at most 30 s) until the writer has reported a save that returned.
    private static func waitForFirstAcknowledgement(in output: URL) {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let text = try? String(contentsOf: output, encoding: .utf8), text.contains("\n") { return }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}
