import Foundation
import Testing

@testable import ObjectGraph

/// Predicates as large and as deeply nested as programs build them — a thousand ORs, NOT inside
/// NOT, tens of thousands of values after IN — give the same answers on every store; past what
/// SQLite can read, every store refuses them alike with an error that says the limit.
@Suite struct PredicateSizeConformanceTests {
    /// A store holding items C0…C29 with `i64` 0…29.
    private static func store(_ kind: StoreKind) throws -> TestStore {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            for number in 0..<30 { _ = try context.insertItem("C\(number)", ["i64": number]) }
            try context.save()
        }
        return store
    }

    private static func count(_ store: TestStore, _ predicate: FetchPredicate) throws -> Int {
        try store.withNewContext { try $0.count(for: FetchRequest<ManagedObject>(entityName: "Item", predicate: predicate)) }
    }

    @Test(arguments: StoreKind.allCases)
    func longChainsOfOrAndAnd(kind: StoreKind) throws {
        let store = try Self.store(kind)
        let ors = (0..<1_200).map { "code == 'C\($0)'" }.joined(separator: " OR ")
        #expect(try Self.count(store, FetchPredicate(format: ors)) == 30)
        let ands = (100..<2_100).map { "i64 != \($0)" }.joined(separator: " AND ")
        #expect(try Self.count(store, FetchPredicate(format: ands + " AND i64 < 10")) == 10)
        let comparisons = (0..<1_000).map { PredicateKey("i64") == $0 * 2 }
        #expect(try Self.count(store, .or(comparisons)) == 15)
        #expect(try Self.count(store, comparisons.dropFirst().reduce(comparisons[0], ||)) == 15)
        #expect(try Self.count(store, .not(.and((0..<1_000).map { PredicateKey("i64") != $0 }))) == 30)
    }

    @Test(arguments: StoreKind.allCases)
    func deeplyNestedNots(kind: StoreKind) throws {
        let store = try Self.store(kind)
        for depth in [45, 46, 100, 101, 240, 241] {
            let format = String(repeating: "NOT (", count: depth) + "i64 < 10" + String(repeating: ")", count: depth)
            #expect(try Self.count(store, FetchPredicate(format: format)) == (depth.isMultiple(of: 2) ? 10 : 20), "\(depth)")
        }
        // A negated group of groups: NOT (a AND (b OR NOT (c AND …))).
        var format = "i64 == 0"
        for number in 1...60 { format = "NOT (i64 == \(number) \(number.isMultiple(of: 2) ? "AND" : "OR") \(format))" }
        let expected = (0..<30).filter { Self.alternating(60, value: $0, negated: true) }.count
        #expect(expected > 0)
        #expect(try Self.count(store, FetchPredicate(format: format)) == expected)
    }

    /// What `NOT (i64 == levels AND|OR NOT (… NOT (i64 == 1 OR i64 == 0)))` (AND at even
    /// levels) says about `value`, or the same without the NOTs when not `negated`.
    private static func alternating(_ levels: Int, value: Int, negated: Bool) -> Bool {
        guard levels > 0 else { return value == 0 }
        let inner = alternating(levels - 1, value: value, negated: negated)
        let group = levels.isMultiple(of: 2) ? (value == levels && inner) : (value == levels || inner)
        return group != negated
    }

    @Test(arguments: StoreKind.allCases)
    func tensOfThousandsOfValuesAfterIn(kind: StoreKind) throws {
        let store = try Self.store(kind)
        #expect(try Self.count(store, FetchPredicate(format: "i64 IN %@", Array(0..<50_000))) == 30)
        #expect(try Self.count(store, FetchPredicate(format: "code IN %@", (0..<40_000).map { "C\($0)" })) == 30)
        #expect(try Self.count(store, FetchPredicate(format: "NOT (code IN %@)", (5..<40_000).map { "C\($0)" })) == 5)
        #expect(try Self.count(store, FetchPredicate(format: "dbl IN %@ OR i64 < 3", (0..<40_000).map { Double($0) + 0.5 })) == 3)
    }

    @Test(arguments: StoreKind.allCases)
    func nestingBeyondWhatSQLiteReadsIsRefusedAlike(kind: StoreKind) throws {
        let store = try Self.store(kind)
        /// Groups alternating AND and OR, `levels` deep, and how many of the items match.
        func alternating(_ levels: Int) throws -> (FetchPredicate, matches: Int) {
            var format = "i64 == 0"
            var matches: (Int) -> Bool = { $0 == 0 }
            for number in 1...levels {
                let isAnd = number.isMultiple(of: 2), bound = number % 30
                format = "(i64 \(isAnd ? ">=" : "<") \(bound) \(isAnd ? "AND" : "OR") \(format))"
                let inner = matches
                matches = isAnd ? { $0 >= bound && inner($0) } : { $0 < bound || inner($0) }
            }
            return (try FetchPredicate(format: format), (0..<30).filter(matches).count)
        }
        let (deepest, matches) = try alternating(BoundPredicate.maximumNesting)
        #expect(matches > 0)
        #expect(try Self.count(store, deepest) == matches)
        let error = try #require(throws: ObjectGraphError.self) { try Self.count(store, alternating(BoundPredicate.maximumNesting + 1).0) }
        #expect(error.kind == .predicateSyntax)
        #expect(error.message.contains("nests 65 levels deep, more than the 64 that every store accepts"), "\(error.message)")
    }

    @Test(arguments: StoreKind.allCases)
    func anOrOfMoreComparisonsThanSQLiteTakesIsRefusedAlike(kind: StoreKind) throws {
        let store = try Self.store(kind)
        let comparisons = (0..<33_000).map { PredicateKey("i64") == $0 }
        let error = try #require(throws: ObjectGraphError.self) { try Self.count(store, .or(comparisons)) }
        #expect(error.kind == .predicateSyntax)
        #expect(error.message.contains("33000 values, more than the 32766"), "\(error.message)")
    }
}
