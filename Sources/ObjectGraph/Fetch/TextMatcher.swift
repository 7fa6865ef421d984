import Foundation

/// A string operator of the predicate language: `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`
/// (`*` and `?` wildcards, whole string), `MATCHES` (a regular expression, whole string), and
/// `==`/`!=` when written with options (`==[c]`).
enum TextOperator: String, Sendable, Equatable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    case like = "LIKE"
    case matches = "MATCHES"
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
enum TextMatcher {
    /// Whether `value` matches the pattern under `op` and `options`. `pattern` is the pattern
    /// folded by `fold(_:_:)` (for every operator but MATCHES, whose compiled form is `regex`):
    /// callers that test many values fold it once (`PreparedPattern`).
    static func matches(_ value: String, _ op: TextOperator, _ options: TextOptions, foldedPattern pattern: String, regex: NSRegularExpression?) -> Bool {
        if op == .matches {
            guard let regex else { return false }
            let subject = options.contains(.diacriticInsensitive) ? fold(value, .diacriticInsensitive) : value
            let range = NSRange(subject.startIndex..., in: subject)
            return regex.firstMatch(in: subject, options: [.anchored], range: range).map { $0.range == range } ?? false
        }
        let subject = fold(value, options)
        let target = pattern
        switch op {
        case .equal: return subject == target
        case .notEqual: return subject != target
        case .beginsWith: return subject.hasPrefix(target)
        case .endsWith: return subject.hasSuffix(target)
        case .contains:
            if target.isEmpty { return true }
            if let found = asciiContains(subject, target) { return found }
            return subject.contains(target)
        case .like: return wildcardMatch(Array(subject), Array(target))
        case .matches: return false
        }
    }

    /// `pattern` compiled for MATCHES: the whole string must match; `[c]` makes it
    /// case-insensitive, `[d]` folds diacritics of the pattern (and of each value) first.
    static func regularExpression(_ pattern: String, options: TextOptions) throws -> NSRegularExpression {
        let source = options.contains(.diacriticInsensitive) ? fold(pattern, .diacriticInsensitive) : pattern
        return try NSRegularExpression(pattern: source, options: options.contains(.caseInsensitive) ? [.caseInsensitive] : [])
    }

    /// `string` with case and/or diacritics folded as `options` say (no locale). ASCII text,
    /// the common case, is folded byte by byte, with the same result Foundation gives.
    static func fold(_ string: String, _ options: TextOptions) -> String {
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

    /// Whether ASCII `text` contains ASCII `part`, by bytes; `nil` when either is not ASCII (each
    /// ASCII byte is a character, so bytes and characters agree).
    private static func asciiContains(_ text: String, _ part: String) -> Bool? {
        var text = text, part = part
        return text.withUTF8 { haystack in
            part.withUTF8 { needle -> Bool? in
                guard haystack.allSatisfy({ $0 < 0x80 }), needle.allSatisfy({ $0 < 0x80 }) else { return nil }
                guard needle.count <= haystack.count else { return false }
                for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
                    if memcmp(haystack.baseAddress! + start, needle.baseAddress!, needle.count) == 0 { return true }
                }
                return false
            }
        }
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
/// compiled for MATCHES. Sendable because `NSRegularExpression` is immutable once made and
/// documented as safe to use from several threads at once.
struct PreparedPattern: @unchecked Sendable {
    let folded: String
    let regex: NSRegularExpression?

    init(_ pattern: String, _ op: TextOperator, _ options: TextOptions) throws {
        folded = op == .matches ? pattern : TextMatcher.fold(pattern, options)
        regex = op == .matches ? try TextMatcher.regularExpression(pattern, options: options) : nil
    }
}
