import Foundation
import Testing

@testable import ObjectGraph

/// A small deterministic generator (SplitMix64), so failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Predicate fuzzing")
struct PredicateFuzzTests {
    static let seeds = [
        "age > %d AND name != nil", "(a == 1 OR b <= 2.5) AND NOT c IN {1, 'x', nil}",
        "price BETWEEN {1, 2} || flag == YES", "name == 'it\\'s' && %K != %@", "TRUEPREDICATE",
        "x =< -0x1F OR y => 1e-3", "id IN %@ AND birthday < %@", "name BEGINSWITH 'a'"
    ]
    static let fragments = [
        "(", ")", "{", "}", ",", "==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>", "&&", "||", "!",
        "AND", "OR", "NOT", "IN", "BETWEEN", "nil", "NULL", "YES", "NO", "TRUEPREDICATE", "FALSEPREDICATE",
        "age", "name", "a.b", "#in", "%@", "%K", "%d", "%f", "%s", "%%", "%", "'", "\"", "\\", "'x'",
        "\"y\"", "1", "-2", "0x", "0xFF", "1.5", "1e", "1e9", "-", "@count", "$v", "[", "]", "+", "*",
        "CONTAINS", "ANY", " ", "\n", "é", "😀", "\u{0}", "\u{301}", ".", "#"
    ]
    static let arguments: [any Sendable] = [
        1, "age", "name", 2.5, true, [1, 2], ["a"], Date(timeIntervalSinceReferenceDate: 0), UUID(), Data([1]),
        Int?.none, Decimal(7), URL(string: "https://x.y")!, [Int]()
    ]

    /// Every input yields a predicate or an ObjectGraphError — never a crash or another error.
    /// Predicates that parse also render, bind (or fail to), compile and evaluate without crashing.
    @Test func randomAndMutatedInputs() throws {
        var generator = SeededGenerator(seed: 0x5EED)
        var parsed = 0
        for iteration in 0..<6_000 {
            let format: String
            switch iteration % 4 {
            case 0: format = Self.randomConcatenation(using: &generator)
            case 1: format = Self.mutation(of: Self.seeds.randomElement(using: &generator) ?? "", using: &generator)
            case 2: format = Self.randomScalars(using: &generator)
            default:
                // Well-formed predicates, sometimes slightly damaged, so binding and evaluation
                // get exercised too.
                let valid = Self.randomPredicate(depth: 0, using: &generator)
                format = Int.random(in: 0..<4, using: &generator) == 0 ? Self.mutation(of: valid, using: &generator) : valid
            }
            let arguments: [any Sendable]
            if iteration % 4 == 3 {
                arguments = Self.fittingArguments(for: format, using: &generator)
            } else {
                let count = Int.random(in: 0...4, using: &generator)
                arguments = (0..<count).map { _ in Self.arguments.randomElement(using: &generator) ?? 0 }
            }
            do {
                let predicate = try FetchPredicate(format: format, argumentArray: arguments)
                parsed += 1
                _ = try? FetchPredicate(format: predicate.description)
                if let bound = try? predicate.bind(to: PredicateFixtures.person, in: PredicateFixtures.model) {
                    _ = bound.sqlFragment()
                    _ = bound.evaluate(PredicateFixtures.row([:]))
                }
            } catch is ObjectGraphError {
                continue
            } catch {
                Issue.record("\(format) threw \(error)")
            }
        }
        #expect(parsed > 1_000)
    }

    static let keys = ["name", "age", "score", "birthday", "price", "flag", "id", "homepage", "weight", "big", "minAge", "nope"]
    static let literals = ["nil", "YES", "NO", "0", "-3", "12", "2.5", "-1e3", "0x7FFF", "'Ann'", "\"b\"", "''", "%@", "%d", "%K"]

    /// A syntactically valid predicate over Person-like keys (types not necessarily matching).
    static func randomPredicate(depth: Int, using generator: inout SeededGenerator) -> String {
        let key = keys.randomElement(using: &generator) ?? "age"
        let literal = { (generator: inout SeededGenerator) in literals.randomElement(using: &generator) ?? "1" }
        switch depth > 3 ? 0 : Int.random(in: 0..<7, using: &generator) {
        case 0, 1:
            let comparison = ["==", "!=", "<", "<=", ">", ">=", "=", "<>"].randomElement(using: &generator) ?? "=="
            return "\(key) \(comparison) \(literal(&generator))"
        case 2:
            let count = Int.random(in: 0...3, using: &generator)
            return "\(key) IN {\((0..<count).map { _ in literal(&generator) }.joined(separator: ", "))}"
        case 3:
            return "\(key) BETWEEN {\(literal(&generator)), \(literal(&generator))}"
        case 4:
            return "NOT (\(randomPredicate(depth: depth + 1, using: &generator)))"
        default:
            let joiner = Bool.random(using: &generator) ? " AND " : " OR "
            return "(" + randomPredicate(depth: depth + 1, using: &generator) + joiner
                + randomPredicate(depth: depth + 1, using: &generator) + ")"
        }
    }

    /// One argument per specifier in `format`, of the kind the specifier takes.
    static func fittingArguments(for format: String, using generator: inout SeededGenerator) -> [any Sendable] {
        var arguments: [any Sendable] = []
        var scalars = format.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "%", let specifier = scalars.next() else { continue }
            switch specifier {
            case "K": arguments.append(keys.randomElement(using: &generator) ?? "age")
            case "d": arguments.append(Int.random(in: -100...100, using: &generator))
            default: arguments.append(Self.arguments.randomElement(using: &generator) ?? 0)
            }
        }
        return arguments
    }

    private static func randomConcatenation(using generator: inout SeededGenerator) -> String {
        let count = Int.random(in: 0...12, using: &generator)
        return (0..<count).map { _ in
            (fragments.randomElement(using: &generator) ?? "") + (Bool.random(using: &generator) ? " " : "")
        }.joined()
    }

    private static func mutation(of seed: String, using generator: inout SeededGenerator) -> String {
        var scalars = Array(seed.unicodeScalars)
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            let position = Int.random(in: 0...scalars.count, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0 where position < scalars.count:
                scalars.remove(at: position)
            case 1:
                let fragment = fragments.randomElement(using: &generator) ?? ""
                scalars.insert(contentsOf: fragment.unicodeScalars, at: position)
            default:
                if position < scalars.count, let other = scalars.randomElement(using: &generator) { scalars[position] = other }
            }
        }
        return String(String.UnicodeScalarView(scalars))
    }

    private static func randomScalars(using generator: inout SeededGenerator) -> String {
        let count = Int.random(in: 0...20, using: &generator)
        var view = String.UnicodeScalarView()
        for _ in 0..<count {
            let value =
                Bool.random(using: &generator)
                ? UInt32.random(in: 0...127, using: &generator)
                : UInt32.random(in: 0...0x1FFFF, using: &generator)
            view.append(Unicode.Scalar(value) ?? "?")
        }
        return String(view)
    }
}
