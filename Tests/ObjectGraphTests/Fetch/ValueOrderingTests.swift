import Foundation
import Testing

@testable import ObjectGraph

@Suite("Value ordering")
struct ValueOrderingTests {
    @Test func storageClassesOrderLikeSQLite() {
        let ascending: [AttributeValue] = [
            .null, .double(-.infinity), .integer(.min), .boolean(false), .date(Date(timeIntervalSinceReferenceDate: 0.5)),
            .integer(1), .float(1.5), .double(.infinity), .string(""), .decimal(10), .string("B"), .uri(URL(string: "a:b")!),
            .json(JSONDocument(validatedData: Data("{}".utf8))), .binary(Data()), .binary(Data([0])), .binary(Data([1, 2]))
        ]
        for (i, a) in ascending.enumerated() {
            for (j, b) in ascending.enumerated() {
                let expected = i < j ? -1 : (i > j ? 1 : 0)
                #expect(compareStored(a, b) == expected, "\(a) vs \(b)")
            }
        }
    }

    @Test func numbersCompareExactly() {
        #expect(compareStored(.integer(3), .double(3)) == 0)
        #expect(compareStored(.boolean(true), .integer(1)) == 0)
        #expect(compareStored(.double(-0.0), .integer(0)) == 0)
        #expect(compareStored(.integer(9_007_199_254_740_993), .double(9_007_199_254_740_992)) == 1)
        #expect(compareStored(.double(9_007_199_254_740_992), .integer(9_007_199_254_740_993)) == -1)
        #expect(compareStored(.integer(.max), .double(9_223_372_036_854_775_808)) == -1)
        #expect(compareStored(.integer(.min), .double(-9_223_372_036_854_775_808)) == 0)
        #expect(compareStored(.integer(-1), .double(-0.5)) == -1)
        #expect(compareStored(.integer(0), .double(-0.5)) == 1)
        #expect(compareStored(.integer(0), .double(0.5)) == -1)
        #expect(compareStored(.float(0.1), .double(Double(Float(0.1)))) == 0)
        #expect(compareStored(.date(Date(timeIntervalSinceReferenceDate: 2)), .integer(2)) == 0)
    }

    @Test func textAndBlobsCompareByBytes() {
        #expect(compareStored(.string("\u{E9}"), .string("e\u{301}")) == 1)
        #expect(compareStored(.string("Z"), .string("a")) == -1)
        #expect(compareStored(.string("a"), .string("a\0")) == -1)
        #expect(compareStored(.decimal(10), .decimal(9)) == -1, "stored decimals are text")
        #expect(compareStored(.decimal(Decimal(string: "1.50")!), .string("1.5")) == 0, "canonical text")
        let low = UUID(uuidString: "00000000-0000-0000-0000-0000000000FF")!
        let high = UUID(uuidString: "01000000-0000-0000-0000-000000000000")!
        #expect(compareStored(.uuid(low), .uuid(high)) == -1)
        #expect(compareStored(.uuid(low), .binary(withUnsafeBytes(of: low.uuid) { Data($0) })) == 0)
    }

    @Test func castToRealConvertsDecimalsOnly() {
        #expect(castToReal(.decimal(Decimal(string: "2.5")!)) == .double(2.5))
        #expect(castToReal(.null) == .null)
        #expect(castToReal(.string("2.5")) == .string("2.5"))
    }

    @Test func rowsSortLikeOrderBy() throws {
        let entity = PredicateFixtures.person
        let name = try FetchSortDescriptor(key: "name").bind(to: entity, in: PredicateFixtures.model)
        let ageDescending = try FetchSortDescriptor(key: "age", ascending: false).bind(to: entity, in: PredicateFixtures.model)
        let price = try FetchSortDescriptor(key: "price").bind(to: entity, in: PredicateFixtures.model)
        let rows = [
            PredicateFixtures.row(["name": .string("b"), "age": .integer(1), "price": .decimal(10)]),
            PredicateFixtures.row(["age": .integer(2), "price": .decimal(9)]),
            PredicateFixtures.row(["name": .string("B"), "price": .decimal(Decimal(string: "9.5")!)]),
            PredicateFixtures.row(["name": .string("b"), "age": .integer(3)])
        ]
        func order(_ sorts: [BoundSort]) -> [Int] {
            rows.indices.sorted {
                compareRows(rows[$0], rows[$1], by: sorts) == .orderedAscending
                    || (compareRows(rows[$0], rows[$1], by: sorts) == .orderedSame && $0 < $1)
            }
        }
        #expect(order([name]) == [1, 2, 0, 3], "NULL first ascending, then bytes (B before b)")
        #expect(order([ageDescending]) == [3, 1, 0, 2], "NULL last descending")
        #expect(order([name, ageDescending]) == [1, 2, 3, 0])
        #expect(order([price]) == [3, 1, 2, 0], "decimals by number, not text")
        #expect(compareRows(rows[0], rows[0], by: [name, ageDescending, price]) == .orderedSame)
        #expect(compareRows(rows[0], rows[1], by: []) == .orderedSame)
    }
}
