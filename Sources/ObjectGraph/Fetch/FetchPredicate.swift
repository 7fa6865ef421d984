/// A condition that fetched objects must meet, written in the format syntax of Core Data's
/// `NSPredicate(format:)` — which Linux Foundation does not provide.
///
/// ```swift
/// let adults = try FetchPredicate(format: "age >= %d AND name != nil", 18)
/// let named = try FetchPredicate(format: "name IN %@", ["Ada", "Grace"])
/// let either = adults || !named
/// ```
///
/// The same predicate gives the same answer whichever store runs it: the SQLite store compiles it
/// to parameterised SQL (values are always bound, never spliced into the statement), and the
/// in-memory store and unsaved changes evaluate it in memory with identical semantics.
///
/// ## Supported syntax
///
/// The format syntax of NSPredicate, as Core Data stores run it (<doc:Predicates> is the
/// full reference):
///
/// - **Comparisons**: `==` (or `=`), `!=` (or `<>`), `<`, `<=` (or `=<`), `>`, `>=` (or `=>`).
///   One side must be a key; the other is a value or another key (`minAge < maxAge`).
/// - **Ranges and lists**: `key BETWEEN {lower, upper}` (inclusive) or `key BETWEEN %@` with a
///   two-element array; `key IN {a, b, …}` or `key IN %@` with an array or a set.
/// - **Strings**: `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`, `MATCHES`, with `[c]`, `[d]` and
///   `[cd]` options (on `==`, `!=` and `IN` too).
/// - **Logic**: `AND` / `&&`, `OR` / `||`, `NOT` / `!`, parentheses. `NOT` binds tightest, then
///   `AND`, then `OR`. `TRUEPREDICATE` and `FALSEPREDICATE` match everything and nothing.
/// - **Literals**: `nil` / `NULL`; `YES` / `TRUE`, `NO` / `FALSE`; integers (`42`, `-7`, `0x1F`,
///   `0o17`, `0b101`); doubles (`1.5`, `1e3`, `-2.5E-4`); strings in single or double quotes with
///   backslash escapes `\\ \' \" \n \t \r \0 \uXXXX \u{X…}` (inside quotes, `%%` is a percent
///   sign and format specifiers are literal text). Keywords are case-insensitive.
/// - **Keys**: attribute names such as `age`, key paths through to-one relationships of any depth
///   (`author.name`), to-one relationships compared with objects or object IDs (`author == %@`),
///   and `SELF`. A key that is a reserved word is written `#name` or passed with `%K`.
/// - **To-many relationships**: `ANY`, `ALL`, `NONE`, `SOME` (`ANY books.title == %@`),
///   `%@ IN books`, collection operators (`books.@count`, `@sum`, `@avg`, `@min`, `@max`) and
///   `SUBQUERY(books, $b, …).@count`.
/// - **Arguments**: `%@` (any supported value, or an array after IN and BETWEEN), `%K` (a key
///   path string), `%d` `%i` `%ld` `%li` `%lld` `%lli` `%u` `%lu` `%llu` (integers), `%f` `%lf`
///   (numbers), `%s` (strings). Arguments may be any integer type, `Double`, `Float`,
///   `Decimal`, `String`, `Substring`, `Bool`, `Date`, `Data`, `UUID`, `URL`, `NSNumber`,
///   objects and object IDs, an `Optional` that is `nil` (or `NSNull`), and arrays or sets of
///   these for IN and BETWEEN. Substitution variables (`$name`) are filled by
///   `withSubstitutionVariables(_:)`.
///
/// `FUNCTION`, `CAST`, subscripts (`[n]`), other collection operators (`@first`, …) and
/// arithmetic are recognised and rejected with an error that says they are not supported yet.
///
/// ## Semantics
///
/// - `==` and `!=` treat nil as a value: `x == nil` matches only nil, and `x != 5` matches nil.
/// - `<`, `<=`, `>`, `>=`, `BETWEEN` and `IN` follow SQL: when the attribute's value is nil the
///   result is unknown, and so is the result of NOT unknown. An object matches only when the
///   whole predicate is true. Ordering against a literal or argument nil (`age < nil`) can never
///   match and is refused as a type mismatch; a nil inside an `IN` list is allowed.
/// - Strings compare by their UTF-8 bytes (no Unicode normalisation, case-sensitive).
/// - Integers and floating-point numbers compare exactly by numeric value. Decimal attributes
///   are compared with `==`, `!=` and `IN` exactly, and ordered as `Double`s.
///
/// Errors are `ObjectGraphError`s: `.predicateSyntax` for malformed formats (naming the column,
/// what was expected and what was found), `.typeMismatch` for unusable arguments, and — when a
/// fetch binds the predicate to an entity — `.unknownKey` and `.typeMismatch` for keys and
/// values that do not fit the entity.
public struct FetchPredicate: Sendable, CustomStringConvertible, Equatable {
    /// The parsed condition.
    let node: PredicateNode

