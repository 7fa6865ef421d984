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

    /// How the values of `everyTypeOfValueSurvivesARunOfWrites` are written.
    enum RunOfWrites: CaseIterable {
        case inserts, updates
    }

    /// Values of every type, with the characters and extremes a text encoding could mangle,
    /// inserted or changed in one run of rows: each reads back as it was set.
    @Test(arguments: StoreKind.allCases, RunOfWrites.allCases)
    func everyTypeOfValueSurvivesARunOfWrites(kind: StoreKind, writtenBy: RunOfWrites) throws {
        let store = try TestStore(kind)
        let texts = [#"a "quoted" \ back\\slash, {braces}"#, "NULL", "", "é🙂,\n"]
        let doubles = [-0.0, Double.leastNonzeroMagnitude, .infinity, -Double.greatestFiniteMagnitude, 0.1]
        let blobs = [Data([0, 1, 0x5C, 0x22, 0x7B, 255]), Data(), Data([0x5C]), Data([0x22, 0x2C]), Data([0x4E])]
        let uuids = (0..<5).map { _ in UUID() }
        var values: [[String: Any?]] = []
        for row in 0..<5 {
            let number = Double(row)
            var rowValues: [String: Any?] = [:]
            rowValues["note"] = texts[row % texts.count]
            rowValues["i16"] = row == 0 ? Int16.min : Int16(row)
            rowValues["i64"] = row == 1 ? Int64.max : Int64(-row)
            rowValues["dbl"] = doubles[row]
            rowValues["flt"] = Float(0.1) * Float(row)
            rowValues["dec"] = Decimal(string: "-1234567890.0123456789")! * Decimal(row)
            rowValues["flag"] = row % 2 == 0
            rowValues["stamp"] = Date(timeIntervalSinceReferenceDate: 1_234.5678 * number)
            rowValues["blob"] = blobs[row]
            rowValues["uid"] = uuids[row]
            rowValues["link"] = URL(string: "https://example.org/\(row)?q=%22a%22&b=%7Bc%7D")!
            rowValues["info"] = try JSONDocument(data: Data(#"{"k":"v\"\\","n":\#(row)}"#.utf8))
            values.append(rowValues)
        }
        try store.withNewContext { context in
            for row in 0..<5 { try context.insertItem("T\(row)", writtenBy == .inserts ? values[row] : [:]) }
            try context.save()
            guard writtenBy == .updates else { return }
            for (row, item) in try context.objects("Item", sortedBy: ["code"]).enumerated() {
                for (key, value) in values[row] { try item.setValue(value, forKey: key) }
            }
            try context.save()
        }
        try store.withNewContext { context in
            for (row, item) in try context.objects("Item", sortedBy: ["code"]).enumerated() {
                let expected = values[row]
                #expect(try item.get("note", as: String.self) == expected["note"] as? String)
                #expect(try item.get("i16", as: Int16.self) == expected["i16"] as? Int16)
                #expect(try item.get("i64", as: Int64.self) == expected["i64"] as? Int64)
                #expect(try item.get("dbl", as: Double.self) == expected["dbl"] as? Double)
                #expect(try item.get("flt", as: Float.self) == expected["flt"] as? Float)
                #expect(try item.get("dec", as: Decimal.self) == expected["dec"] as? Decimal)
                #expect(try item.get("flag", as: Bool.self) == expected["flag"] as? Bool)
                #expect(try item.get("stamp", as: Date.self) == expected["stamp"] as? Date)
                #expect(try item.get("blob", as: Data.self) == expected["blob"] as? Data)
                #expect(try item.get("uid", as: UUID.self) == expected["uid"] as? UUID)
                #expect(try item.get("link", as: URL.self) == expected["link"] as? URL)
                #expect(try item.get("info", as: JSONDocument.self)?.text == (expected["info"] as? JSONDocument)?.text)
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
