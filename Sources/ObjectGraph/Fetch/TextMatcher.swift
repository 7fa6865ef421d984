import Foundation
import Synchronization

/// A string operator of the predicate language: `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`
/// (`*` and `?` wildcards, whole string), `MATCHES` (a regular expression, whole string), and
/// `==`/`!=` when written with options (`==[c]`).
package enum TextOperator: String, Sendable, Equatable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    case like = "LIKE"
    case matches = "MATCHES"

    /// The operator as a small integer, which is how SQL passes it to `objectgraph_text`: a
    /// number is read per row for free, where a name would have to be parsed.
    var code: Int64 { Int64(Self.allCases.firstIndex(of: self)!) }

    /// The operator with this `code`.
    init?(code: Int64) {
        guard code >= 0 && code < Int64(Self.allCases.count) else { return nil }
        self = Self.allCases[Int(code)]
    }
}

/// The `[c]`, `[d]` and `[cd]` options of a string comparison.
public struct TextOptions: OptionSet, Sendable, Hashable {
    /// The options as bits.
    public let rawValue: Int
    /// Options from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `[c]`: letters compare without regard to case.
    public static let caseInsensitive = TextOptions(rawValue: 1)
    /// `[d]`: letters compare without regard to diacritics (é is e).
    public static let diacriticInsensitive = TextOptions(rawValue: 2)

    /// `[c]`, `[d]`, `[cd]` or the empty string.
    var spelling: String {
        let letters = (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "")
        return letters.isEmpty ? "" : "[\(letters)]"
    }
}

