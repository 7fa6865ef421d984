import Foundation
import Testing

@testable import ObjectGraph

/// Saves that change many objects (which the PostgreSQL store writes a run of rows at a time):
/// every value arrives, NULLs included, and a conflict or a broken constraint in the middle of a
/// run is still found for its own object, with nothing written.
@Suite struct UpdateBatchConformanceTests {
    /// More rows than one statement of the PostgreSQL store takes (500), changed in runs of
    /// different columns: a column set to nil in every row of a run, others to values.
    @Test(arguments: StoreKind.allCases)
    func manyChangedObjectsSaveEveryValue(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let count = 1_200
        try store.withNewContext { context in
            for index in 0..<count {
                try context.insertItem(String(format: "I%05d", index), ["dbl": Double(index) + 0.25, "title": "old", "i64": Int64(index)])
            }
            try context.save()
        }
        try store.withNewContext { context in
            for item in try context.objects("Item", sortedBy: ["code"]) {
                let index = Int(try #require(try item.get("i64", as: Int64.self)))
                try item.setValue(nil, forKey: "dbl")
                try item.setValue("new \(index)", forKey: "title")
                // Every third row also changes `flag`: runs of another column set in between.
                if index % 3 == 0 { try item.setValue(false, forKey: "flag") }
            }
            try context.save()
        }
        try store.withNewContext { context in
            let items = try context.objects("Item", sortedBy: ["code"])
            #expect(items.count == count)
            for (index, item) in items.enumerated() {
                #expect(try item.get("dbl", as: Double.self) == nil)
                #expect(try item.get("title", as: String.self) == "new \(index)")
                #expect(try item.get("flag", as: Bool.self) == (index % 3 != 0))
                #expect(try item.get("i64", as: Int64.self) == Int64(index))
            }
        }
    }

    /// One row of a run changed elsewhere: only it conflicts, and no row of the save is written.
    @Test(arguments: StoreKind.allCases)
    func oneRowOfARunChangedElsewhereIsTheOnlyConflict(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let (ids, ours, objects) = try store.runWithOneRowChangedElsewhere(title: "theirs")
        let error = try #require(throws: ObjectGraphError.self) {
            try ours.performAndWait {
                for object in objects { try object.setValue("ours", forKey: "title") }
                try ours.save()
            }
        }
        #expect(error.kind == .mergeConflict)
        #expect(error.mergeConflicts.map(\.objectID) == [ids[17]])
        #expect(try store.storedCount("Item", "title == 'ours'") == 0)
        #expect(try store.storedCount("Item", "code == 'R18' AND title == 'theirs'") == 1)
    }

    /// Two rows of one run of updates taking the same value: the error names one of them and
    /// the value, and nothing is written.
    @Test(arguments: StoreKind.allCases)
    func aDuplicateInARunOfUpdatesNamesItsObject(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let items = try (1...10).map { try context.insertItem("A\($0)") }
            try context.save()
            for (index, item) in items.enumerated() { try item.setValue("C\(index == 4 ? 6 : index + 1)", forKey: "code") }
            let error = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(error?.kind == .constraintViolation)
            #expect(error?.key == "code")
            #expect([items[4].objectID, items[5].objectID].contains(try #require(error?.objectID)))
            #expect(error?.message.contains("code = \"C6\"") == true, "\(error?.message ?? "")")
            #expect(try store.storedCount("Item", "code BEGINSWITH 'C'") == 0)
            #expect(try store.storedCount("Item") == 10)
        }
    }
}
