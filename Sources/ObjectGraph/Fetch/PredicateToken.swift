/// One token of a predicate format string, with the 1-based column where it starts.
struct PredicateToken: Sendable {
    enum Kind: Sendable, Equatable {
        /// A key path as written: `age`, `author.name`, `#in` (a `#` lets a reserved word be a key).
        case keyPath([String])
        case integer(Int64)
        case double(Double)
        case string(String)
        /// A format specifier; `index` is its position among the specifiers (0-based), which is
        /// the argument it consumes.
        case argument(index: Int, FormatSpecifier)
        case comparison(ComparisonOperator)
        /// BEGINSWITH, ENDSWITH, CONTAINS, LIKE or MATCHES.
        case textOperator(TextOperator)
        /// `[c]`, `[d]` or `[cd]` after a comparison or string operator.
        case options(TextOptions)
        /// `$name`: a substitution variable, given a value by `withSubstitutionVariables(_:)`.
        case variable(String)
        /// SUBQUERY, opening `SUBQUERY(collection, $variable, predicate).@count`.
        case subquery
        /// `.@count` after the closing parenthesis of a SUBQUERY.
        case countSuffix
        /// ANY (SOME), ALL or NONE before a comparison through a to-many relationship.
        case quantifier(Quantifier)
        case and
        case or
        case not
        case `in`
        case between
        case null
        case boolean(Bool)
        case truePredicate
        case falsePredicate
        case leftParenthesis
        case rightParenthesis
        case leftBrace
        case rightBrace
        case comma
        /// NSPredicate syntax that a later version will support (aggregates, collection
        /// operators, variables, arithmetic): reported, never misread as a key.
        case unsupported(String)
        case end
    }

    let kind: Kind
    /// 1-based position of the token's first Unicode scalar in the format.
    let column: Int
    /// The token as written, for error messages.
    let text: String

    /// How an error message names the token.
    var quoted: String {
        if case .end = kind { return "the end of the predicate" }
        return "'\(text)'"
    }
}

/// What kind of argument a `%` specifier takes.
enum FormatSpecifier: Sendable, Equatable {
    /// `%@`: any supported value, or an array after IN and BETWEEN.
    case object
    /// `%K`: a key path given as a string.
    case key
    /// `%d`, `%i`, `%ld`, `%lld`, `%u` and friends: an integer.
    case integer
    /// `%f`, `%lf`: a floating-point number (integers are accepted and converted).
    case double
    /// `%s`: a string.
    case string

    /// The spellings the lexer accepts after `%`, longest first so `%lld` is not read as `%l`.
    static let spellings: [(String, FormatSpecifier)] = [
        ("lld", .integer), ("lli", .integer), ("llu", .integer),
        ("ld", .integer), ("li", .integer), ("lu", .integer), ("lf", .double),
        ("@", .object), ("K", .key), ("d", .integer), ("i", .integer), ("u", .integer),
        ("f", .double), ("s", .string)
    ]
}

/// Reserved words of NSPredicate's format syntax (case-insensitive).
enum PredicateKeywords {
    /// Keywords this version understands, and the token each one becomes.
    static let supported: [String: PredicateToken.Kind] = [
        "AND": .and, "OR": .or, "NOT": .not, "IN": .in, "BETWEEN": .between,
        "NIL": .null, "NULL": .null,
        "YES": .boolean(true), "TRUE": .boolean(true), "NO": .boolean(false), "FALSE": .boolean(false),
        "TRUEPREDICATE": .truePredicate, "FALSEPREDICATE": .falsePredicate,
        "BEGINSWITH": .textOperator(.beginsWith), "ENDSWITH": .textOperator(.endsWith),
        "CONTAINS": .textOperator(.contains), "LIKE": .textOperator(.like), "MATCHES": .textOperator(.matches),
        "SUBQUERY": .subquery, "ANY": .quantifier(.any), "SOME": .quantifier(.any), "ALL": .quantifier(.all), "NONE": .quantifier(.none)
    ]

    /// NSPredicate's other reserved words: recognised so they are reported as not supported yet
    /// instead of being taken for keys.
    static let unsupported: Set<String> = [
        "FUNCTION", "FIRST", "LAST", "SIZE", "ANYKEY", "CAST", "FETCH",
        "MEMBER", "CASEINSENSITIVE", "CI", "DISTINCT", "UNION", "INTERSECT", "MINUS"
    ]

    /// `SELF`: the evaluated object itself. The lexer reads `SELF.title` as the key path `title`
    /// and a lone `SELF` as the empty key path.
    static let selfKeyword = "SELF"

    /// Whether `word` is reserved in any way, so `description` must escape it with `#`.
    static func isReserved(_ word: String) -> Bool {
        let upper = word.uppercased()
        return supported[upper] != nil || unsupported.contains(upper) || upper == selfKeyword
    }
}
