import Foundation
import Testing

@testable import ObjectGraph

@Suite("Predicate SQL")
struct PredicateSQLTests {
    private func fragment(_ format: String, _ arguments: any Sendable...) throws -> SQLFragment {
        try FetchPredicate(format: format, argumentArray: arguments).bind(to: PredicateFixtures.person, in: PredicateFixtures.model)
            .sqlFragment()
    }

    @Test func representativePredicates() throws {
        let date = Date(timeIntervalSinceReferenceDate: 100)
        let uuid = UUID()
        let cases: [(SQLFragment, String, [AttributeValue])] = [
            (try fragment("age > %d AND name != nil", 30), #"("age" > ? AND "name" IS NOT ?)"#, [.integer(30), .null]),
            (try fragment("name == 'Ann'"), #""name" IS ?"#, [.string("Ann")]),
            (try fragment("3 < age"), #""age" > ?"#, [.integer(3)]),
            (try fragment("age >= 2.5"), #""age" >= ?"#, [.double(2.5)]),
            (try fragment("score <= 3"), #""score" <= ?"#, [.integer(3)]),
            (try fragment("age BETWEEN {1, 5}"), #""age" BETWEEN ? AND ?"#, [.integer(1), .integer(5)]),
            (try fragment("age IN {1, 2, nil}"), #""age" IN (?, ?, ?)"#, [.integer(1), .integer(2), .null]),
            (try fragment("age IN {}"), "0", []),
            (try fragment("NOT (age == 1 OR flag == YES)"), #"("age" IS NOT ? AND "flag" IS NOT ?)"#, [.integer(1), .boolean(true)]),
            (try fragment("TRUEPREDICATE"), "1", []),
            (try fragment("FALSEPREDICATE OR age == 1"), #"(0 OR "age" IS ?)"#, [.integer(1)]),
            (try fragment("birthday < %@", date), #""birthday" < ?"#, [.date(date)]),
            (try fragment("id == %@", uuid.uuidString), #""id" IS ?"#, [.uuid(uuid)]),
            (try fragment("homepage == 'https://a.b/'"), #""homepage" IS ?"#, [.string("https://a.b/")]),
            (try fragment("extra == nil"), #""extra" IS ?"#, [.null]),
            (try fragment("minAge < maxAge"), #""minAge" < "maxAge""#, []),
            // Decimals: equality on the canonical text, ordering as REAL.
            (try fragment("price == 2.50"), #""price" IS ?"#, [.decimal(Decimal(string: "2.5")!)]),
            (try fragment("price != 3"), #""price" IS NOT ?"#, [.decimal(3)]),
            (
                try fragment("price IN {0.1, %@}", Decimal(string: "7.25")!), #""price" IN (?, ?)"#,
                [.decimal(Decimal(string: "0.1")!), .decimal(Decimal(string: "7.25")!)]
            ),
            (try fragment("price < 2.5"), #"objectgraph_real("price") < ?"#, [.double(2.5)]),
            (try fragment("price >= %@", Decimal(string: "1.5")!), #"objectgraph_real("price") >= ?"#, [.double(1.5)]),
            (try fragment("price BETWEEN {1, 2}"), #"objectgraph_real("price") BETWEEN ? AND ?"#, [.integer(1), .integer(2)]),
            (try fragment("price > age"), #"objectgraph_real("price") > "age""#, []),
            (try fragment("price == age"), #"objectgraph_real("price") IS "age""#, []),
            (try fragment("price == price"), #""price" IS "price""#, []),
            (try fragment("price < price"), #"objectgraph_real("price") < objectgraph_real("price")"#, [])
        ]
        for (fragment, sql, bindings) in cases {
            #expect(fragment.sql == sql)
            #expect(fragment.bindings == bindings)
        }
    }

    @Test func bindingOrderFollowsTheText() throws {
        let fragment = try fragment("(age == 1 OR name == 'a') AND NOT (score BETWEEN {2, 3} OR age IN {4, 5})")
        #expect(fragment.sql == #"(("age" IS ? OR "name" IS ?) AND NOT ("score" BETWEEN ? AND ?) AND NOT ("age" IN (?, ?)))"#)
        #expect(fragment.bindings == [.integer(1), .string("a"), .integer(2), .integer(3), .integer(4), .integer(5)])
        #expect(fragment.sql.count(where: { $0 == "?" }) == fragment.bindings.count)
    }

    @Test(
        "values never reach the SQL text",
        arguments: [
            "x' OR '1'='1", "'; DROP TABLE \"Person\"; --", "\"name\" IS NOT NULL --", "a\"b", "?", "%@", "\0", "ünï"
        ])
    func injectionAttemptsOnlyAppearInBindings(value: String) throws {
        let fromArgument = try fragment("name == %@ OR name IN %@", value, [value])
        let literal = try fragment("name == \(PredicateFormatter.render(.string(value)))")
        for fragment in [fromArgument, literal] {
            #expect(!fragment.sql.contains(value) || value == "?")
            #expect(fragment.bindings.allSatisfy { $0 == .string(value) })
            #expect(fragment.sql.allSatisfy { "\"?() =ISNOTANDRname,".contains($0) })
        }
    }
}
