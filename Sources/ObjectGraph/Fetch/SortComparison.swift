import Foundation

/// How a sort descriptor orders strings. Both stores use the same Swift comparison: the SQLite
/// store as a collation of its own (`OBJECTGRAPH_NOCASE`, `OBJECTGRAPH_LOCALIZED`, …).
public enum SortComparison: String, Sendable, Equatable, CaseIterable {
    /// By UTF-8 bytes (SQLite's BINARY collation): case-sensitive, no locale. The default.
    case binary
    /// Ignoring case (letters folded without a locale), then by UTF-8 bytes.
    case caseInsensitive
    /// As Finder orders names (`localizedStandardCompare`): case-insensitive, numbers in text by
    /// value ("file 2" before "file 10"), in the current locale.
    case localizedStandard
    /// As `localizedCompare(_:)` (Core Data's `localizedCompare:` selector): in the current
    /// locale, case-sensitive.
    case localized
    /// As `localizedCaseInsensitiveCompare(_:)` (Core Data's `localizedCaseInsensitiveCompare:`):
    /// in the current locale, ignoring case.
    case localizedCaseInsensitive

    /// The collation the SQLite store sorts with.
    var collation: String? {
        switch self {
        case .binary: nil
        case .caseInsensitive: "OBJECTGRAPH_NOCASE"
        case .localizedStandard: "OBJECTGRAPH_LOCALIZED"
        case .localized: "OBJECTGRAPH_LOCALIZED_COMPARE"
        case .localizedCaseInsensitive: "OBJECTGRAPH_LOCALIZED_NOCASE"
        }
    }

    /// -1, 0 or 1.
    func compare(_ a: String, _ b: String) -> Int {
        switch self {
        case .binary:
            return Self.bytes(a, b)
        case .caseInsensitive:
            return Self.bytes(a.folding(options: [.caseInsensitive], locale: nil), b.folding(options: [.caseInsensitive], locale: nil))
        case .localizedStandard:
            return Self.total(a.localizedStandardCompare(b), a, b)
        case .localized:
            return Self.total(a.localizedCompare(b), a, b)
        case .localizedCaseInsensitive:
            return Self.total(a.localizedCaseInsensitiveCompare(b), a, b)
        }
    }

    /// `order` as -1 or 1; strings equal for the user (case, width) are told apart by their
    /// bytes, as a collation must be a total order.
    private static func total(_ order: ComparisonResult, _ a: String, _ b: String) -> Int {
        switch order {
        case .orderedAscending: -1
        case .orderedDescending: 1
        case .orderedSame: bytes(a, b)
        }
    }

    private static func bytes(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, common)
                if order != 0 { return order < 0 ? -1 : 1 }
                return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
            }
        }
    }
}
