import Foundation
import Testing

@testable import ObjectGraph

@Suite("Predicate parsing")
struct PredicateParserTests {
    private func node(_ format: String, _ arguments: any Sendable...) throws -> PredicateNode {
        try FetchPredicate(format: format, argumentArray: arguments).node
    }

    private func compare(_ key: String, _ comparison: ComparisonOperator, _ value: PredicateValue) -> PredicateNode {
        .comparison(.keyPath([key]), comparison, .value(value))
    }

    @Test(
        "every comparison operator spelling",
        arguments: [
            ("==", ComparisonOperator.equal), ("=", .equal), ("!=", .notEqual), ("<>", .notEqual),
            ("<", .less), ("<=", .lessOrEqual), ("=<", .lessOrEqual),
            (">", .greater), (">=", .greaterOrEqual), ("=>", .greaterOrEqual)
        ])
    func operators(spelling: String, comparison: ComparisonOperator) throws {
        #expect(try node("age \(spelling) 3") == compare("age", comparison, .integer(3)))
        #expect(try node("age\(spelling)3") == compare("age", comparison, .integer(3)))
    }

    @Test func literals() throws {
        #expect(try node("a == nil") == compare("a", .equal, .null))
        #expect(try node("a == NULL") == compare("a", .equal, .null))
        #expect(try node("a == Nil") == compare("a", .equal, .null))
        for (word, value) in [
            ("YES", true), ("yes", true), ("TRUE", true), ("True", true), ("NO", false), ("no", false), ("FALSE", false), ("false", false)
        ] {
            #expect(try node("a == \(word)") == compare("a", .equal, .boolean(value)))
        }
        #expect(try node("a == 42") == compare("a", .equal, .integer(42)))
        #expect(try node("a == -42") == compare("a", .equal, .integer(-42)))
        #expect(try node("a == 0x1F") == compare("a", .equal, .integer(31)))
        #expect(try node("a == -0x10") == compare("a", .equal, .integer(-16)))
        #expect(try node("a == 0o17") == compare("a", .equal, .integer(15)))
        #expect(try node("a == 0b101") == compare("a", .equal, .integer(5)))
        #expect(try node("a == 9223372036854775807") == compare("a", .equal, .integer(.max)))
        #expect(try node("a == -9223372036854775808") == compare("a", .equal, .integer(.min)))
        #expect(try node("a == 0xFFFFFFFFFFFFFFFF") == compare("a", .equal, .double(Double(UInt64.max))))
        #expect(try node("a == 99999999999999999999") == compare("a", .equal, .double(1e20)))
        #expect(try node("a == 1.5") == compare("a", .equal, .double(1.5)))
        #expect(try node("a == -2.5E-4") == compare("a", .equal, .double(-2.5e-4)))
        #expect(try node("a == 1e3") == compare("a", .equal, .double(1000)))
        #expect(try node("a == 1e+20") == compare("a", .equal, .double(1e20)))
        #expect(try node("a == 1e999") == compare("a", .equal, .double(.infinity)))
    }

    @Test func strings() throws {
        #expect(try node("a == 'x'") == compare("a", .equal, .string("x")))
        #expect(try node("a == \"x\"") == compare("a", .equal, .string("x")))
        #expect(try node("a == ''") == compare("a", .equal, .string("")))
        #expect(try node(#"a == 'it\'s'"#) == compare("a", .equal, .string("it's")))
        #expect(try node(#"a == "say \"hi\"""#) == compare("a", .equal, .string("say \"hi\"")))
        #expect(try node(#"a == 'a\\b\n\t\r\0'"#) == compare("a", .equal, .string("a\\b\n\t\r\0")))
        #expect(try node(#"a == '\u00e9\u{1F600}'"#) == compare("a", .equal, .string("é😀")))
        #expect(try node("a == 'double \" inside single'") == compare("a", .equal, .string("double \" inside single")))
        // Inside quotes, specifiers are text and %% is a percent sign.
        #expect(try node("a == '%@ 100%% %d'") == compare("a", .equal, .string("%@ 100% %d")))
        #expect(try node("a == 'naïve — ünïcödé'") == compare("a", .equal, .string("naïve — ünïcödé")))
    }

