/// The spellings that differ between the SQL databases ObjectGraph stores in. The predicate
/// compiler (`BoundPredicate+SQL`) and sort terms are written once against this; each store's
/// dialect fills in its own words (`SQLiteDialect` here, PostgreSQL's in ObjectGraphPostgres).
/// Identifiers are quoted alike everywhere (`quoteIdentifier`).
package protocol SQLDialect: Sendable {
    /// The placeholder of the `number`th bound value, counted from 1: `?` or `$1`.
    func placeholder(_ number: Int) -> String
    /// A condition that is always true or always false.
    func booleanLiteral(_ value: Bool) -> String
    /// Null-safe equality of two expressions (`IS`, or `IS NOT` when `negated`): true or false,
    /// never unknown.
    func identity(_ lhs: String, _ rhs: String, negated: Bool) -> String
    /// `expression` as a double: how a decimal column compares and sorts as a number.
    func real(_ expression: String) -> String
    /// The shortest `IN` list bound as one JSON array parameter (see `SQLValueList`), or `nil`
    /// when lists are always bound value by value.
    var shortestJSONList: Int? { get }
    /// `expression IN` the members of the JSON array bound to `placeholder`.
    func membership(_ expression: String, inJSONArray placeholder: String) -> String
    /// The SQL function that runs a string operator of the predicate language:
    /// `name(value, operator code, option bits, pattern)` is true, false, or NULL for a NULL value.
    var textFunction: String { get }
    /// The ORDER BY term sorting by `expression` (of a string attribute when `isString`) as
    /// `comparison` says, NULLs first when ascending and last when descending.
    func orderingTerm(_ expression: String, comparison: SortComparison, isString: Bool, ascending: Bool) -> String
    /// An INSERT of one row of parameters into `table`'s `columns` (quoted) that does nothing
    /// when the row's key is there already.
    func insertIgnoringDuplicates(into table: String, columns: [String]) -> String
    /// The (unquoted) column holding `attribute`.
    func columnName(of attribute: AttributeDescription) -> String
    /// `expression`, a double, as a value that compares with every integer exactly as the double
    /// does (see `MixedNumberComparison`), or `nil` where the database compares integers with
    /// doubles exactly already.
    func exactAgainstIntegers(_ expression: String) -> String?
    /// The options and pattern a string operator runs with in this database, for `options` and
    /// `pattern` as the predicate gives them.
    func textArguments(_ op: TextOperator, _ options: TextOptions, _ pattern: String) -> (options: TextOptions, pattern: String)
}

extension SQLDialect {
    /// Its own name's column, or `_pk` for a primary key (see `AttributeDescription.columnName`).
    package func columnName(of attribute: AttributeDescription) -> String { attribute.columnName }

    /// SQLite compares an INTEGER with a REAL exactly (`sqlite3IntFloatCompare`).
    package func exactAgainstIntegers(_ expression: String) -> String? { nil }

    /// As given: the store's text function reads ICU's syntax.
    package func textArguments(_ op: TextOperator, _ options: TextOptions, _ pattern: String) -> (options: TextOptions, pattern: String) {
        (options, pattern)
    }
}

/// SQLite's spellings: `?` parameters, 1 and 0 for truth, `IS`, `objectgraph_real(…)`, long lists
/// through `json_each`, the registered `objectgraph_text` function and collations.
package struct SQLiteDialect: SQLDialect {
    package init() {}

    package func placeholder(_ number: Int) -> String { "?" }

    package func booleanLiteral(_ value: Bool) -> String { value ? "1" : "0" }

    package func identity(_ lhs: String, _ rhs: String, negated: Bool) -> String {
        "\(lhs) \(negated ? "IS NOT" : "IS") \(rhs)"
    }

    package func real(_ expression: String) -> String { "\(SQLiteRealFunction.name)(\(expression))" }

    package var shortestJSONList: Int? { SQLValueList.shortestJSONList }

    package func membership(_ expression: String, inJSONArray placeholder: String) -> String {
        "\(expression) IN (SELECT value FROM json_each(\(placeholder)))"
    }

    package var textFunction: String { SQLiteTextFunction.name }

    /// SQLite sorts NULLs first when ascending already; other comparisons than by bytes name
    /// the collation registered for them (`SQLiteCollations`).
    package func orderingTerm(_ expression: String, comparison: SortComparison, isString: Bool, ascending: Bool) -> String {
        let collation = isString ? comparison.collation.map { " COLLATE \($0)" } ?? "" : ""
        return "\(expression)\(collation) \(ascending ? "ASC" : "DESC")"
    }

    package func insertIgnoringDuplicates(into table: String, columns: [String]) -> String {
        "INSERT OR IGNORE INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
    }
}
