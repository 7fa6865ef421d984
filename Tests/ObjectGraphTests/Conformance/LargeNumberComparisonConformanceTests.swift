import Foundation
import Testing

@testable import ObjectGraph

/// Integers from 2^53 on, compared with doubles, compare exactly on every store: no double holds
/// 2^53 + 1, so a store that compared as doubles (PostgreSQL, left to itself) would find it equal
/// to 2^53.
@Suite struct LargeNumberComparisonConformanceTests {
    private static let twoToThe53: Int64 = 1 << 53

    @Test(arguments: StoreKind.allCases)
    func integersAndDoublesCompareExactly(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let big = Self.twoToThe53
        try store.withNewContext { context in
            try context.insertItem("A", ["i64": big + 1, "dbl": Double(big)])
            try context.insertItem("B", ["i64": big, "dbl": Double(big + 2)])
            try context.save()
        }
        let cases: [(String, [Any], [String])] = [
            ("i64 == %@", [Double(big)], ["B"]),
            ("i64 != %@", [Double(big)], ["A"]),
            ("i64 > %@", [Double(big)], ["A"]),
            ("i64 <= %@", [Double(big)], ["B"]),
            ("dbl == %@", [big + 1], []),
            ("dbl < %@", [big + 1], ["A"]),
            ("dbl >= %@", [big + 2], ["B"]),
            ("i64 IN %@", [[Double(big), 0.5]], ["B"]),
            ("i64 IN %@", [[Double(big + 2), 0.5, 3]], []),
            ("dbl IN %@", [[big + 1, big + 2, 0.5]], ["B"]),
            ("dbl IN %@", [[big + 1, Double(big)]], ["A"]),
            ("i64 BETWEEN %@", [[Double(big), Double(big)]], ["B"]),
            ("dbl BETWEEN %@", [[big + 1, big + 3]], ["B"]),
            ("i64 > dbl", [], ["A"]),
            ("i64 == dbl", [], []),
            ("i64 < dbl", [], ["B"]),
            ("NOT (i64 == %@)", [Double(big)], ["A"])
        ]
        try store.withNewContext { context in
            for (format, arguments, expected) in cases {
                let found = try context.objects("Item", where: format, arguments: arguments).map(\.label).sorted()
                #expect(found == expected, "\(format) \(arguments)")
            }
        }
    }
}
