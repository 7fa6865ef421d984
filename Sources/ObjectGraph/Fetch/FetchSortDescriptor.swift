import Foundation

/// The order of fetched objects by one attribute, like Core Data's `NSSortDescriptor`.
///
/// Values sort as the SQLite store sorts them, in memory too: nil first when ascending and last
/// when descending; strings by their UTF-8 bytes (case-sensitive, no locale) unless `comparison`
/// says otherwise (ignoring case, or Foundation's localized comparisons); numbers and dates
/// by value; decimals as `Double`s; data, UUIDs and JSON by their stored bytes.
/// Objects that tie on every sort key come back in the order they were first saved.
public struct FetchSortDescriptor: Sendable, Equatable {
    /// The attribute to sort by: a key of the entity, or a key path through to-one
    /// relationships (`author.name`).
    public let key: String
    /// Whether smaller values come first.
    public let ascending: Bool
    /// How strings compare: by bytes (the default), ignoring case, or as Finder does.
    public let comparison: SortComparison

    /// Sorts by the attribute named `key`, smallest first unless `ascending` is `false`, strings
    /// compared as `comparison` says.
    public init(key: String, ascending: Bool = true, comparison: SortComparison = .binary) {
        self.key = key
        self.ascending = ascending
        self.comparison = comparison
    }

    /// The descriptor checked against `entity`: the key must be a stored attribute, reached
    /// through to-one relationships if it is a key path. Throws `.unknownKey` (with a suggestion
    /// when the key looks like a typo).
    func bind(to entity: EntityDescription, in model: ManagedObjectModel) throws -> BoundSort {
        let keyPath = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let (operand, attribute) = try sortOperand(keyPath, of: entity, in: model)
        return BoundSort(operand: operand, type: attribute.type, ascending: ascending, comparison: comparison)
    }
}

/// A sort descriptor resolved to what it reads: its SQL ORDER BY term and its in-memory order
/// agree on every pair of rows.
package struct BoundSort: Sendable {
    let operand: BoundPredicate.Operand
    let type: AttributeType
    let ascending: Bool
    package let comparison: SortComparison

    /// The ORDER BY term in SQLite's dialect, such as `"name" ASC`. Decimal columns (stored as
    /// text) sort by their numeric value: `objectgraph_real("price") ASC`; strings compared otherwise
    /// than by bytes name their collation: `"name" COLLATE OBJECTGRAPH_NOCASE ASC`.
    var sqlOrderingTerm: String {
        orderingTerm(in: SQLiteDialect())
    }

    /// Whether the term reads the row's own values only (no key path through relationships),
    /// so `compareRows` can order rows by it without reading other objects.
    package var readsOwnRowOnly: Bool {
        switch operand {
        case .attribute, .attributeAsReal, .reference, .ownObject, .value: true
        case .path, .count, .aggregate: false
        }
    }

    /// The ORDER BY term in `dialect`.
    package func orderingTerm<Dialect: SQLDialect>(in dialect: Dialect) -> String {
        dialect.orderingTerm(
            BoundPredicate.sql(for: operand, in: dialect), comparison: comparison, isString: type == .string, ascending: ascending)
    }
}

/// A row being sorted: its values, its entity and its object, for key paths.
struct SortedRow {
    let values: ValueRow
    var entity: EntityDescription?
    var objectID: ManagedObjectID?
}

/// How two rows order under `sorts` (applied in turn until one differs), as SQLite's ORDER BY
/// would order them. Callers break the remaining ties by primary key.
func compareRows(_ a: SortedRow, _ b: SortedRow, by sorts: [BoundSort], resolve: BoundPredicate.RowResolver? = nil) -> ComparisonResult {
    for sort in sorts {
        let x = BoundPredicate.value(of: sort.operand, values: a.values, entity: a.entity, objectID: a.objectID, resolve: resolve)
        let y = BoundPredicate.value(of: sort.operand, values: b.values, entity: b.entity, objectID: b.objectID, resolve: resolve)
        let result: Int
        if case .string(let first) = x, case .string(let second) = y, sort.comparison != .binary {
            result = sort.comparison.compare(first, second)
        } else {
            result = compareStored(x, y)
        }
        if result != 0 {
            return (result < 0) == sort.ascending ? .orderedAscending : .orderedDescending
        }
    }
    return .orderedSame
}

/// `compareRows` for rows of the bound entity itself, without relationships.
package func compareRows(_ a: ValueRow, _ b: ValueRow, by sorts: [BoundSort]) -> ComparisonResult {
    compareRows(SortedRow(values: a), SortedRow(values: b), by: sorts)
}
