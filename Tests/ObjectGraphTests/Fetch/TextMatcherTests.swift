import Foundation
import Testing

@testable import ObjectGraph

/// ASCII values are matched by bytes (straight from SQLite's buffer, or from a Swift string's);
/// the answer must be the one the comparison of folded Swift strings gives, for every operator
/// that takes the byte path and every option, and non-ASCII values must still go through it.
@Suite struct TextMatcherTests {
    static let values = [
        "", "a", "A", "o", "ob", "OB", "Bob", "bOB", "Obadiah", "Jacob", "xoBy", "oob", "obob", "@[`{", "a\0b", "a\r\nb",
        // Not ASCII: folding decides.
        "ÖB", "Öbert", "jÖb", "Straße", "STRASSE", "Jo\u{308}b", "jöb", "e\u{301}", "é", "😀ob", "ob😀"
    ]
    static let patterns = ["", "ob", "OB", "o", "b", "Bob", "obadiah", "@[", "`{", "a\0", "\r", "ö", "Ö", "ß", "ss", "é", "e"]
    static let optionSets: [TextOptions] = [[], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]]

    /// The reference: both strings folded with `TextMatcher.fold`, then compared as whole
    /// strings, by their UTF-8 bytes when both are ASCII (so "\r\n" is two there) and by
    /// characters otherwise.
    private static func reference(_ value: String, _ op: TextOperator, _ options: TextOptions, _ pattern: String) -> Bool {
        let subject = TextMatcher.fold(value, options)
        let target = TextMatcher.fold(pattern, options)
        if subject.utf8.allSatisfy({ $0 < 0x80 }) && target.utf8.allSatisfy({ $0 < 0x80 }) {
            return compare(Array(subject.utf8), op, Array(target.utf8))
        }
        return compare(Array(subject), op, Array(target))
    }

    private static func compare<T: Equatable>(_ subject: [T], _ op: TextOperator, _ target: [T]) -> Bool {
        switch op {
        case .equal: return subject == target
        case .notEqual: return subject != target
        case .beginsWith: return subject.starts(with: target)
        case .endsWith: return subject.reversed().starts(with: target.reversed())
        case .contains: return target.isEmpty || subject.indices.contains { subject[$0...].starts(with: target) }
        case .like, .matches:
            Issue.record("no byte path for \(op)")
            return false
        }
    }

    @Test func bytesAndCharactersAgree() throws {
        var compared = 0
        for op in [TextOperator.equal, .notEqual, .beginsWith, .endsWith, .contains] {
            for options in Self.optionSets {
                for pattern in Self.patterns {
                    let prepared = try PreparedPattern(pattern, op, options)
                    for value in Self.values {
                        let expected = Self.reference(value, op, options, pattern)
                        let label = "\(value.debugDescription) \(op.rawValue)\(options.spelling) \(pattern.debugDescription)"
                        #expect(TextMatcher.matches(value, op, options, prepared) == expected, "\(label)")
                        var bytes = value
                        #expect(bytes.withUTF8 { TextMatcher.matches(utf8: $0, op, options, prepared) } == expected, "\(label), from UTF-8")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared == 5 * 4 * Self.patterns.count * Self.values.count)
    }

    @Test func foldingDecidesForValuesThatAreNotASCII() throws {
        func matches(_ value: String, _ op: TextOperator, _ options: TextOptions, _ pattern: String) throws -> Bool {
            var bytes = value
            return try bytes.withUTF8 { TextMatcher.matches(utf8: $0, op, options, try PreparedPattern(pattern, op, options)) }
        }
        #expect(try matches("ÖBERG", .contains, [.caseInsensitive, .diacriticInsensitive], "ob"))
        #expect(try !matches("ÖBERG", .contains, .caseInsensitive, "ob"), "[c] keeps the diaeresis")
        #expect(try matches("Jo\u{308}b", .contains, [.caseInsensitive, .diacriticInsensitive], "OB"), "a combining mark folds away")
        #expect(try !matches("Jo\u{308}b", .contains, [], "ob"), "o + U+0308 is one character, ö")
        #expect(try matches("Jo\u{308}b", .equal, [], "Jöb"), "canonically equivalent forms are equal")
        #expect(try matches("Straße", .beginsWith, [.caseInsensitive, .diacriticInsensitive], "STRA"))
        #expect(try matches("Straße", .contains, .caseInsensitive, "ß"))
        #expect(try matches("😀ob", .endsWith, [], "ob"))
    }

    @Test func aNulIsACharacterLikeAnyOther() throws {
        let prepared = try PreparedPattern("a\0", .contains, [])
        #expect(!TextMatcher.matches("a", .contains, [], prepared))
        #expect(TextMatcher.matches("ba\0", .contains, [], prepared))
        #expect(!TextMatcher.matches("é a", .contains, [], prepared), "no match past the end of the value")
        #expect(TextMatcher.matches("é a\0", .contains, [], prepared))
    }

    @Test func operatorCodesRoundTrip() {
        for op in TextOperator.allCases { #expect(TextOperator(code: op.code) == op) }
        #expect(TextOperator(code: -1) == nil)
        #expect(TextOperator(code: Int64(TextOperator.allCases.count)) == nil)
    }
}
