import Foundation
import Testing

@testable import ObjectGraph

@Suite("Predicate evaluation")
struct PredicateEvaluationTests {
    private typealias Node = BoundPredicate.Node

    /// SQL's three truth values, and a node producing each (unknown: NULL age < 1).
    private enum Truth: CaseIterable {
        case t, f, u

        var node: Node {
            switch self {
            case .t: .constant(true)
            case .f: .constant(false)
            case .u: .ordering(.attribute(PredicateFixtures.person.attributes[1]), .less, .value(.integer(1)))
            }
        }
    }

    /// The truth of `node` on an all-NULL row: a node is unknown when neither it nor its
    /// negation holds.
    private func truth(_ node: Node) -> Truth {
        let row = PredicateFixtures.row([:])
        if BoundPredicate(root: node).evaluate(row) { return .t }
        if BoundPredicate(root: .not(node)).evaluate(row) { return .f }
        return .u
    }

    @Test func kleeneTruthTables() {
        let and: [Truth: [Truth: Truth]] = [.t: [.t: .t, .f: .f, .u: .u], .f: [.t: .f, .f: .f, .u: .f], .u: [.t: .u, .f: .f, .u: .u]]
        let or: [Truth: [Truth: Truth]] = [.t: [.t: .t, .f: .t, .u: .t], .f: [.t: .t, .f: .f, .u: .u], .u: [.t: .t, .f: .u, .u: .u]]
        for a in Truth.allCases {
            for b in Truth.allCases {
                #expect(truth(.and([a.node, b.node])) == and[a]?[b], "\(a) AND \(b)")
                #expect(truth(.or([a.node, b.node])) == or[a]?[b], "\(a) OR \(b)")
            }
        }
        #expect(truth(.not(Truth.t.node)) == .f)
        #expect(truth(.not(Truth.f.node)) == .t)
        #expect(truth(.not(Truth.u.node)) == .u)
        #expect(truth(.and([Truth.t.node, Truth.u.node, Truth.f.node])) == .f)
        #expect(truth(.or([Truth.f.node, Truth.u.node, Truth.t.node])) == .t)
    }

    @Test func nilSemantics() throws {
        let empty: [String: AttributeValue] = [:]
        let five: [String: AttributeValue] = ["age": .integer(5)]
        #expect(try PredicateFixtures.matches("age == nil", empty))
        #expect(try !PredicateFixtures.matches("age == nil", five))
        #expect(try PredicateFixtures.matches("age != nil", five))
        #expect(try PredicateFixtures.matches("age != 5", empty), "IS NOT: NULL differs from 5")
        #expect(try !PredicateFixtures.matches("age == 5", empty))
        #expect(try !PredicateFixtures.matches("age < 5", empty))
        #expect(try !PredicateFixtures.matches("NOT age < 5", empty), "NOT unknown is unknown")
        #expect(try !PredicateFixtures.matches("age >= 5", empty))
        #expect(try !PredicateFixtures.matches("age BETWEEN {1, 9}", empty))
        #expect(try !PredicateFixtures.matches("NOT age BETWEEN {1, 9}", empty))
        #expect(try PredicateFixtures.matches("NOT age < 5 OR age == nil", empty))
        #expect(try PredicateFixtures.matches("minAge == maxAge", empty), "NULL IS NULL")
        #expect(try !PredicateFixtures.matches("minAge < maxAge", ["minAge": .integer(1)]))
    }

    @Test func membership() throws {
        let five: [String: AttributeValue] = ["age": .integer(5)]
        let empty: [String: AttributeValue] = [:]
        #expect(try PredicateFixtures.matches("age IN {1, 5}", five))
        #expect(try !PredicateFixtures.matches("age IN {1, 2}", five))
        #expect(try PredicateFixtures.matches("NOT age IN {1, 2}", five))
        #expect(try PredicateFixtures.matches("age IN {nil, 5}", five), "a match is true despite the NULL")
        #expect(try !PredicateFixtures.matches("age IN {nil, 1}", five))
        #expect(try !PredicateFixtures.matches("NOT age IN {nil, 1}", five), "no match with a NULL in the list is unknown")
        #expect(try !PredicateFixtures.matches("age IN {1}", empty))
        #expect(try !PredicateFixtures.matches("NOT age IN {1}", empty))
        #expect(try !PredicateFixtures.matches("age IN {nil}", empty))
        #expect(try !PredicateFixtures.matches("age IN {}", empty))
        #expect(try PredicateFixtures.matches("NOT age IN {}", empty), "an empty list is false even for NULL")
        #expect(try PredicateFixtures.matches("age IN {5.0}", five))
    }

    @Test func stringsCompareByUTF8Bytes() throws {
        let precomposed: [String: AttributeValue] = ["name": .string("\u{E9}")]
        #expect(try PredicateFixtures.matches("name == %@", precomposed, "\u{E9}"))
        #expect(try !PredicateFixtures.matches("name == %@", precomposed, "e\u{301}"), "canonically equivalent but not the same bytes")
        #expect(try PredicateFixtures.matches("name != %@", precomposed, "e\u{301}"))
        #expect(try PredicateFixtures.matches("name > %@", precomposed, "e\u{301}"))
        #expect(try PredicateFixtures.matches("name < 'a'", ["name": .string("Z")]), "uppercase before lowercase")
        #expect(try PredicateFixtures.matches("name < 'ab'", ["name": .string("a")]), "a prefix first")
        #expect(try PredicateFixtures.matches("name > 'z'", ["name": .string("é")]), "non-ASCII after ASCII")
        #expect(try PredicateFixtures.matches("name BETWEEN {'a', 'b'}", ["name": .string("apple")]))
        #expect(try PredicateFixtures.matches("name == ''", ["name": .string("")]))
        #expect(try !PredicateFixtures.matches("name == nil", ["name": .string("")]))
    }

