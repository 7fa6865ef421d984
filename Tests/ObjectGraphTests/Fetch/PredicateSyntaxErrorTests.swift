import Foundation
import Testing

@testable import ObjectGraph

@Suite("Predicate syntax errors")
struct PredicateSyntaxErrorTests {
    /// A Sendable type predicates do not support.
    struct Opaque: Sendable {}

    /// Malformed formats, the column the error points at, and what the message must say.
    static let catalogue: [(format: String, column: Int, says: String)] = [
        ("age >> 3", 6, "expected a value or key after '>' but found '>'"),
        ("age >", 6, "expected a value or key after '>' but found the end of the predicate"),
        ("", 1, "expected a predicate but the format is empty"),
        ("   ", 4, "expected a predicate but the format is empty"),
        ("name == 'abc", 9, "unterminated string"),
        ("name == \"abc", 9, "unterminated string"),
        ("name == 'abc\\", 13, "unterminated string"),
        ("(age == 3", 1, "'(' is never closed"),
        ("((age == 3)", 1, "'(' is never closed"),
        ("(age == 3 name", 11, "expected ')' to close the '(' at column 1, AND or OR but found 'name'"),
        ("age == 3)", 9, "unexpected ')' without a matching '('"),
        ("age == 3 name == 4", 10, "expected AND, OR or the end of the predicate but found 'name'"),
        ("age == 3 AND", 13, "expected a comparison, '(', NOT, TRUEPREDICATE or FALSEPREDICATE but found the end of the predicate"),
        ("AND age == 3", 1, "expected a comparison, '(', NOT, TRUEPREDICATE or FALSEPREDICATE but found 'AND'"),
        ("()", 2, "expected a comparison"),
        (
            "flag", 5,
            "expected a comparison operator (==, !=, <, <=, >, >=, IN, BETWEEN, BEGINSWITH, ENDSWITH, CONTAINS, LIKE or MATCHES) after 'flag'"
        ),
        ("name CONTAINS", 14, "expected a value after 'CONTAINS'"),
        ("name CONTAINS[x] 'a'", 15, "unknown comparison option 'x' in '[…]', expected [c], [d] or [cd]"),
        ("name CONTAINS[] 'a'", 14, "expected comparison options [c], [d] or [cd]"),
        ("name < [c] 'a'", 8, "options like [c] apply to ==, != and the string operators, not to '<'"),
        ("'a' CONTAINS name", 1, "the left side of CONTAINS must be a key, not a value"),
        ("name BEGINSWITH[cd] other", 21, "the right side of BEGINSWITH[cd] must be a value, not a key"),
        ("flag", 5, "a Boolean key is tested with 'flag == YES'"),
        // NSPredicate has no infix NOT; the message says how to write it, not how to test a Boolean.
        ("name NOT IN {'a'}", 6, "NOT cannot follow 'name': negate the whole comparison, as in NOT (name IN {…})"),
        ("age == ", 8, "expected a value or key after '=='"),
        ("3 == 4", 1, "a comparison needs a key on at least one side"),
        ("age = = 3", 7, "expected a value or key after '='"),
        ("age & 3", 5, "a single '&' is not an operator"),
        ("age == 3 | b == 1", 10, "a single '|' is not an operator"),
        ("age ^ 3", 5, "unexpected character '^'"),
        ("age == 3 ;", 10, "unexpected character ';'"),
        ("age == 12abc", 8, "malformed number '12a'"),
        ("age == 1.", 8, "malformed number"),
        ("age == 1e", 8, "expected digits in the exponent"),
        ("age == 0x", 8, "malformed number"),
        ("age == 0xZZ", 8, "malformed number"),
        ("age == 0x1FFFFFFFFFFFFFFFF", 8, "malformed number"),
        ("name == 'a\\qb'", 11, "unknown escape sequence '\\q'"),
        ("name == '\\u12'", 10, "invalid Unicode escape"),
        ("name == '\\u{D800}'", 10, "invalid Unicode escape"),
        ("author. == 1", 8, "expected a key after '.'"),
        ("# == 1", 1, "expected a key after '#'"),
        ("age == %x", 8, "unknown format specifier '%x'"),
        ("age == %", 8, "unknown format specifier '%' at the end"),
        ("age == %%", 8, "'%%' (a literal percent sign) can only appear inside a quoted string"),
        ("age == %@", 8, "'%@' has no argument: the predicate uses at least 1 but 0 were given"),
        ("age IN 3", 8, "expected '{' or an array argument (%@) after IN but found '3'"),
        ("age IN {1, 2", 8, "'{' is never closed"),
        ("age IN {1 2}", 11, "expected ',' or '}' in the list that starts at column 8 but found '2'"),
        ("age IN {1, }", 12, "expected a value in the list but found '}'"),
        ("age IN {minAge}", 9, "a list holds values, not keys such as 'minAge'"),
        ("age BETWEEN {1}", 13, "BETWEEN needs exactly two values {lower, upper} but found 1"),
        ("age BETWEEN {1, 2, 3}", 13, "BETWEEN needs exactly two values {lower, upper} but found 3"),
        ("3 IN {1}", 6, "expected a to-many key path after '3 IN' (a value IN a collection: %@ IN books, 'x' IN tags.name) but found '{'"),
        ("'a' BETWEEN {1, 2}", 1, "the left side of BETWEEN must be a key"),
        ("age == {1}", 8, "expected a value or key after '==' but found '{'")
    ]

