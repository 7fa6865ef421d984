import Foundation
import Testing

@testable import ObjectGraph

/// NaN dates and numbers are refused with an error wherever a program can hand them over —
/// setters, batch inserts and updates, predicate arguments — and never stop the process
/// (Foundation's `Date.description` traps on a NaN date); −0.0 is kept as 0.0, as SQLite keeps
/// it. On every store.
@Suite struct NaNValueConformanceTests {
    private static let nanDate = Date(timeIntervalSinceReferenceDate: .nan)

    @Test(arguments: StoreKind.allCases)
    func aNaNDateIsRefusedWhenSet(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("A1")
            let error = try #require(throws: ObjectGraphError.self) { try item.setValue(Self.nanDate, forKey: "stamp") }
            #expect(error.kind == .typeMismatch)
            #expect(error.key == "stamp")
            #expect(error.message.contains("a NaN date cannot be stored"), "\(error.message)")
            #expect(error.message.contains("Date(timeIntervalSinceReferenceDate: nan)"), "\(error.message)")
            // Also hidden in an Optional, and as the wrong type for another attribute.
            #expect(throws: ObjectGraphError.self) { try item.setValue(Optional(Self.nanDate), forKey: "stamp") }
            let wrongType = try #require(throws: ObjectGraphError.self) { try item.setValue([Self.nanDate], forKey: "title") }
            #expect(wrongType.message.contains("nan"))
            #expect(try item.get("stamp", as: Date.self) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func batchRequestsRefuseANaNDateAndWriteNothing(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let insert = try #require(throws: ObjectGraphError.self) {
                try context.execute(
                    BatchInsertRequest(entityName: "Item", objects: [["code": "A1"], ["code": "B2", "stamp": Self.nanDate]]))
            }
            #expect(insert.kind == .typeMismatch)
            #expect(insert.message.contains("NaN"), "\(insert.message)")
            #expect(try store.storedCount("Item") == 0)
            _ = try context.execute(BatchInsertRequest(entityName: "Item", objects: [["code": "C3"]]))
            let update = try #require(throws: ObjectGraphError.self) {
                try context.execute(BatchUpdateRequest(entityName: "Item", predicate: nil, propertiesToUpdate: ["stamp": Self.nanDate]))
            }
            #expect(update.kind == .typeMismatch)
            #expect(try store.storedCount("Item", "stamp == nil") == 1)
        }
    }

    @Test func aNaNDateAsAPredicateArgumentIsRefusedLikeANaNDouble() throws {
        for argument: Any in [Self.nanDate, Double.nan] {
            let error = try #require(throws: ObjectGraphError.self) { _ = try FetchPredicate(format: "stamp > %@", argument) }
            #expect(error.kind == .typeMismatch)
            #expect(error.message.contains("argument 1 is NaN"), "\(error.message)")
        }
        #expect(throws: ObjectGraphError.self) { _ = try FetchPredicate(format: "stamp IN %@", [Date(), Self.nanDate]) }
    }

    @Test(arguments: StoreKind.allCases)
    func aNaNDateInAPredicateBuiltInCodeIsRefusedAtFetch(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            _ = try context.insertItem("A1", ["stamp": Date()])
            var request = FetchRequest<ManagedObject>(entityName: "Item")
            request.predicate = PredicateKey("stamp") < Self.nanDate
            let error = try #require(throws: ObjectGraphError.self) { try context.fetch(request) }
            #expect(error.kind == .typeMismatch)
            #expect(error.message.contains("NaN"))
        }
    }

    /// SQLite keeps −0.0 in a REAL column as 0.0; the in-memory store does the same, so both
    /// give back the same value.
    @Test(arguments: StoreKind.allCases)
    func negativeZeroIsStoredAsZero(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let minusZero = -0.0
        _ = try store.savedItem("Z1", ["dbl": minusZero, "flt": Float(minusZero), "stamp": Date(timeIntervalSinceReferenceDate: minusZero)])
        try store.withNewContext { context in
            _ = try context.execute(BatchInsertRequest(entityName: "Item", objects: [["code": "Z2", "dbl": minusZero]]))
        }
        try store.reopen()
        try store.withNewContext { context in
            for item in try context.objects("Item") {
                #expect(try item.get("dbl", as: Double.self)?.sign == .plus)
            }
            let first = try #require(try context.item("Z1"))
            #expect(try first.get("flt", as: Float.self)?.sign == .plus)
            #expect(try first.get("stamp", as: Date.self)?.timeIntervalSinceReferenceDate.sign == .plus)
        }
    }
}
