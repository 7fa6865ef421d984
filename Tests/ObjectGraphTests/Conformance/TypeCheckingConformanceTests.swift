import Foundation
import Testing

@testable import ObjectGraph

/// Values are checked against the model when set: a wrong type, an unknown key or an unknown
/// entity is a readable error, and nothing changes.
@Suite struct TypeCheckingConformanceTests {
    /// Wrong-typed values, with the words their errors must contain.
    static let mismatches: [(key: String, value: any Sendable, words: [String])] = [
        ("i32", "12", ["Item.i32", "integer32", "String"]),
        ("i64", 3.5, ["Item.i64", "integer64", "Double", "floating-point"]),
        ("i16", 70000, ["Item.i16", "integer16", "out of range", "-32768...32767"]),
        ("i16", Int64(Int16.min) - 1, ["Item.i16", "out of range"]),
        ("title", true, ["Item.title", "string", "Bool"]),
        ("flag", 1, ["Item.flag", "boolean"]),
        ("stamp", "2024-01-01", ["Item.stamp", "date"]),
        ("uid", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", ["Item.uid", "uuid"]),
        ("link", "https://example.com", ["Item.link", "uri"]),
        ("blob", "bytes", ["Item.blob", "binary"]),
        ("flt", 0.1, ["Item.flt", "float", "not exactly representable"]),
        ("dec", 1.5, ["Item.dec", "decimal"])
    ]

    @Test(arguments: StoreKind.allCases)
    func wrongTypedValuesAreRefusedAndNothingChanges(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("A1", ["i32": 1, "i64": 2, "i16": 3, "title": "t"])
            try context.save()
            let before = try context.item("A1").map { object in
                try object.entity.attributes.map { try object.value(forKey: $0.name).map { "\($0)" } }
            }
            for (key, value, words) in Self.mismatches {
                let error = #expect(throws: ObjectGraphError.self, "\(key) = \(value)") { try item.setValue(value, forKey: key) }
                #expect(error?.kind == .typeMismatch)
                #expect(error?.entityName == "Item")
                #expect(error?.key == key)
                for word in words {
                    #expect(error?.message.contains(word) == true, "'\(word)' missing from: \(error?.message ?? "no error")")
                }
            }
            let after = try item.entity.attributes.map { try item.value(forKey: $0.name).map { "\($0)" } }
            #expect(after == before)
            #expect(!item.isUpdated)
            #expect(!context.hasChanges)
            #expect(item.changedValues().isEmpty)
        }
    }

    /// Exact conversions are accepted: any integer type that fits, integers into floating point
    /// and decimal, Float into Double.
    @Test(arguments: StoreKind.allCases)
    func exactConversionsAreAccepted(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            try context.insertItem(
                "A1", ["i16": UInt8(200), "i32": Int64(Int32.max), "i64": Int.max, "dbl": 3, "flt": 1.5, "dec": 42, "price": Float(0.5)])
            try context.save()
        }
        try store.withNewContext { context in
            let item = try #require(try context.item("A1"))
            #expect(try item.get("i16", as: Int16.self) == 200)
            #expect(try item.get("i32", as: Int32.self) == Int32.max)
            #expect(try item.get("i64", as: Int64.self) == Int64(Int.max))
            #expect(try item.get("dbl", as: Double.self) == 3)
            #expect(try item.get("flt", as: Float.self) == 1.5)
            #expect(try item.get("dec", as: Decimal.self) == 42)
            #expect(try item.get("price", as: Double.self) == 0.5)
        }
    }

    /// Reading a value as a type it cannot be is an error too, not a silent nil.
    @Test(arguments: StoreKind.allCases)
    func readingAsWrongTypeThrows(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("A1", ["i32": 300, "i64": Int64(Int32.max) + 1])
            let error = #expect(throws: ObjectGraphError.self) { try item.get("i32", as: String.self) }
            #expect(error?.kind == .typeMismatch)
            #expect(error?.message.contains("Item.i32") == true)
            // 300 does not fit an Int8; it fits an Int16, while 2^31 does not fit an Int32.
            #expect(throws: ObjectGraphError.self) { try item.get("i32", as: Int8.self) }
            #expect(try item.value(forKey: "i32", as: Int16.self) == 300)
            let narrowed = #expect(throws: ObjectGraphError.self) { try item.value(forKey: "i64", as: Int32.self) }
            #expect(
                narrowed?.message.contains("Item.i64 holds Int64 2147483648, which cannot be read as Int32") == true,
                "\(narrowed?.message ?? "")")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func unknownKeySuggestsTheClosestAttribute(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("A1")
            let setError = #expect(throws: ObjectGraphError.self) { try item.setValue("x", forKey: "titel") }
            #expect(setError?.kind == .unknownKey)
            #expect(setError?.entityName == "Item")
            #expect(setError?.key == "titel")
            #expect(setError?.message.contains("did you mean 'title'") == true, "\(setError?.message ?? "")")

            let getError = #expect(throws: ObjectGraphError.self) { try item.value(forKey: "prise") }
            #expect(getError?.kind == .unknownKey)
            #expect(getError?.message.contains("did you mean 'price'") == true, "\(getError?.message ?? "")")

            let fetchError = #expect(throws: ObjectGraphError.self) { try context.fetch(request("Item", where: "ratin > 1")) }
            #expect(fetchError?.kind == .unknownKey)
            #expect(fetchError?.message.contains("rating") == true, "\(fetchError?.message ?? "")")

            let sortError = #expect(throws: ObjectGraphError.self) { try context.fetch(request("Item", sortedBy: ["cod"])) }
            #expect(sortError?.kind == .unknownKey)
            #expect(sortError?.message.contains("code") == true, "\(sortError?.message ?? "")")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func unknownEntityIsAnError(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context throws in
            let insertError = #expect(throws: ObjectGraphError.self) { try context.insertNewObject(forEntityName: "Iten") }
            #expect(insertError?.kind == .unknownEntity)
            #expect(insertError?.entityName == "Iten")
            #expect(insertError?.message.contains("did you mean 'Item'") == true, "\(insertError?.message ?? "")")

            let fetchError = #expect(throws: ObjectGraphError.self) { try context.fetch(FetchRequest<ManagedObject>(entityName: "Persn")) }
            #expect(fetchError?.kind == .unknownEntity)
            #expect(fetchError?.message.contains("did you mean 'Person'") == true, "\(fetchError?.message ?? "")")

            let countError = #expect(throws: ObjectGraphError.self) {
                try context.count(for: FetchRequest<ManagedObject>(entityName: "Nothing"))
            }
            #expect(countError?.kind == .unknownEntity)
            #expect(!context.hasChanges)
        }
    }

    /// A deleted object cannot be changed.
    @Test(arguments: StoreKind.allCases)
    func settingAValueOnADeletedObjectThrows(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("A1")
            try context.save()
            context.delete(item)
            let error = #expect(throws: ObjectGraphError.self) { try item.setValue("x", forKey: "title") }
            #expect(error?.kind == .invalidOperation)
            #expect(error?.message.contains("deleted") == true)
        }
    }
}
