import Foundation

/// The parsed form of a `FetchPredicate`: a tree of comparisons joined by AND, OR and NOT.
///
/// The tree is independent of any entity; `bind(to:)` checks it against one and produces a
/// `BoundPredicate`. AND and OR nodes hold their operands flat (`a AND b AND c` is one node), so
/// long chains do not make the tree deep.
indirect enum PredicateNode: Sendable, Equatable {
    /// TRUEPREDICATE (`true`) or FALSEPREDICATE (`false`).
    case constant(Bool)
    /// `lhs op rhs`.
    case comparison(PredicateOperand, ComparisonOperator, PredicateOperand)
    /// `keyPath BETWEEN {lower, upper}`: inclusive at both ends.
    case between([String], lower: PredicateValue, upper: PredicateValue)
    /// `keyPath IN {values…}`.
    case membership([String], [PredicateValue])
    /// `keyPath BEGINSWITH[cd] value` and the other string operators, and `==`/`!=` with options.
    case text([String], TextOperator, TextOptions, PredicateValue)
    /// `ANY books.year > 2000`: the comparison, whose key path starts with a to-many
    /// relationship, holds for some (ANY), every (ALL) or no (NONE) object in it.
    case quantified(Quantifier, PredicateNode)
    /// A predicate built in code with a value it cannot use (`PredicateKey("x") == Double.nan`):
    /// binding it throws `.typeMismatch` with this message.
    case invalid(String)
    case and([PredicateNode])
    case or([PredicateNode])
    case not(PredicateNode)
}

/// One side of a comparison: a key path or a constant.
enum PredicateOperand: Sendable, Equatable {
    /// A key path, one element per dotted component (`author.name` is `["author", "name"]`).
    case keyPath([String])
    case value(PredicateValue)
    /// `SUBQUERY(collection, $variable, predicate).@count`: how many objects of the to-many
    /// `collection` match `predicate`, whose key paths start with `$variable`.
    indirect case subqueryCount(collection: [String], variable: String, predicate: PredicateNode)
}

/// A constant in a predicate, from a literal in the format or from an argument.
///
/// NaN never gets here: it is refused when the format is parsed, because SQLite stores NaN as NULL
/// and no comparison with it could mean anything.
enum PredicateValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case boolean(Bool)
    case date(Date)
    case data(Data)
    case uuid(UUID)
    case url(URL)
    /// A managed object (by its ID) or an object ID, for comparisons with to-one relationships.
    case object(ManagedObjectID)
    /// `$name`, until `withSubstitutionVariables(_:)` replaces it; a list after IN or BETWEEN
    /// when `isList`.
    case variable(String, isList: Bool)

    /// How error messages name the value: its kind and a short rendering.
    var phrase: String {
        switch self {
        case .null: "nil"
        case .integer(let value): "the integer \(value)"
        case .double(let value): "the double \(value)"
        case .decimal(let value): "the decimal \(value)"
        case .string(let value):
            "the string \"\(value.unicodeScalars.count > 40 ? String(String.UnicodeScalarView(value.unicodeScalars.prefix(40))) + "…" : value)\""
        case .boolean(let value): "the Boolean \(value ? "YES" : "NO")"
        case .date(let value): "the date \(MessageText.of(value))"
        case .data(let value): "the data <\(value.count) bytes>"
        case .uuid(let value): "the UUID \(value.uuidString)"
        case .url(let value): "the URL \(value.absoluteString)"
        case .object(let value): "the object \(value.shortDescription)"
        case .variable(let name, _): "the variable $\(name)"
        }
    }
}

/// A comparison operator, named by what it means rather than how it was spelled.
package enum ComparisonOperator: Sendable, Equatable {
    case equal
    case notEqual
    case less
    case lessOrEqual
    case greater
    case greaterOrEqual

    /// The canonical spelling, used by `FetchPredicate.description` and in messages.
    var symbol: String {
        switch self {
        case .equal: "=="
        case .notEqual: "!="
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        }
    }

    /// The operator with its operands swapped: `3 < age` is `age > 3`.
    var mirrored: ComparisonOperator {
        switch self {
        case .equal, .notEqual: self
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        }
    }

    /// Whether the operator orders its operands (and so yields UNKNOWN when one is NULL).
    var isOrdering: Bool {
        switch self {
        case .equal, .notEqual: false
        case .less, .lessOrEqual, .greater, .greaterOrEqual: true
        }
    }
}

/// How many objects of a to-many relationship a quantified comparison must hold for.
package enum Quantifier: String, Sendable, Equatable {
    case any = "ANY"
    case all = "ALL"
    case none = "NONE"
}

/// A collection operator in a key path: `books.@count`, `books.@sum.pages`.
package enum CollectionOperator: String, Sendable, Equatable {
    case count = "@count"
    case sum = "@sum"
    case avg = "@avg"
    case min = "@min"
    case max = "@max"

    /// Whether the operator aggregates attributes of `type`: numbers (not decimals, stored as
    /// text), and for @min and @max also dates and strings.
    func aggregates(_ type: AttributeType) -> Bool {
        if self == .count { return true }
        if type.isNumeric && type != .decimal { return true }
        return (self == .min || self == .max) && (type == .date || type == .string)
    }

    /// The type of the result over attributes of `type`.
    func resultType(over type: AttributeType) -> AttributeType {
        switch self {
        case .count: .integer64
        case .avg: .double
        case .sum: type == .double || type == .float ? .double : .integer64
        case .min, .max: type
        }
    }
}
