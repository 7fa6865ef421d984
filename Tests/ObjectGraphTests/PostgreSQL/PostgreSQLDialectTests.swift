import Foundation
import Testing

@testable import ObjectGraph
@testable import ObjectGraphPostgres

/// The predicate compiler in PostgreSQL's dialect: the same SQL as SQLite's but for the words
/// the dialect changes (numbered parameters, truth, null-safe equality, doubles, text functions,
/// NULL order, byte collation).
@Suite("Predicate SQL in PostgreSQL's dialect")
struct PostgreSQLDialectTests {
    private func fragment(_ format: String, _ arguments: any Sendable..., from first: Int = 1) throws -> SQLFragment {
        try FetchPredicate(format: format, argumentArray: arguments).bind(to: PredicateFixtures.person, in: PredicateFixtures.model)
            .sqlFragment(in: PostgreSQLDialect(), firstParameter: first)
    }

    @Test func representativePredicates() throws {
        let cases: [(SQLFragment, String, [AttributeValue])] = [
            (try fragment("age > %d AND name != nil", 30), #"("age" > $1 AND "name" IS DISTINCT FROM $2)"#, [.integer(30), .null]),
            (try fragment("name == 'Ann'", from: 3), #""name" IS NOT DISTINCT FROM $3"#, [.string("Ann")]),
            (try fragment("age IN {1, 2, nil}"), #""age" IN ($1, $2, $3)"#, [.integer(1), .integer(2), .null]),
            (try fragment("age IN {}"), "FALSE", []),
            (try fragment("TRUEPREDICATE"), "TRUE", []),
            (try fragment("price < 2.5"), #"CAST("price" AS double precision) < $1"#, [.double(2.5)]),
            (
                try fragment("name CONTAINS[cd] 'é'"), #"objectgraph_text("name", $1, $2, $3)"#,
                [.integer(TextOperator.contains.code), .integer(3), .string("é")]
            )
        ]
        for (fragment, sql, bindings) in cases {
            #expect(fragment.sql == sql)
            #expect(fragment.bindings == bindings, "\(sql)")
        }
        // A long list stays a list of parameters: PostgreSQL takes 65,535.
        let long = try fragment("age IN %@", Array(1...600))
        #expect(long.sql.hasSuffix("$599, $600)"))
        #expect(long.bindings.count == 600)
    }

    @Test func sortTermsPutNullsWhereSQLiteDoesAndCompareBytes() throws {
        func term(_ key: String, ascending: Bool = true, _ comparison: SortComparison = .binary) throws -> String {
            try FetchSortDescriptor(key: key, ascending: ascending, comparison: comparison).bind(
                to: PredicateFixtures.person, in: PredicateFixtures.model
            )
            .orderingTerm(in: PostgreSQLDialect())
        }
        #expect(try term("age") == #""age" ASC NULLS FIRST"#)
        #expect(try term("name", ascending: false) == #""name" COLLATE "C" DESC NULLS LAST"#)
        #expect(try term("name", .caseInsensitive) == #"objectgraph_fold("name", 1) COLLATE "C" ASC NULLS FIRST"#)
    }
}
