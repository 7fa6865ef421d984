import Foundation
import Testing

@testable import ObjectGraph

/// Optimistic locking across processes: a row another process changed after this one read it is
/// a conflict here, with the other process's values, and the policies resolve it the same way.
@Suite struct MultiProcessConflictTests {
    @Test func anotherProcessesCommitMakesThisSaveAConflict() throws {
        let store = try TestStore(.sqlite)
        let context = store.newContext(name: "this process")
        let item = try context.performAndWait {
            let item = try context.insertItem("A", ["title": "first", "note": "ours"])
            try context.save()
            return item
        }
        let writer = try TestWriterProcess.run(["retitle", "A", "other process"], on: store)
        try #require(writer.status == 0, "the writer failed: \(writer.errors)")

        try context.performAndWait {
            try item.setValue("this process", forKey: "title")
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.kind == .mergeConflict)
            let conflict = try #require(error.mergeConflicts.first)
            #expect(conflict.theirValue(forKey: "title") as? String == "other process")
            #expect(conflict.originalValue(forKey: "title") as? String == "first")
            // Property by property, ours wins where we changed it.
            context.mergePolicy = .mergeByPropertyObjectTrump
            try item.setValue("kept", forKey: "note")
            try context.save()
        }
        try store.withNewContext { fresh in
            let stored = try #require(try fresh.item("A"))
            #expect(try stored.get("title", as: String.self) == "this process")
            #expect(try stored.get("note", as: String.self) == "kept")
        }
    }
}
