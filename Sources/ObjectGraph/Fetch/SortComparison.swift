import Foundation

/// How a sort descriptor orders strings. Both stores use the same Swift comparison: the SQLite
/// store as a collation of its own (`OBJECTGRAPH_NOCASE`, `OBJECTGRAPH_LOCALIZED`).
public enum SortComparison: String, Sendable, Equatable {
    /// By UTF-8 bytes (SQLite's BINARY collation): case-sensitive, no locale. The default.
    case binary
    /// Ignoring case (letters folded without a locale), then by UTF-8 bytes.
    case caseInsensitive
    /// As Finder orders names (`localizedStandardCompare`): case-insensitive, numbers in text by
    /// value ("file 2" before "file 10"), in the current locale.
    case localizedStandard

    /// The collation the SQLite store sorts with.
    var collation: String? {
        switch self {
        case .binary: nil
        case .caseInsensitive: "OBJECTGRAPH_NOCASE"
        case .localizedStandard: "OBJECTGRAPH_LOCALIZED"
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
            switch a.localizedStandardCompare(b) {
            case .orderedAscending: return -1
            case .orderedDescending: return 1
            // Equal for the user (case, width): break the tie by bytes, as a collation must be total.
            case .orderedSame: return Self.bytes(a, b)
            }
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
