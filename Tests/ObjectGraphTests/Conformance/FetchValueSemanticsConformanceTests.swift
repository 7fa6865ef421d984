import Foundation
import Testing

@testable import ObjectGraph

/// Comparisons and ordering of values that stores represent differently from Swift: decimals
/// (TEXT in SQLite), strings (bytes, not canonical equivalence), Booleans, dates, UUIDs. Checked
/// against saved rows (the store evaluates) and unsaved ones (the context evaluates).
@Suite struct FetchValueSemanticsConformanceTests {
    /// Inserts items `A`… with `key` set to each value; saves them unless `save` is false.
    static func insert(_ context: ManagedObjectContext, _ key: String, _ values: [Any?], save: Bool) throws {
        for (index, value) in values.enumerated() {
            try context.insertItem(String(UnicodeScalar(UInt8(65 + index))), [key: value])
        }
        if save { try context.save() }
    }

    @Test(arguments: StoreKind.allCases, [true, false])
    func decimalsCompareAndSortByValue(kind: StoreKind, saved: Bool) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let values = ["9", "10", "-1.5", "100.25", "9.5", nil].map { $0.flatMap { Decimal(string: $0) } }
            try Self.insert(context, "dec", values, save: saved)
            // A 9, B 10, C -1.5, D 100.25, E 9.5, F nil
            #expect(try context.objects("Item", sortedBy: ["dec"]).map(\.label) == ["F", "C", "A", "E", "B", "D"])
            #expect(try context.objects("Item", sortedBy: ["-dec"]).map(\.label) == ["D", "B", "E", "A", "C", "F"])
            #expect(try context.objects("Item", where: "dec > 9.5").map(\.label) == ["B", "D"])
            #expect(try context.objects("Item", where: "dec >= 9.5").map(\.label) == ["B", "D", "E"])
            #expect(try context.objects("Item", where: "dec == 10").map(\.label) == ["B"])
            #expect(try context.objects("Item", where: "dec < 0").map(\.label) == ["C"])
            #expect(try context.objects("Item", where: "dec == nil").map(\.label) == ["F"])
        }
    }

    @Test(arguments: StoreKind.allCases, [true, false])
    func stringsCompareByBytes(kind: StoreKind, saved: Bool) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            // A precomposed é, B e + combining acute (equal as Swift strings), C "f", D "".
            try Self.insert(context, "title", ["\u{E9}", "e\u{301}", "f", ""], save: saved)
            let precomposed = FetchRequest<ManagedObject>(
                entityName: "Item", predicate: try FetchPredicate(format: "title == %@", "\u{E9}"))
            #expect(try context.fetch(precomposed).map(\.label) == ["A"])
            let decomposed = FetchRequest<ManagedObject>(
                entityName: "Item", predicate: try FetchPredicate(format: "title == %@", "e\u{301}"))
            #expect(try context.fetch(decomposed).map(\.label) == ["B"])
            #expect(try context.objects("Item", sortedBy: ["title"]).map(\.label) == ["D", "B", "C", "A"])
            #expect(try context.objects("Item", where: "title < 'f'").map(\.label) == ["B", "D"])
            #expect(try context.objects("Item", where: "title == ''").map(\.label) == ["D"])
        }
    }

    @Test(arguments: StoreKind.allCases, [true, false])
    func booleansDatesAndUUIDs(kind: StoreKind, saved: Bool) throws {
        let store = try TestStore(kind)
        let uid = UUID()
        let day = Date(timeIntervalSinceReferenceDate: 700_000_000.5)
        try store.withNewContext { context in
            try context.insertItem("A", ["flag": false, "stamp": day, "uid": uid])
            try context.insertItem("B", ["flag": true, "stamp": day.addingTimeInterval(0.000001)])
            try context.insertItem("C", ["flag": false, "stamp": day.addingTimeInterval(-86_400), "uid": UUID()])
            if saved { try context.save() }
            #expect(try context.objects("Item", where: "flag == YES").map(\.label) == ["B"])
            #expect(try context.objects("Item", where: "flag == NO").map(\.label) == ["A", "C"])
            #expect(try context.objects("Item", where: "flag != true").map(\.label) == ["A", "C"])
            #expect(try context.objects("Item", sortedBy: ["flag", "-code"]).map(\.label) == ["C", "A", "B"])
            let exact = FetchRequest<ManagedObject>(entityName: "Item", predicate: try FetchPredicate(format: "stamp == %@", day))
            #expect(try context.fetch(exact).map(\.label) == ["A"])
            let after = FetchRequest<ManagedObject>(entityName: "Item", predicate: try FetchPredicate(format: "stamp > %@", day))
            #expect(try context.fetch(after).map(\.label) == ["B"])
            #expect(try context.objects("Item", sortedBy: ["-stamp"]).map(\.label) == ["B", "A", "C"])
            let byUUID = FetchRequest<ManagedObject>(entityName: "Item", predicate: try FetchPredicate(format: "uid == %@", uid))
            #expect(try context.fetch(byUUID).map(\.label) == ["A"])
            #expect(try context.objects("Item", where: "uid == nil").map(\.label) == ["B"])
        }
    }

    /// Integers compare exactly at the edges of Int64, where a Double would round.
    @Test(arguments: StoreKind.allCases, [true, false])
    func largeIntegersCompareExactly(kind: StoreKind, saved: Bool) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            try Self.insert(context, "i64", [Int64.max, Int64.max - 1, Int64.min, (1 << 53) + 1, 1 << 53], save: saved)
            let top = FetchRequest<ManagedObject>(entityName: "Item", predicate: try FetchPredicate(format: "i64 == %lld", Int64.max - 1))
            #expect(try context.fetch(top).map(\.label) == ["B"])
            let big = FetchRequest<ManagedObject>(entityName: "Item", predicate: try FetchPredicate(format: "i64 > %lld", Int64(1 << 53)))
            #expect(try context.fetch(big).map(\.label) == ["A", "B", "D"])
            #expect(try context.objects("Item", sortedBy: ["i64"]).map(\.label) == ["C", "E", "D", "B", "A"])
        }
    }

    /// A transient attribute is not stored, so a fetch cannot filter or sort by it: both stores
    /// refuse it the same way rather than one of them answering.
    @Test(arguments: StoreKind.allCases)
    func transientKeysCannotBeFetchedOn(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            try context.insertItem("A", ["scratch": "x"])
            try context.save()
            let filter = #expect(throws: ObjectGraphError.self) { try context.fetch(request("Item", where: "scratch == 'x'")) }
            #expect(filter?.key == "scratch")
            #expect(filter?.message.contains("transient") == true, "\(filter?.message ?? "")")
            let sort = #expect(throws: ObjectGraphError.self) { try context.fetch(request("Item", sortedBy: ["scratch"])) }
            #expect(sort?.key == "scratch")
        }
    }
}
