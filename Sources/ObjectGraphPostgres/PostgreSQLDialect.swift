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

extension PostgreSQLDialect {
    /// PostgreSQL compares a `bigint` with a `double precision` as doubles, rounding integers
    /// from 2^53 on. The double as a `numeric` that stands where the double does among the
    /// integers: itself when it is a whole number (by way of `bigint`, as `numeric` made straight
    /// from a double keeps only 15 digits), its floor and a half when it is not (no integer lies
    /// between the two), as `numeric` (±Infinity) beyond `bigint`. Compared with it, an integer
    /// becomes `numeric` too, exactly.
    func exactAgainstIntegers(_ expression: String) -> String? {
        let x = expression
        return """
            (CASE WHEN \(x) <> trunc(\(x)) THEN CAST(CAST(floor(\(x)) AS bigint) AS numeric) + 0.5 \
            WHEN \(x) >= -9223372036854775808 AND \(x) < 9223372036854775808 THEN CAST(CAST(\(x) AS bigint) AS numeric) \
            ELSE CAST(\(x) AS numeric) END)
            """
    }

    /// MATCHES with ICU's leading `(?i)` (the whole pattern case-insensitive) runs as
    /// `MATCHES[c]` does, which means the same in ICU: PostgreSQL's regular expressions take
    /// inline options only at the very start, and the store's function wraps the pattern in a
    /// group. Other ICU-only syntax reaches the server, which refuses it (see `read`).
    func textArguments(_ op: TextOperator, _ options: TextOptions, _ pattern: String) -> (options: TextOptions, pattern: String) {
        guard op == .matches, pattern.hasPrefix("(?i)") else { return (options, pattern) }
        return (options.union(.caseInsensitive), String(pattern.dropFirst(4)))
    }
}