    @Test(arguments: catalogue)
    func malformed(format: String, column: Int, says: String) {
        let error = PredicateFixtures.error { _ = try FetchPredicate(format: format) }
        #expect(error?.kind == .predicateSyntax)
        #expect(error?.message.hasPrefix("at column \(column): ") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(says) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("(predicate: \(format))") == true)
    }

    /// NSPredicate syntax of later versions: reported at its column, never read as a key.
    static let unsupported: [(format: String, column: Int, word: String)] = [
        ("FUNCTION(age, 'abs') > 0", 1, "FUNCTION"),
        ("FIRST == %@", 1, "FIRST"),
        ("@sum.x > 2", 1, "@sum"),
        ("age + 1 > 2", 5, "+"),
        ("age > 2 * 3", 9, "*"),
        ("age > - 3", 7, "-"),
        ("age == 1 AND tags.@first > 'x'", 19, "@first"),
        ("age IN {1, SIZE}", 12, "SIZE")
    ]

    @Test(arguments: unsupported)
    func notSupportedYet(format: String, column: Int, word: String) {
        let error = PredicateFixtures.error { _ = try FetchPredicate(format: format, "x") }
        #expect(error?.kind == .predicateSyntax)
        #expect(error?.message.hasPrefix("at column \(column): '\(word)' is not supported yet") == true, "\(error?.message ?? "")")
    }

    @Test func errorsComeInTextOrder() {
        let error = PredicateFixtures.error { _ = try FetchPredicate(format: "age >> 3 AND title == 'a") }
        #expect(error?.message.hasPrefix("at column 6:") == true)
    }

    @Test func argumentErrors() {
        var error = PredicateFixtures.error { _ = try FetchPredicate(format: "age == %@ AND b == %@", 1) }
        #expect(error?.kind == .predicateSyntax)
        #expect(error?.message.hasPrefix("at column 20: '%@' has no argument: the predicate uses at least 2 but 1 were given") == true)

        error = PredicateFixtures.error { _ = try FetchPredicate(format: "age == %@", 1, 2) }
        #expect(error?.kind == .predicateSyntax)
        #expect(error?.message.hasPrefix("2 arguments were given but the predicate uses only 1") == true)

        error = PredicateFixtures.error { _ = try FetchPredicate(format: "age == 1", 2) }
        #expect(error?.message.hasPrefix("1 arguments were given but the predicate uses only 0") == true)

        error = PredicateFixtures.error { _ = try FetchPredicate(format: "age == %@", Opaque()) }
        #expect(error?.kind == .typeMismatch)
        #expect(error?.message.hasPrefix("at column 8: argument 1 has type Opaque, which a predicate cannot use") == true)

        error = PredicateFixtures.error { _ = try FetchPredicate(format: "age == %d", 2.5) }
        #expect(error?.message.hasPrefix("at column 8: argument 1 is Double but %d expects an integer") == true)

        error = PredicateFixtures.error { _ = try FetchPredicate(format: "age == %s", 2) }
        #expect(error?.message.hasPrefix("at column 8: argument 1 is Int but %s expects a string") == true)

        error = PredicateFixtures.error { _ = try FetchPredicate(format: "age == %ld", Int?.none) }
        #expect(error?.message.hasPrefix("at column 8: argument 1 is nil but %ld expects an integer") == true)

        error = PredicateFixtures.error { _ = try FetchPredicate(format: "age == %@", [1, 2]) }
        #expect(error?.kind == .typeMismatch)
        #expect(error?.message.hasPrefix("at column 8: argument 1 is an array; arrays may only follow IN or BETWEEN") == true)

        error = PredicateFixtures.error { _ = try FetchPredicate(format: "age IN %@", 3) }
        #expect(error?.message.hasPrefix("at column 8: argument 1 is Int but IN needs an array or a set") == true)

        error = PredicateFixtures.error { _ = try FetchPredicate(format: "age BETWEEN %@", Set([1, 2])) }
        #expect(error?.message.hasPrefix("at column 13: argument 1 is Set<Int> but BETWEEN needs an array") == true)

        error = PredicateFixtures.error { _ = try FetchPredicate(format: "age BETWEEN[c] {1, 2}") }
        #expect(
            error?.message.hasPrefix("at column 12: options like [c] apply to ==, !=, IN and the string operators, not to BETWEEN") == true)

