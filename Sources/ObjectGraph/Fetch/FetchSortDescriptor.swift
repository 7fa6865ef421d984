import Foundation

/// The order of fetched objects by one attribute, like Core Data's `NSSortDescriptor`.
///
/// Values sort as the SQLite store sorts them, in memory too: nil first when ascending and last
/// when descending; strings by their UTF-8 bytes (case-sensitive, no locale); numbers and dates
/// by value; decimals as `Double`s; data, UUIDs and JSON by their stored bytes.
/// Objects that tie on every sort key come back in the order they were first saved.
public struct FetchSortDescriptor: Sendable, Equatable {
    /// The attribute to sort by.
    public let key: String
    /// Whether smaller values come first.
    public let ascending: Bool

    /// Sorts by the attribute named `key`, smallest first unless `ascending` is `false`.
    public init(key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }

    /// The descriptor checked against `entity`: the key must be a stored attribute.
    /// Throws `.unknownKey` (with a suggestion when the key looks like a typo).
    func bind(to entity: EntityDescription) throws -> BoundSort {
        let keyPath = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let attribute = try fetchableAttribute(keyPath, of: entity, usage: "a sort descriptor")
        return BoundSort(attribute: attribute, ascending: ascending)
    }
}

/// A sort descriptor resolved to an attribute: its SQL ORDER BY term and its in-memory order
/// agree on every pair of rows.
struct BoundSort: Sendable {
    let attribute: AttributeDescription
    let ascending: Bool

    /// The ORDER BY term, such as `"name" ASC`. Decimal columns (stored as text) sort by their
    /// numeric value: `CAST("price" AS REAL) ASC`.
    var sqlOrderingTerm: String {
        let column = quoteIdentifier(attribute.name)
        let expression = attribute.type == .decimal ? "CAST(\(column) AS REAL)" : column
        return "\(expression) \(ascending ? "ASC" : "DESC")"
    }

    /// The row's value as the SQL term sees it.
    func sortValue(_ row: [AttributeValue]) -> AttributeValue {
        castToReal(row[attribute.index])
    }
}

/// How two value rows of one entity order under `sorts` (applied in turn until one differs),
/// as SQLite's ORDER BY would order them. Callers break the remaining ties by primary key.
func compareRows(_ a: [AttributeValue], _ b: [AttributeValue], by sorts: [BoundSort]) -> ComparisonResult {
    for sort in sorts {
        let result = compareStored(sort.sortValue(a), sort.sortValue(b))
        if result != 0 {
            return (result < 0) == sort.ascending ? .orderedAscending : .orderedDescending
        }
    }
    return .orderedSame
}