    init(node: PredicateNode) {
        self.node = node
    }

    /// Parses `format`, substituting `arguments` for its `%` specifiers in order.
    ///
    /// Throws `ObjectGraphError` (`.predicateSyntax` or `.typeMismatch`) when the format is
    /// malformed, an argument is missing or left over, or an argument's type cannot be used.
    /// Arguments are converted while parsing (a managed object to its object ID), so the
    /// predicate holds only values and stays `Sendable`.
    public init(format: String, _ arguments: Any?...) throws {
        try self.init(format: format, argumentArray: arguments.map { $0 as Any })
    }

    /// Parses `format`, substituting the elements of `argumentArray` for its `%` specifiers.
    public init(format: String, argumentArray: [Any]) throws {
        self.node = try PredicateParser.parse(format: format, arguments: argumentArray)
    }

    /// A predicate every object matches (`TRUEPREDICATE`).
    public static let truePredicate = FetchPredicate(node: .constant(true))

    /// A predicate no object matches (`FALSEPREDICATE`).
    public static let falsePredicate = FetchPredicate(node: .constant(false))

    /// A predicate matching objects that match every one of `predicates` (`truePredicate` when
    /// the list is empty, as Core Data's AND of no subpredicates is true).
    public static func and(_ predicates: [FetchPredicate]) -> FetchPredicate {
        switch predicates.count {
        case 0: truePredicate
        case 1: predicates[0]
        default:
            // Flattened, so chains built one `&&` at a time stay shallow.
            FetchPredicate(
                node: .and(
                    predicates.flatMap { predicate -> [PredicateNode] in
                        if case .and(let operands) = predicate.node { return operands }
                        return [predicate.node]
                    }))
        }
    }

    /// A predicate matching objects that match at least one of `predicates` (`falsePredicate`
    /// when the list is empty, as Core Data's OR of no subpredicates is false).
    public static func or(_ predicates: [FetchPredicate]) -> FetchPredicate {
        switch predicates.count {
        case 0: falsePredicate
        case 1: predicates[0]
        default:
            FetchPredicate(
                node: .or(
                    predicates.flatMap { predicate -> [PredicateNode] in
                        if case .or(let operands) = predicate.node { return operands }
                        return [predicate.node]
                    }))
        }
    }

    /// A predicate that is true where `predicate` is false. Where `predicate` is unknown (an
    /// ordering comparison with nil), its negation is unknown too and does not match.
    public static func not(_ predicate: FetchPredicate) -> FetchPredicate {
        FetchPredicate(node: .not(predicate.node))
    }

    /// Both predicates: `FetchPredicate.and([lhs, rhs])`.
    public static func && (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        and([lhs, rhs])
    }

    /// Either predicate: `FetchPredicate.or([lhs, rhs])`.
    public static func || (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        or([lhs, rhs])
    }

    /// The negation: `FetchPredicate.not(predicate)`.
    public static prefix func ! (predicate: FetchPredicate) -> FetchPredicate {
        not(predicate)
    }

    /// The predicate in format syntax, with arguments substituted as literals. It parses back to
    /// an equivalent predicate, except that dates and data have no literal syntax and are
    /// rendered for reading (`CAST(…, "NSDate")`, `<0a1b…>`); decimals are rendered as numbers,
    /// and UUIDs and URLs as strings (which UUID and URI attributes accept).
    public var description: String { PredicateFormatter.render(node) }
}