        error = PredicateFixtures.error { _ = try FetchPredicate(format: "name IN[c] $names") }
        #expect(error?.message.hasPrefix("at column 12: IN[c] takes a list {…} or an array argument, not a substitution variable") == true)

        error = PredicateFixtures.error { _ = try FetchPredicate(format: "age IN %@", [[1]]) }
        #expect(error?.message.contains("an array of arrays") == true)

        error = PredicateFixtures.error { _ = try FetchPredicate(format: "age IN %@", [Opaque()]) }
        #expect(error?.message.contains("has type Opaque") == true)

        error = PredicateFixtures.error { _ = try FetchPredicate(format: "age IN %d", 3) }
        #expect(error?.message.hasPrefix("at column 8: expected '{' or an array argument (%@) after IN but found '%d'") == true)

        error = PredicateFixtures.error { _ = try FetchPredicate(format: "age BETWEEN %@", [1, 2, 3]) }
        #expect(error?.message.hasPrefix("at column 13: BETWEEN needs exactly two values") == true)

        error = PredicateFixtures.error { _ = try FetchPredicate(format: "%K == 1", 5) }
        #expect(error?.message.hasPrefix("at column 1: argument 1 is Int but %K expects a key path string") == true)

        error = PredicateFixtures.error { _ = try FetchPredicate(format: "%K == 1", "a..b") }
        #expect(error?.kind == .unknownKey)
        #expect(error?.message.contains("\"a..b\", which is not a key path") == true)
    }

    @Test func nanIsRefused() {
        for nan: any Sendable in [Double.nan, Float.nan, Decimal.nan] {
            let error = PredicateFixtures.error { _ = try FetchPredicate(format: "score > %@", nan) }
            #expect(error?.kind == .typeMismatch)
            #expect(error?.message.contains("argument 1 is NaN") == true)
        }
        let error = PredicateFixtures.error { _ = try FetchPredicate(format: "score IN %@", [1, Double.nan]) }
        #expect(error?.message.contains("NaN") == true)
    }

    @Test func nestingIsCapped() throws {
        let depth = PredicateParser.maximumDepth
        let deepest = String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth)
        _ = try FetchPredicate(format: deepest)
        _ = try FetchPredicate(format: String(repeating: "NOT ", count: depth) + "a == 1")

        let tooDeep = "(" + deepest + ")"
        var error = PredicateFixtures.error { _ = try FetchPredicate(format: tooDeep) }
        #expect(
            error?.message.hasPrefix("at column \(depth + 1): the predicate nests parentheses and NOTs more than \(depth) levels deep")
                == true)

        error = PredicateFixtures.error { _ = try FetchPredicate(format: String(repeating: "(", count: 100_000)) }
        #expect(error?.kind == .predicateSyntax)
        error = PredicateFixtures.error { _ = try FetchPredicate(format: String(repeating: "!", count: 100_000) + "a == 1") }
        #expect(error?.kind == .predicateSyntax)
        // Long flat chains are not nesting.
        _ = try FetchPredicate(format: Array(repeating: "a == 1", count: 5_000).joined(separator: " OR "))
    }
}