    @Test func keyPaths() throws {
        #expect(try node("author.name == 'x'") == .comparison(.keyPath(["author", "name"]), .equal, .value(.string("x"))))
        #expect(try node("a.b.c == 1") == .comparison(.keyPath(["a", "b", "c"]), .equal, .value(.integer(1))))
        #expect(try node("_private == 1") == compare("_private", .equal, .integer(1)))
        #expect(try node("#in == 1") == compare("in", .equal, .integer(1)))
        #expect(try node("a.in == 1") == .comparison(.keyPath(["a", "in"]), .equal, .value(.integer(1))))
        #expect(try node("age > minAge") == .comparison(.keyPath(["age"]), .greater, .keyPath(["minAge"])))
        #expect(try node("3 < age") == .comparison(.value(.integer(3)), .less, .keyPath(["age"])))
        // Keywords are not key paths, whatever their case.
        #expect(try node("andy == 1") == compare("andy", .equal, .integer(1)))
    }

    @Test func arguments() throws {
        let date = Date(timeIntervalSinceReferenceDate: 1000)
        let uuid = UUID()
        let url = URL(string: "https://example.com/a?b=c")!
        #expect(try node("a == %@", "x") == compare("a", .equal, .string("x")))
        #expect(try node("a == %@", Substring("x")) == compare("a", .equal, .string("x")))
        #expect(try node("a == %@", 5) == compare("a", .equal, .integer(5)))
        #expect(try node("a == %@", true) == compare("a", .equal, .boolean(true)))
        #expect(try node("a == %@", date) == compare("a", .equal, .date(date)))
        #expect(try node("a == %@", Data([1, 2])) == compare("a", .equal, .data(Data([1, 2]))))
        #expect(try node("a == %@", uuid) == compare("a", .equal, .uuid(uuid)))
        #expect(try node("a == %@", url) == compare("a", .equal, .url(url)))
        #expect(try node("a == %@", Decimal(string: "1.25")!) == compare("a", .equal, .decimal(Decimal(string: "1.25")!)))
        #expect(try node("a == %@", Float(0.5)) == compare("a", .equal, .double(0.5)))
        #expect(try node("a == %@", String?.none) == compare("a", .equal, .null))
        #expect(try node("a == %@", Int?.some(4)) == compare("a", .equal, .integer(4)))
        #expect(try node("a == %@", NSNull()) == compare("a", .equal, .null))
        for integer: any Sendable in [Int8(-3), Int16(-3), Int32(-3), Int64(-3), Int(-3)] {
            #expect(try node("a == %d", integer) == compare("a", .equal, .integer(-3)))
        }
        for integer: any Sendable in [UInt8(3), UInt16(3), UInt32(3), UInt64(3), UInt(3)] {
            #expect(try node("a == %u", integer) == compare("a", .equal, .integer(3)))
        }
        #expect(try node("a == %@", UInt64.max) == compare("a", .equal, .double(Double(UInt64.max))))
        for spelling in ["%d", "%i", "%ld", "%li", "%lld", "%lli", "%u", "%lu", "%llu"] {
            #expect(try node("a == \(spelling)", 7) == compare("a", .equal, .integer(7)))
        }
        #expect(try node("a == %f", 2.5) == compare("a", .equal, .double(2.5)))
        #expect(try node("a == %lf", 2) == compare("a", .equal, .double(2)))
        #expect(try node("a == %s", "s") == compare("a", .equal, .string("s")))
        #expect(try node("%K == %@", "age", 3) == compare("age", .equal, .integer(3)))
        #expect(try node("%K == 1", "author.name") == .comparison(.keyPath(["author", "name"]), .equal, .value(.integer(1))))
        #expect(try node("%K == 1", "in") == compare("in", .equal, .integer(1)))
        #expect(try node("a IN %@", [1, 2]) == .membership(["a"], [.integer(1), .integer(2)]))
        #expect(try node("a IN %@", [String]()) == .membership(["a"], []))
        #expect(try node("a IN %@", ["x", nil] as [String?]) == .membership(["a"], [.string("x"), .null]))
        #expect(try node("a BETWEEN %@", [1, 5]) == .between(["a"], lower: .integer(1), upper: .integer(5)))
        #expect(
            try FetchPredicate(format: "a == %@ AND b == %d", argumentArray: ["x", 2]).node
                == .and([compare("a", .equal, .string("x")), compare("b", .equal, .integer(2))]))
    }

    @Test func listsAndRanges() throws {
        #expect(try node("a IN {1, 2, 3}") == .membership(["a"], [.integer(1), .integer(2), .integer(3)]))
        #expect(try node("a IN {}") == .membership(["a"], []))
        #expect(try node("a in {'x', nil, %@}", 2.5) == .membership(["a"], [.string("x"), .null, .double(2.5)]))
        #expect(try node("a BETWEEN {1, 10}") == .between(["a"], lower: .integer(1), upper: .integer(10)))
        #expect(try node("a between {%@, %@}", 1, 2) == .between(["a"], lower: .integer(1), upper: .integer(2)))
    }

    @Test func logicAndPrecedence() throws {
        let a = compare("a", .equal, .integer(1))
        let b = compare("b", .equal, .integer(2))
        let c = compare("c", .equal, .integer(3))
        #expect(try node("a == 1 AND b == 2 OR c == 3") == .or([.and([a, b]), c]))
        #expect(try node("a == 1 OR b == 2 AND c == 3") == .or([a, .and([b, c])]))
        #expect(try node("a == 1 && b == 2 || c == 3") == .or([.and([a, b]), c]))
        #expect(try node("(a == 1 OR b == 2) AND c == 3") == .and([.or([a, b]), c]))
        #expect(try node("NOT a == 1 AND b == 2") == .and([.not(a), b]))
        #expect(try node("!a == 1 || b == 2") == .or([.not(a), b]))
        #expect(try node("NOT NOT a == 1") == .not(.not(a)))
        #expect(try node("not (a == 1 or b == 2)") == .not(.or([a, b])))
        #expect(try node("a == 1 AND b == 2 AND c == 3") == .and([a, b, c]))
        #expect(try node("((a == 1))") == a)
        #expect(try node("TRUEPREDICATE") == .constant(true))
        #expect(try node("falsepredicate OR a == 1") == .or([.constant(false), a]))
    }

    @Test func composition() throws {
        let a = try FetchPredicate(format: "a == 1")
        let b = try FetchPredicate(format: "b == 2")
        let c = try FetchPredicate(format: "c == 3")
        #expect((a && b && c).node == .and([a.node, b.node, c.node]))
        #expect((a || b || c).node == .or([a.node, b.node, c.node]))
        #expect((!a).node == .not(a.node))
        #expect(FetchPredicate.and([]) == .truePredicate)
        #expect(FetchPredicate.or([]) == .falsePredicate)
        #expect(FetchPredicate.and([a]) == a)
        #expect(FetchPredicate.not(a || b) == (try FetchPredicate(format: "NOT (a == 1 OR b == 2)")))
        #expect(a != b)
    }

    @Test(
        "description renders format syntax that parses back",
        arguments: [
            "age == 3", "name != nil", "age < 3 AND score >= 1.5", "(a == 1 OR b == 2) AND NOT c == 3",
            "a IN {1, 2, nil}", "a BETWEEN {1, 5}", "TRUEPREDICATE", "FALSEPREDICATE", "#in == 1",
            "name == 'it\\'s \"quoted\" 100%% \\n'", "flag == YES", "score > 1e999", "score > -1e999",
            "a.b == -0.5", "NOT NOT a == 1", "(a == 1 AND b == 2) AND c == 3", "x == 1e+20"
        ])
    func descriptionRoundTrip(format: String) throws {
        let predicate = try FetchPredicate(format: format)
        #expect(try FetchPredicate(format: predicate.description) == predicate)
    }

    @Test func descriptionText() throws {
        #expect(try FetchPredicate(format: "age>%d&&name=%@", 3, "Ann").description == "age > 3 AND name == \"Ann\"")
        #expect(try FetchPredicate(format: "a = 1 || b =< 2").description == "a == 1 OR b <= 2")
        #expect(try FetchPredicate(format: "a == %@", "50%").description == "a == \"50%%\"")
        let uuid = UUID()
        #expect(try FetchPredicate(format: "id == %@", uuid).description == "id == \"\(uuid.uuidString)\"")
        #expect(try FetchPredicate(format: "d == %@", Date(timeIntervalSinceReferenceDate: 5)).description == "d == CAST(5.0, \"NSDate\")")
        #expect(try FetchPredicate(format: "b == %@", Data([0x0a, 0xff])).description == "b == <0aff>")
    }
}