/// The one implementation of the string operators, used by the in-memory evaluator and, as an
/// SQL function, by the SQLite store, so both give the same answer on every string. Strings
/// compare as Swift strings (by characters, canonically equivalent forms equal); options fold
/// case and diacritics first, locale-independently.
///
/// An ASCII value against an ASCII (folded) pattern is matched by bytes, with the result the
/// Swift comparison gives: every ASCII string is in normal form and folds byte by byte, and
/// Swift's `==`, `hasPrefix` and `hasSuffix` compare such strings by their bytes. LIKE and
/// MATCHES always go through characters.
package enum TextMatcher {
    /// Whether `value` matches `pattern` under `op` and `options`.
    static func matches(_ value: String, _ op: TextOperator, _ options: TextOptions, _ pattern: PreparedPattern) -> Bool {
        if let answer = value.utf8.withContiguousStorageIfAvailable({ asciiMatches($0, op, options, pattern) }) ?? nil {
            return answer
        }
        return characterMatches(value, op, options, pattern)
    }

    /// Whether the UTF-8 text `value` matches; a Swift string is made only when it is not ASCII
    /// (SQLite hands the function its values this way).
    static func matches(
        utf8 value: UnsafeBufferPointer<UInt8>, _ op: TextOperator, _ options: TextOptions, _ pattern: PreparedPattern
    ) -> Bool {
        asciiMatches(value, op, options, pattern) ?? characterMatches(String(decoding: value, as: UTF8.self), op, options, pattern)
    }

    /// The comparison by characters, after folding `value` as `options` say.
    private static func characterMatches(_ value: String, _ op: TextOperator, _ options: TextOptions, _ pattern: PreparedPattern) -> Bool {
        if op == .matches {
            guard let regex = pattern.regex else { return false }
            let subject = options.contains(.diacriticInsensitive) ? fold(value, .diacriticInsensitive) : value
            let range = NSRange(subject.startIndex..., in: subject)
            // A pattern such as `(a+)+$` takes time doubling with each character of some values:
            // the engine reports progress every so many steps, and after `matchProgressBudget`
            // reports the match is abandoned and the pattern marked, so the fetch fails with an
            // error instead of running for hours. Counted in steps, not seconds, so every machine
            // gives up on the same values.
            var matched = false
            var progressReports = 0
            regex.enumerateMatches(in: subject, options: [.anchored, .reportProgress], range: range) { match, _, stop in
                if let match {
                    matched = match.range == range
                    stop.pointee = true
                } else {
                    progressReports += 1
                    if progressReports > matchProgressBudget {
                        pattern.giveUp()
                        stop.pointee = true
                    }
                }
            }
            return matched
        }
        let subject = fold(value, options)
        let target = pattern.folded
        switch op {
        case .equal: return subject == target
        case .notEqual: return subject != target
        case .beginsWith: return subject.hasPrefix(target)
        case .endsWith: return subject.hasSuffix(target)
        case .contains:
            if target.isEmpty { return true }
            // A value that folding made ASCII (Ö to o) is searched by bytes too.
            if let found = subject.utf8.withContiguousStorageIfAvailable({ asciiMatches($0, .contains, [], pattern) }) ?? nil {
                return found
            }
            return characterContains(Array(subject), Array(target))
        case .like: return wildcardMatch(Array(subject), Array(target))
        case .matches: return false
        }
    }

    /// The answer by bytes when `value` and the folded pattern are both ASCII and `op` compares
    /// them as bytes; `nil` otherwise. `[c]` folds A–Z to a–z as it goes (the pattern is folded
    /// already); `[d]` changes nothing in ASCII.
    @inline(__always)
    private static func asciiMatches(
        _ value: UnsafeBufferPointer<UInt8>, _ op: TextOperator, _ options: TextOptions, _ pattern: PreparedPattern
    ) -> Bool? {
        guard let needle = pattern.asciiFolded, value.isASCII else { return nil }
        let folds = options.contains(.caseInsensitive)
        return needle.withUnsafeBufferPointer { needle -> Bool? in
            switch op {
            case .equal: return value.count == needle.count && bytesEqual(value, 0, needle, folds)
            case .notEqual: return !(value.count == needle.count && bytesEqual(value, 0, needle, folds))
            case .beginsWith: return value.count >= needle.count && bytesEqual(value, 0, needle, folds)
            case .endsWith: return value.count >= needle.count && bytesEqual(value, value.count - needle.count, needle, folds)
            case .contains: return contains(value, needle, folds)
            case .like, .matches: return nil
            }
        }
    }

    /// `byte`, with A–Z folded to a–z when `folds`.
    @inline(__always)
    private static func folded(_ byte: UInt8, _ folds: Bool) -> UInt8 {
        folds && byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    /// Whether `value` from `start` begins with `needle` (which fits).
    @inline(__always)
    private static func bytesEqual(
        _ value: UnsafeBufferPointer<UInt8>, _ start: Int, _ needle: UnsafeBufferPointer<UInt8>, _ folds: Bool
    ) -> Bool {
        var index = 0
        while index < needle.count {
            guard folded(value[start + index], folds) == needle[index] else { return false }
            index += 1
        }
        return true
    }

    /// Whether `needle` occurs in `value`: each place where its first byte occurs is compared.
    @inline(__always)
    private static func contains(_ value: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>, _ folds: Bool) -> Bool {
        guard let first = needle.first else { return true }
        guard needle.count <= value.count else { return false }
        for start in 0...(value.count - needle.count) where folded(value[start], folds) == first {
            if bytesEqual(value, start, needle, folds) { return true }
        }
        return false
    }

    /// How many progress reports of the regular expression engine (one per some ten thousand
    /// steps of ICU's engine, about 0.15 ms here) one MATCHES test of one value may take.
    static let matchProgressBudget = 1_000

    /// What a fetch says when MATCHES gave up on a value.
    static func abandonedMatchMessage(_ pattern: String) -> String {
        "MATCHES '\(pattern)' gave up on a value after about ten million steps of the regular expression engine: the pattern backtracks without end on some values (nested repetition such as (a+)+ does); rewrite it so each character can be matched only one way"
    }

    /// `pattern` compiled for MATCHES: the whole string must match; `[c]` makes it
    /// case-insensitive, `[d]` folds diacritics of the pattern (and of each value) first.
    static func regularExpression(_ pattern: String, options: TextOptions) throws -> NSRegularExpression {
        let source = options.contains(.diacriticInsensitive) ? fold(pattern, .diacriticInsensitive) : pattern
        return try NSRegularExpression(pattern: source, options: options.contains(.caseInsensitive) ? [.caseInsensitive] : [])
    }

    /// `string` with case and/or diacritics folded as `options` say (no locale). ASCII text,
    /// the common case, is folded byte by byte, with the same result Foundation gives.
    package static func fold(_ string: String, _ options: TextOptions) -> String {
        guard !options.isEmpty else { return string }
        if string.utf8.allSatisfy({ $0 < 0x80 }) {
            guard options.contains(.caseInsensitive) else { return string }
            return String(decoding: string.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
        }
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return folding.isEmpty ? string : string.folding(options: folding, locale: nil)
    }

    /// Whether `part` occurs in `text` as a run of whole characters. (Foundation's `contains`
    /// ends a pattern at a NUL, and then can trap on a range past the end of the value.)
    private static func characterContains(_ text: [Character], _ part: [Character]) -> Bool {
        guard let first = part.first else { return true }
        guard part.count <= text.count else { return false }
        for start in 0...(text.count - part.count) where text[start] == first {
            if text[start..<(start + part.count)].elementsEqual(part) { return true }
        }
        return false
    }

    /// LIKE: `*` matches any run of characters, `?` any one character, everything else itself;
    /// the whole string must match. Iterative, with one backtrack point per `*` (linear in
    /// practice, never exponential).
    private static func wildcardMatch(_ text: [Character], _ pattern: [Character]) -> Bool {
        var t = 0, p = 0
        var starP: Int?, starT = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "?" || (pattern[p] != "*" && pattern[p] == text[t]) {
                t += 1
                p += 1
            } else if p < pattern.count, pattern[p] == "*" {
                starP = p
                starT = t
                p += 1
            } else if let star = starP {
                p = star + 1
                starT += 1
                t = starT
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}

/// A string comparison's pattern prepared once for many values: folded as its options say, or
/// compiled for MATCHES. A class, so the SQL function hands it from row to row as one borrowed
/// reference rather than copying (and retaining) each of its parts per row. Sendable because
/// it is immutable and `NSRegularExpression` is immutable once made and documented as safe to
/// use from several threads at once.
package final class PreparedPattern: @unchecked Sendable {
    let folded: String
    let regex: NSRegularExpression?
    /// The bytes of `folded` when it is ASCII, for matching ASCII values by bytes.
    let asciiFolded: [UInt8]?
    /// Set when a MATCHES test ran out of its budget (see `TextMatcher.matchProgressBudget`).
    private let abandoned = Atomic<Bool>(false)

    /// Whether a MATCHES test with this pattern gave up on a value.
    var gaveUp: Bool { abandoned.load(ordering: .relaxed) }

    func giveUp() { abandoned.store(true, ordering: .relaxed) }

    init(_ pattern: String, _ op: TextOperator, _ options: TextOptions) throws {
        folded = op == .matches ? pattern : TextMatcher.fold(pattern, options)
        regex = op == .matches ? try TextMatcher.regularExpression(pattern, options: options) : nil
        asciiFolded = op != .matches && folded.utf8.allSatisfy({ $0 < 0x80 }) ? Array(folded.utf8) : nil
    }
}
