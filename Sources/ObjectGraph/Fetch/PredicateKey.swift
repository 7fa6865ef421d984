import Foundation

/// A key (or key path) of a predicate built in code, compared with operators and methods:
///
/// ```swift
/// let title = PredicateKey("title"), pages = PredicateKey("pageCount")
/// request.predicate = pages > 250 && title.contains("dune", options: .caseInsensitive)
/// request.predicate = .any(PredicateKey("tags.name") == "classic")
/// ```
///
/// It builds the same predicate as the equivalent format string (the two compare equal). Values
/// are converted as `%@` arguments are; one a predicate cannot use (NaN, an unsupported type)
/// makes the fetch throw `.typeMismatch`.
public struct PredicateKey: Sendable, Hashable {
    /// The key path, components separated by dots (`author.name`, `books.@count`).
    public let path: String

    /// The key or key path `path`.
    public init(_ path: String) {
        self.path = path
    }

    var components: [String] { path.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }

    /// `key == value` (nil-safe: `key == nil` matches nil).
    public static func == (key: PredicateKey, value: Any?) -> FetchPredicate { key.compare(.equal, value) }
    /// `key != value`.
    public static func != (key: PredicateKey, value: Any?) -> FetchPredicate { key.compare(.notEqual, value) }
    /// `key < value`.
    public static func < (key: PredicateKey, value: Any?) -> FetchPredicate { key.compare(.less, value) }
    /// `key <= value`.
    public static func <= (key: PredicateKey, value: Any?) -> FetchPredicate { key.compare(.lessOrEqual, value) }
    /// `key > value`.
    public static func > (key: PredicateKey, value: Any?) -> FetchPredicate { key.compare(.greater, value) }
    /// `key >= value`.
    public static func >= (key: PredicateKey, value: Any?) -> FetchPredicate { key.compare(.greaterOrEqual, value) }

    /// `key == other` between two keys (`minAge == maxAge`).
    public static func == (key: PredicateKey, other: PredicateKey) -> FetchPredicate { key.compare(.equal, other) }
    /// `key != other` between two keys.
    public static func != (key: PredicateKey, other: PredicateKey) -> FetchPredicate { key.compare(.notEqual, other) }
    /// `key < other` between two keys.
    public static func < (key: PredicateKey, other: PredicateKey) -> FetchPredicate { key.compare(.less, other) }
    /// `key <= other` between two keys.
    public static func <= (key: PredicateKey, other: PredicateKey) -> FetchPredicate { key.compare(.lessOrEqual, other) }
    /// `key > other` between two keys.
    public static func > (key: PredicateKey, other: PredicateKey) -> FetchPredicate { key.compare(.greater, other) }
    /// `key >= other` between two keys.
    public static func >= (key: PredicateKey, other: PredicateKey) -> FetchPredicate { key.compare(.greaterOrEqual, other) }

    /// `key IN {values…}`.
    public func `in`(_ values: [Any?]) -> FetchPredicate {
        build { .membership(components, try values.map { try value($0) }) }
    }

    /// `key BETWEEN {lower, upper}`, inclusive.
    public func between(_ lower: Any, and upper: Any) -> FetchPredicate {
        build { .between(components, lower: try value(lower), upper: try value(upper)) }
    }

    /// `key BEGINSWITH[options] prefix`.
    public func beginsWith(_ prefix: String, options: TextOptions = []) -> FetchPredicate { text(.beginsWith, prefix, options) }
    /// `key ENDSWITH[options] suffix`.
    public func endsWith(_ suffix: String, options: TextOptions = []) -> FetchPredicate { text(.endsWith, suffix, options) }
    /// `key CONTAINS[options] part`.
    public func contains(_ part: String, options: TextOptions = []) -> FetchPredicate { text(.contains, part, options) }
    /// `key LIKE[options] pattern`, with `*` and `?` wildcards.
    public func like(_ pattern: String, options: TextOptions = []) -> FetchPredicate { text(.like, pattern, options) }
    /// `key MATCHES[options] regularExpression`.
    public func matches(_ regularExpression: String, options: TextOptions = []) -> FetchPredicate {
        text(.matches, regularExpression, options)
    }
    /// `key ==[options] string`: equality ignoring case and/or diacritics.
    public func equals(_ string: String, options: TextOptions) -> FetchPredicate { text(.equal, string, options) }

    private func text(_ op: TextOperator, _ string: String, _ options: TextOptions) -> FetchPredicate {
        FetchPredicate(node: .text(components, op, options, .string(string)))
    }

    private func compare(_ comparison: ComparisonOperator, _ value: Any?) -> FetchPredicate {
        build { .comparison(.keyPath(components), comparison, .value(try self.value(value))) }
    }

    private func compare(_ comparison: ComparisonOperator, _ other: PredicateKey) -> FetchPredicate {
        FetchPredicate(node: .comparison(.keyPath(components), comparison, .keyPath(other.components)))
    }

    private func build(_ node: () throws -> PredicateNode) -> FetchPredicate {
        do {
            return FetchPredicate(node: try node())
        } catch {
            return FetchPredicate(node: .invalid((error as? ObjectGraphError)?.message ?? "\(error)"))
        }
    }

    private func value(_ value: Any?) throws -> PredicateValue {
        try PredicateArguments.value(value as Any, label: "the value compared with \(path)")
    }
}

extension FetchPredicate {
    /// `ANY comparison`: the comparison, whose key path starts with a to-many relationship, holds
    /// for at least one of its objects. `FetchPredicate.any(PredicateKey("tags.name") == "x")`.
    public static func any(_ comparison: FetchPredicate) -> FetchPredicate { FetchPredicate(node: .quantified(.any, comparison.node)) }
    /// `ALL comparison`: no object of the to-many relationship fails the comparison.
    public static func all(_ comparison: FetchPredicate) -> FetchPredicate { FetchPredicate(node: .quantified(.all, comparison.node)) }
    /// `NONE comparison`: no object of the to-many relationship passes the comparison.
    public static func none(_ comparison: FetchPredicate) -> FetchPredicate { FetchPredicate(node: .quantified(.none, comparison.node)) }
}