    @Test func numbers() throws {
        #expect(try PredicateFixtures.matches("age == 3.0", ["age": .integer(3)]))
        #expect(try PredicateFixtures.matches("age < 3.5", ["age": .integer(3)]))
        #expect(try !PredicateFixtures.matches("age == 3.5", ["age": .integer(3)]))
        #expect(try PredicateFixtures.matches("age == 70000 OR age != 70000", ["age": .integer(3)]))
        #expect(try PredicateFixtures.matches("score == 3", ["score": .double(3)]))
        #expect(try PredicateFixtures.matches("score > -1e999", ["score": .double(-.greatestFiniteMagnitude)]))
        #expect(try PredicateFixtures.matches("score == 1e999", ["score": .double(.infinity)]))
        #expect(try PredicateFixtures.matches("weight == 0.5", ["weight": .float(0.5)]))
        #expect(try PredicateFixtures.matches("weight == %@", ["weight": .float(0.1)], Float(0.1)))
        #expect(try !PredicateFixtures.matches("weight == 0.1", ["weight": .float(0.1)]), "Float(0.1) is not the double 0.1")
        // Integers against doubles are exact, beyond 2^53 too.
        let twoPower53 = ["score": AttributeValue.double(9_007_199_254_740_992)]
        #expect(try !PredicateFixtures.matches("score == 9007199254740993", twoPower53))
        #expect(try PredicateFixtures.matches("score < 9007199254740993", twoPower53))
        #expect(try PredicateFixtures.matches("big > 9007199254740992.0", ["big": .integer(9_007_199_254_740_993)]))
        #expect(try PredicateFixtures.matches("big < 1e19", ["big": .integer(.max)]))
        #expect(try PredicateFixtures.matches("big > %@", ["big": .integer(.max)], 9.2e18))
        #expect(try !PredicateFixtures.matches("big == %@", ["big": .integer(.max)], UInt64.max))
        #expect(try PredicateFixtures.matches("minAge < maxAge", ["minAge": .integer(1), "maxAge": .integer(2)]))
        #expect(try PredicateFixtures.matches("age < score", ["age": .integer(1), "score": .double(1.5)]))
    }

    @Test func decimals() throws {
        let tenth: [String: AttributeValue] = ["price": .decimal(Decimal(string: "0.1")!)]
        #expect(try PredicateFixtures.matches("price == 0.1", tenth))
        #expect(try PredicateFixtures.matches("price == %@", tenth, Decimal(string: "0.10")!))
        #expect(try PredicateFixtures.matches("price IN {1, 0.1}", tenth))
        #expect(try PredicateFixtures.matches("price < 0.2 AND price > 0", tenth))
        #expect(try PredicateFixtures.matches("price >= %@", tenth, Decimal(string: "0.1")!))
        #expect(try PredicateFixtures.matches("price == 10", ["price": .decimal(10)]))
        #expect(try PredicateFixtures.matches("price > 9", ["price": .decimal(10)]), "numeric, not text, order")
        #expect(try PredicateFixtures.matches("price == age", ["price": .decimal(10), "age": .integer(10)]))
        #expect(try PredicateFixtures.matches("price > age", ["price": .decimal(10), "age": .integer(9)]))
        #expect(try !PredicateFixtures.matches("price < 1", [:]))
    }

    @Test func otherTypes() throws {
        let date = Date(timeIntervalSinceReferenceDate: 1000.5)
        let uuid = UUID()
        let url = URL(string: "https://example.com/a")!
        #expect(try PredicateFixtures.matches("birthday == %@", ["birthday": .date(date)], date))
        #expect(try PredicateFixtures.matches("birthday > %@", ["birthday": .date(date)], Date(timeIntervalSinceReferenceDate: 1000)))
        #expect(try PredicateFixtures.matches("id == %@", ["id": .uuid(uuid)], uuid))
        #expect(try PredicateFixtures.matches("id == %@", ["id": .uuid(uuid)], uuid.uuidString.lowercased()))
        #expect(try !PredicateFixtures.matches("id == %@", ["id": .uuid(uuid)], UUID()))
        #expect(try PredicateFixtures.matches("homepage == %@", ["homepage": .uri(url)], url))
        #expect(try PredicateFixtures.matches("homepage == 'https://example.com/a'", ["homepage": .uri(url)]))
        #expect(try PredicateFixtures.matches("homepage == name", ["homepage": .uri(url), "name": .string(url.absoluteString)]))
        #expect(try PredicateFixtures.matches("flag == YES", ["flag": .boolean(true)]))
        #expect(try PredicateFixtures.matches("flag != YES", ["flag": .boolean(false)]))
        #expect(try PredicateFixtures.matches("photo == %@", ["photo": .binary(Data())], Data()))
        #expect(try !PredicateFixtures.matches("photo == nil", ["photo": .binary(Data())]))
        #expect(try PredicateFixtures.matches("extra != nil", ["extra": .json(JSONDocument(validatedData: Data("1".utf8)))]))
    }
}
