import Foundation
import Testing

@testable import ObjectGraph

/// Numbers and booleans come out of `value(forKey:)` and the other `Any` results as `NSNumber`,
/// so Core Data's `as? Int` habit works for every width, and an `NSNumber` goes back in (a
/// setter, a predicate argument) as the Swift number it holds, under the same exact rules.
@Suite struct NumberBridgingConformanceTests {
    private static var values: [String: Any?] {
        ["i16": Int16(-7), "i32": Int32(70_000), "i64": Int64.max, "dbl": 2.5, "flt": Float(0.5), "flag": false]
    }

    @Test(arguments: StoreKind.allCases)
    func numbersReadAsAnyWidthTheyFit(kind: StoreKind) throws {
        let store = try TestStore(kind)
        _ = try store.savedItem("N1", Self.values)
        try store.reopen()
        try store.withNewContext { context in
            let item = try #require(try context.item("N1"))
            #expect(try item.value(forKey: "i16") as? Int == -7)
            #expect(try item.value(forKey: "i16") as? Int16 == -7)
            #expect(try item.value(forKey: "i32") as? Int == 70_000)
            #expect(try item.value(forKey: "i32") as? Int16 == nil)
            #expect(try item.value(forKey: "i64") as? Int == Int.max)
            #expect(try item.value(forKey: "i64") as? Int64 == Int64.max)
            #expect(try item.value(forKey: "dbl") as? Double == 2.5)
            #expect(try item.value(forKey: "dbl") as? Int == nil)
            #expect(try item.value(forKey: "flt") as? Float == 0.5)
            #expect(try item.value(forKey: "flag") as? Bool == false)
            #expect(try item["rating"] as? Int == 3)
            #expect(item.entity.attributes.first { $0.name == "rating" }?.defaultValueAsAny as? Int == 3)
            try item.setValue(8, forKey: "i32")
            #expect(item.changedValues()["i32"] as? Int == 8)
            #expect(try item.committedValues(forKeys: ["i32"])["i32"] as? Int == 70_000)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func valuesReadFromOneObjectSetAnother(kind: StoreKind) throws {
        let store = try TestStore(kind)
        _ = try store.savedItem("N1", Self.values)
        try store.withNewContext { context in
            let source = try #require(try context.item("N1"))
            let copy = try context.insertItem("N2")
            for key in Self.values.keys { try copy.setValue(try source.value(forKey: key), forKey: key) }
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { context in
            let copy = try #require(try context.item("N2"))
            #expect(try copy.get("i16", as: Int16.self) == -7)
            #expect(try copy.get("i64", as: Int64.self) == .max)
            #expect(try copy.get("flt", as: Float.self) == 0.5)
            #expect(try copy.get("flag", as: Bool.self) == false)
        }
    }

    @Test(arguments: [
        ("i16", NSNumber(value: 5.5), ["Item.i16", "Double 5.5", "floating-point"]),
        ("i16", NSNumber(value: 5.0), ["Item.i16", "Double 5.0"]),
        ("i32", NSNumber(value: true), ["Item.i32", "Bool true"]),
        ("flag", NSNumber(value: 1), ["Item.flag", "boolean", "Int64 1"]),
        ("i16", NSNumber(value: 70_000), ["Item.i16", "out of range"]),
        ("flt", NSNumber(value: 0.1), ["Item.flt", "not exactly representable"])
    ])
    func anNSNumberMeetsTheRulesOfItsSwiftValue(key: String, number: NSNumber, words: [String]) throws {
        let store = try TestStore(.inMemory)
        try store.withNewContext { context in
            let item = try context.insertItem("N1")
            let error = #expect(throws: ObjectGraphError.self) { try item.setValue(number, forKey: key) }
            #expect(error?.kind == .typeMismatch)
            for word in words {
                #expect(error?.message.contains(word) == true, "'\(word)' missing from: \(error?.message ?? "no error")")
            }
            try item.setValue(NSNumber(value: 4), forKey: "dbl")
            #expect(try item.get("dbl", as: Double.self) == 4)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func predicateArgumentsTakeNSNumbers(kind: StoreKind) throws {
        let store = try TestStore(kind)
        _ = try store.savedItem("N1", Self.values)
        _ = try store.savedItem("N2", ["i16": Int16(1), "flag": true])
        try store.withNewContext { context in
            let item = try #require(try context.item("N1"))
            for key in ["i16", "i32", "i64", "dbl", "flag"] {
                let found = try context.objects(
                    "Item", where: "\(key) == %@ AND code == 'N1'", arguments: [try item.value(forKey: key) as Any])
                #expect(found.count == 1, "\(key)")
            }
            #expect(try context.objects("Item", where: "flag == %@", arguments: [NSNumber(value: true)]).map(\.label) == ["N2"])
            let error = #expect(throws: ObjectGraphError.self) {
                try context.objects("Item", where: "i16 == %@", arguments: [NSNumber(value: true)])
            }
            #expect(error?.message == "Item.i16 is integer16 but the predicate compares it with the Boolean YES")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func dictionaryResultsHoldNSNumbers(kind: StoreKind) throws {
        let store = try TestStore(kind)
        _ = try store.savedItem("N1", Self.values)
        _ = try store.savedItem("N2", ["i16": Int16(1)])
        try store.withNewContext { context in
            var request = FetchRequest<FetchedValues>(entityName: "Item")
            request.propertiesToFetch = [.count(as: "n"), .aggregate(.sum, of: "i16", as: "total")]
            let row = try #require(try context.fetch(request).first)
            #expect(row["n"] as? Int == 2)
            #expect(row["total"] as? Int == -6)
            #expect(row.value("n", as: Int.self) == 2)
            #expect(row.value("n", as: Bool.self) == nil)
        }
    }
}
