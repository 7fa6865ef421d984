import ObjectGraph

/// PostgreSQL's spellings of what the predicate compiler writes (see `SQLDialect`): numbered
/// parameters, `TRUE`/`FALSE`, `IS [NOT] DISTINCT FROM` for null-safe equality, doubles for
/// decimals compared as numbers, lists always bound value by value (PostgreSQL takes 65,535
/// parameters, more than the predicate binder allows), and the store's own SQL functions for
/// string operators and case-insensitive sorting (see `PostgreSQLTextFunctions`).
///
/// Strings order by their bytes, as SQLite's BINARY collation: text columns are declared
/// `COLLATE "C"`, and sort terms on strings say so again (a computed string takes the
/// database's collation). PostgreSQL sorts NULLs last when ascending, SQLite first: every term
/// says where NULLs go.
struct PostgreSQLDialect: SQLDialect {
    /// The columns of attributes that do not have their own name's (see
    /// `TableLayout.column(of:)`), by attribute.
    var renamedColumns: [ObjectIdentifier: String] = [:]

    func columnName(of attribute: AttributeDescription) -> String {
        renamedColumns[ObjectIdentifier(attribute)] ?? attribute.columnName
    }

    func placeholder(_ number: Int) -> String { "$\(number)" }

    func booleanLiteral(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }

    func identity(_ lhs: String, _ rhs: String, negated: Bool) -> String {
        "\(lhs) \(negated ? "IS DISTINCT FROM" : "IS NOT DISTINCT FROM") \(rhs)"
    }

    func real(_ expression: String) -> String { "CAST(\(expression) AS double precision)" }

    var shortestJSONList: Int? { nil }

    func membership(_ expression: String, inJSONArray placeholder: String) -> String {
        // Never asked for: `shortestJSONList` is nil.
        "\(expression) IN (SELECT value FROM json_array_elements_text(\(placeholder)::json))"
    }

    var textFunction: String { PostgreSQLTextFunctions.matchFunction }

    /// Localized comparisons have no PostgreSQL equivalent that sorts as Foundation does; the
    /// store sorts such fetches itself and never asks for their terms.
    func orderingTerm(_ expression: String, comparison: SortComparison, isString: Bool, ascending: Bool) -> String {
        let nulls = ascending ? "ASC NULLS FIRST" : "DESC NULLS LAST"
        guard isString else { return "\(expression) \(nulls)" }
        let sorted = comparison == .caseInsensitive ? "\(PostgreSQLTextFunctions.foldFunction)(\(expression), 1)" : expression
        return "\(sorted) COLLATE \"C\" \(nulls)"
    }

    func insertIgnoringDuplicates(into table: String, columns: [String]) -> String {
        "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.indices.map { placeholder($0 + 1) }.joined(separator: ", "))) ON CONFLICT DO NOTHING"
    }
}
