import Foundation
import Testing

@testable import ObjectGraph

/// Every attribute type comes back exactly as written: saved, the store reopened (SQLite), read
/// from a fresh context.
@Suite struct AttributeRoundTripConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func integer16(kind: StoreKind) throws {
        let values: [Int16?] = [Int16.min, -1, 0, 1, Int16.max, nil]
        #expect(try TestStore(kind).roundTrip("i16", values) == values)
    }

    @Test(arguments: StoreKind.allCases)
    func integer32(kind: StoreKind) throws {
        let values: [Int32?] = [Int32.min, -1, 0, Int32.max]
        #expect(try TestStore(kind).roundTrip("i32", values) == values)
    }

    @Test(arguments: StoreKind.allCases)
    func integer64(kind: StoreKind) throws {
        let values: [Int64?] = [Int64.min, Int64.min + 1, -1, 0, 1 << 53 + 1, Int64.max, nil]
        #expect(try TestStore(kind).roundTrip("i64", values) == values)
    }

    @Test(arguments: StoreKind.allCases)
    func double(kind: StoreKind) throws {
        let values: [Double?] = [
            0.0, -0.0, 1.0, -2.0, .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNormalMagnitude,
            .greatestFiniteMagnitude, -1.5e-300, 0.1, .pi, 1e22, nil
        ]
        let read = try TestStore(kind).roundTrip("dbl", values)
        // Bit patterns, so that -0.0 is told apart from 0.0. By design (docs/ARCHITECTURE.md)
        // -0.0 is kept as +0.0 on both stores, because SQLite drops the sign of an integral REAL.
        #expect(read.map { $0?.bitPattern } == values.map { $0.map { $0 == 0 ? 0.0 : $0 }?.bitPattern })
    }

    @Test(arguments: StoreKind.allCases)
    func float(kind: StoreKind) throws {
        let values: [Float?] = [0, -0.0, 1, .pi, 0.1, -3.25, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, nil]
        let read = try TestStore(kind).roundTrip("flt", values)
        #expect(read.map { $0?.bitPattern } == values.map { $0.map { $0 == 0 ? Float(0) : $0 }?.bitPattern })
    }

    /// -0.0 becomes +0.0 as soon as it is set, so an unsaved object already shows what the store
    /// will return.
    @Test(arguments: StoreKind.allCases)
    func negativeZeroIsKeptAsPositiveZero(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("A1", ["dbl": -0.0, "flt": Float(-0.0), "price": Float(-0.0)])
            #expect(try item.get("dbl", as: Double.self)?.sign == .plus)
            #expect(try item.get("flt", as: Float.self)?.sign == .plus)
            #expect(try item.get("price", as: Double.self)?.sign == .plus)
            try context.save()
            // Setting -0.0 over a stored +0.0 changes no value (though, as any set in Core Data,
            // it marks the object updated).
            try item.setValue(-0.0, forKey: "dbl")
            #expect(item.changedValues().isEmpty && !item.hasPersistentChangedValues)
        }
        try store.reopen()
        try store.withNewContext { context in
            let item = try #require(try context.item("A1"))
            #expect(try item.get("dbl", as: Double.self)?.bitPattern == 0)
            #expect(try item.get("flt", as: Float.self)?.bitPattern == 0)
            #expect(try context.count(for: request("Item", where: "dbl == 0 AND flt == 0")) == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func decimal(kind: StoreKind) throws {
        let texts = ["12345678901234.5678", "-98765.4321", "0", "0.000001", "-1", "99999999999999999999999999999999999999"]
        let values: [Decimal?] = texts.map { Decimal(string: $0)! } + [nil]
        let read = try TestStore(kind).roundTrip("dec", values)
        #expect(read == values)
        #expect(read.map { $0?.description } == texts.map { $0 } + [nil])
    }

    @Test(arguments: StoreKind.allCases)
    func string(kind: StoreKind) throws {
        var values: [String?] = ["", "plain", "ünïcödé 🎉 — 日本語", "e\u{301}", "é", "quotes ' and \"", "line\nbreak\ttab", nil]
        // PostgreSQL text cannot hold NUL: see textHoldingNULIsKeptOrRefusedOnPostgreSQL.
        if kind != .postgreSQL { values.insert("nul\u{0}inside", at: values.count - 1) }
        let read = try TestStore(kind).roundTrip("title", values)
        // Byte for byte: "é" and "e\u{301}" are equal Swift strings but different stored values.
        #expect(read.map { $0.map { Array($0.utf8) } } == values.map { $0.map { Array($0.utf8) } })
        #expect(read[0] == "")
        #expect(read.last! == nil)
    }

    /// A string holding NUL (U+0000) round-trips on SQLite and in memory; PostgreSQL text cannot
    /// hold it, so a save inserting or changing one is refused whole, naming each object and
    /// attribute and why, and the context keeps its changes.
    @Test(arguments: StoreKind.allCases)
    func textHoldingNULIsKeptOrRefusedOnPostgreSQL(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            try context.insertItem("A1", ["title": "kept"])
            try context.save()
            try context.insertItem("B1", ["title": "plain"])
            let inserted = try context.insertItem("N1", ["title": "nul\u{0}inside"])
            let changed = try #require(try context.item("A1"))
            try changed.setValue("a\u{0}", forKey: "title")
            guard kind == .postgreSQL else { return try context.save() }
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.kind == .validation)
            #expect(error.validationFailures.map(\.objectID) == [inserted.objectID, changed.objectID])
            #expect(error.validationFailures.map(\.entityName) == ["Item", "Item"])
            #expect(error.validationFailures.map(\.key) == ["title", "title"])
            #expect(
                error.validationFailures.map(\.reason) == [
                    #"PostgreSQL text cannot hold the NUL character (U+0000), which the string "nul\0inside" holds"#,
                    #"PostgreSQL text cannot hold the NUL character (U+0000), which the string "a\0" holds"#
                ])
            #expect(error.message.hasPrefix("The save was refused: 2 validation failures; nothing was written."), "\(error.message)")
            #expect(context.hasChanges && context.insertedObjects.count == 2)
        }
        try store.reopen()
        let stored = try store.withNewContext { context in
            try context.objects("Item", sortedBy: ["code"]).map { [$0.label, try $0.value(forKey: "title", as: String.self)] }
        }
        #expect(stored == (kind == .postgreSQL ? [["A1", "kept"]] : [["A1", "a\u{0}"], ["B1", "plain"], ["N1", "nul\u{0}inside"]]))
    }

    @Test(arguments: StoreKind.allCases)
    func boolean(kind: StoreKind) throws {
        let values: [Bool?] = [true, false, false, true]
        #expect(try TestStore(kind).roundTrip("flag", values) == values)
    }

    @Test(arguments: StoreKind.allCases)
    func date(kind: StoreKind) throws {
        let values: [Date?] = [
            Date(timeIntervalSinceReferenceDate: 123456789.123456),
            Date(timeIntervalSinceReferenceDate: 0.000001),
            Date(timeIntervalSinceReferenceDate: -987654321.000123),
            Date(timeIntervalSince1970: 0),
            .distantPast, .distantFuture, nil
        ]
        let read = try TestStore(kind).roundTrip("stamp", values)
        #expect(read.map { $0?.timeIntervalSinceReferenceDate.bitPattern } == values.map { $0?.timeIntervalSinceReferenceDate.bitPattern })
    }

    @Test(arguments: StoreKind.allCases)
    func binary(kind: StoreKind) throws {
        let values: [Data?] = [Data(), Data([0]), Data([0, 1, 2, 0xFF]), Data(repeating: 0xAB, count: 64), nil]
        let read = try TestStore(kind).roundTrip("blob", values)
        #expect(read == values)
        // Empty data stays empty data, never nil.
        #expect(read[0] != nil)
        #expect(read[0]?.isEmpty == true)
    }

    @Test(arguments: StoreKind.allCases)
    func uuid(kind: StoreKind) throws {
        let values: [UUID?] = [UUID(), UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), UUID(), nil]
        #expect(try TestStore(kind).roundTrip("uid", values) == values)
    }

    @Test(arguments: StoreKind.allCases)
    func uri(kind: StoreKind) throws {
        let values: [URL?] = [
            URL(string: "https://example.com/a/b?q=1&r=two%20words#frag"),
            URL(string: "https://example.com/caf%C3%A9?name=%E6%97%A5%E6%9C%AC"),
            URL(string: "https://example.com/über?q=ünïcödé"),
            URL(fileURLWithPath: "/tmp/some file.txt"),
            URL(string: "mailto:someone@example.com"),
            nil
        ]
        #expect(values.dropLast().allSatisfy { $0 != nil })
        let read = try TestStore(kind).roundTrip("link", values)
        #expect(read.map { $0?.absoluteString } == values.map { $0?.absoluteString })
        #expect(read == values)
    }

    @Test(arguments: StoreKind.allCases)
    func jsonCodable(kind: StoreKind) throws {
        let values: [Payload?] = [
            Payload(name: "full", tags: ["a", "b"], count: 3, weights: ["x": 0.5, "y": -2], nested: .init(flag: true, note: "ünï")),
            Payload(name: "", tags: [], count: Int.min, weights: [:], nested: nil),
            nil
        ]
        #expect(try TestStore(kind).roundTrip("info", values) == values)
    }

    @Test(arguments: StoreKind.allCases)
    func jsonArrayAndDocument(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            try context.insertItem("A1", ["info": [1, 2, 3]])
            try context.insertItem("B2", ["info": try JSONDocument(data: Data(#"{"k":[true,null]}"#.utf8))])
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { context in
            #expect(try context.item("A1")?.get("info", as: [Int].self) == [1, 2, 3])
            let document = try #require(try context.item("B2")?.get("info", as: JSONDocument.self))
            #expect(document.text == #"{"k":[true,null]}"#)
            // A json value that does not decode as the requested type is a readable error.
            let error = #expect(throws: ObjectGraphError.self) { try context.item("A1")?.get("info", as: Payload.self) }
            #expect(error?.kind == .typeMismatch)
        }
    }

    /// `value(forKey:)` returns the Swift type each attribute type documents.
    @Test(arguments: StoreKind.allCases)
    func valueForKeyReturnsDocumentedTypes(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            try context.insertItem(
                "A1",
                [
                    "i16": 1, "i64": 2, "dbl": 1.5, "flt": Float(2.5), "dec": Decimal(3), "stamp": Date(),
                    "blob": Data([1]), "uid": UUID(), "link": URL(string: "https://example.com")!, "info": ["a": 1]
                ])
            try context.save()
        }
        try store.withNewContext { context in
            let item = try #require(try context.item("A1"))
            #expect(try item.value(forKey: "code") is String)
            #expect(try item.value(forKey: "i16") is Int16)
            #expect(try item.value(forKey: "i32") is Int32)
            #expect(try item.value(forKey: "i64") is Int64)
            #expect(try item.value(forKey: "dbl") is Double)
            #expect(try item.value(forKey: "flt") is Float)
            #expect(try item.value(forKey: "dec") is Decimal)
            #expect(try item.value(forKey: "flag") is Bool)
            #expect(try item.value(forKey: "stamp") is Date)
            #expect(try item.value(forKey: "blob") is Data)
            #expect(try item.value(forKey: "uid") is UUID)
            #expect(try item.value(forKey: "link") is URL)
            #expect(try item.value(forKey: "info") is JSONDocument)
            // Integers convert between widths when the value fits.
            #expect(try item.get("i32", as: Int.self) == 7)
            #expect(try item.get("i16", as: Int8.self) == 1)
        }
    }

    /// NaN cannot be stored (SQLite would turn it into NULL): it is refused when set, and the
    /// object keeps its value.
    @Test(arguments: StoreKind.allCases)
    func nanIsRefusedOnSet(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("A1", ["dbl": 2.5, "flt": Float(1.5)])
            try context.save()
            for (key, nan) in [
                ("dbl", Double.nan as Any), ("flt", Float.nan as Any), ("price", -Double.nan as Any), ("flt", Double.nan as Any)
            ] {
                let error = #expect(throws: ObjectGraphError.self) { try item.setValue(nan, forKey: key) }
                #expect(error?.kind == .typeMismatch)
                #expect(error?.entityName == "Item")
                #expect(error?.key == key)
                #expect(error?.message.contains("NaN") == true, "\(error?.message ?? "")")
            }
            #expect(try item.get("dbl", as: Double.self) == 2.5)
            #expect(try item.get("flt", as: Float.self) == 1.5)
            #expect(try item.get("price", as: Double.self) == 9.5)
            #expect(!item.isUpdated)
            #expect(!context.hasChanges)
        }
        try store.withNewContext { context throws in
            #expect(try context.item("A1")?.get("dbl", as: Double.self) == 2.5)
        }
    }
}
