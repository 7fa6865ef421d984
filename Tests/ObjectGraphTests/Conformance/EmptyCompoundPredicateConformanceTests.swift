import Foundation
import Testing

@testable import ObjectGraph

/// Compounds of no predicates, as Core Data's `NSCompoundPredicate` evaluates them: an empty AND
/// is true (every object matches, as with no predicate), an empty OR is false (none does). They
/// read back as `truePredicate` and `falsePredicate`, so a request keeps a predicate a program
/// can print and compose.
@Suite struct EmptyCompoundPredicateConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func anEmptyAndMatchesEveryObjectAndAnEmptyOrNone(kind: StoreKind) throws {
        let store = try TestStore(kind)
        _ = try store.savedItem("A1")
        _ = try store.savedItem("B2")
        try store.withNewContext { context in
            try context.insertItem("C3")
            var all = FetchRequest<ManagedObject>(entityName: "Item", predicate: .and([]))
            #expect(all.predicate == .truePredicate)
            #expect(all.predicate?.description == "TRUEPREDICATE")
            #expect(try context.fetch(all).count == 3)
            #expect(try context.count(for: all) == 3)
            all.includesPendingChanges = false
            #expect(try context.fetch(all).count == 2)

            let none = FetchRequest<ManagedObject>(entityName: "Item", predicate: .or([]))
            #expect(none.predicate == .falsePredicate)
            #expect(none.predicate?.description == "FALSEPREDICATE")
            #expect(try context.fetch(none).isEmpty)
            #expect(try context.count(for: none) == 0)

            // Within other compounds they change nothing, as TRUE in an AND and FALSE in an OR.
            let a1 = try FetchPredicate(format: "code == 'A1'")
            for predicate in [.and([]) && a1, .or([]) || a1, .and([.and([]), a1]), .or([.or([]), a1])] {
                #expect(try context.fetch(FetchRequest<ManagedObject>(entityName: "Item", predicate: predicate)).map(\.label) == ["A1"])
            }
            #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Item", predicate: !.or([]))) == 3)
            #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Item", predicate: .and([]) || a1)) == 3)
        }
    }

    /// Batch requests compile their predicate like fetches: an empty OR deletes nothing, an
    /// empty AND every row.
    @Test(arguments: StoreKind.allCases)
    func batchDeletesReadEmptyCompoundsAlike(kind: StoreKind) throws {
        let store = try TestStore(kind)
        _ = try store.savedItem("A1")
        _ = try store.savedItem("B2")
        try store.withNewContext { context in
            _ = try context.execute(BatchDeleteRequest(entityName: "Item", predicate: .or([])))
        }
        #expect(try store.storedCount("Item") == 2)
        try store.withNewContext { context in
            _ = try context.execute(BatchDeleteRequest(entityName: "Item", predicate: .and([])))
        }
        #expect(try store.storedCount("Item") == 0)
    }
}
