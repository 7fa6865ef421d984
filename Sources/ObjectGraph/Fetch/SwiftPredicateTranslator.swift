import Foundation

/// Turns Foundation's `#Predicate` expression trees into the predicate tree fetches run, so a
/// `Predicate<Book>` compiles to SQL for the SQLite store and evaluates in memory exactly as the
/// equivalent format string does. Key paths become model property names through the entity
/// class's `TypedManagedObject.propertyKeyPaths`.
///
/// Each supported expression type translates itself (see SwiftPredicateExpressions.swift); any
/// sub-expression that uses no variable is evaluated once, here, into a constant. Anything else
/// is refused with an error naming the expression — never evaluated row by row in memory.
struct SwiftPredicateTranslator {
    /// The model key path each predicate variable stands for: `[]` for the fetched object,
    /// `["$v1"]` for the object a `contains(where:)` or `filter` looks at, the wrapped key path
    /// for an optional's `flatMap` variable.
    private var variables: [PredicateExpressions.VariableID: [String]]
    private var nextLocal = 1

    init(root: PredicateExpressions.VariableID) {
        variables = [root: []]
    }

    /// The condition `expression` (a Boolean expression) stands for.
    mutating func condition(_ expression: any PredicateExpression) throws -> PredicateNode {
        switch try term(expression) {
        case .condition(let node): return node
        case .path(let path): return .comparison(.keyPath(path), .equal, .value(.boolean(true)))
        case .constant(let value as Bool): return .constant(value)
        case .coalesced(let path, let fallback):
            return try compare(.coalesced(path, fallback), .equal, .constant(true))
        default: throw Self.unsupported(expression, "is not a condition a fetch can test")
        }
    }

    /// What `expression` stands for.
    mutating func term(_ expression: any PredicateExpression) throws -> PredicateTerm {
        if let translatable = expression as? any TranslatablePredicateExpression {
            return try translatable.translate(&self)
        }
        // An expression without variables (a captured value, arithmetic on constants, a range)
        // has the same value for every object: evaluate it once.
        if let value = try? expression.evaluate(PredicateBindings()) {
            return .constant(value)
        }
        throw Self.unsupported(expression, "cannot run as SQL")
    }

    /// The key path a variable stands for.
    func path(of variable: PredicateExpressions.VariableID) throws -> [String] {
        guard let path = variables[variable] else {
            throw ObjectGraphError(.invalidOperation, "#Predicate: a variable of the predicate is used outside the closure that defines it")
        }
        return path
    }

    /// Binds `variable` to `path` (an optional's `flatMap`).
    mutating func bind(_ variable: PredicateExpressions.VariableID, to path: [String]) {
        variables[variable] = path
    }

    /// Binds `variable` to a new SUBQUERY variable; returns its name (without `$`).
    mutating func bindMember(_ variable: PredicateExpressions.VariableID) -> String {
        let name = "v\(nextLocal)"
        nextLocal += 1
        variables[variable] = ["$" + name]
        return name
    }

    /// `lhs op rhs` as a condition.
    func compare(_ lhs: PredicateTerm, _ op: ComparisonOperator, _ rhs: PredicateTerm) throws -> PredicateNode {
        switch (lhs, rhs) {
        case (.path(let path), .constant(let value)):
            return .comparison(.keyPath(path), op, .value(try Self.value(value, comparedWith: path)))
        case (.constant, .path), (.constant, .subqueryCount), (.constant, .coalesced):
            return try compare(rhs, op.mirrored, lhs)
        case (.path(let left), .path(let right)):
            return .comparison(.keyPath(left), op, .keyPath(right))
        case (.subqueryCount(let collection, let variable, let predicate), .constant(let value)):
            return .comparison(
                .subqueryCount(collection: collection, variable: variable, predicate: predicate), op,
                .value(try Self.value(value, comparedWith: collection + ["@count"])))
        case (.coalesced(let path, let fallback), .constant(let value)):
            // `(x ?? d) op v` is `x op v` when x has a value, and `d op v` when it is nil.
            let whenPresent = try compare(.path(path), op, .constant(value))
            let whenNil = try Self.fold(fallback, op, value, path: path)
            return .or([
                .and([.comparison(.keyPath(path), .notEqual, .value(.null)), whenPresent]),
                .and([.comparison(.keyPath(path), .equal, .value(.null)), .constant(whenNil)])
            ])
        case (.condition(let node), .constant(let value as Bool)):
            switch op {
            case .equal: return value ? node : .not(node)
            case .notEqual: return value ? .not(node) : node
            default: break
            }
        case (.constant(let a), .constant(let b)):
            return .constant(try Self.fold(a, op, b, path: []))
        default:
            break
        }
        throw ObjectGraphError(.invalidOperation, "#Predicate: cannot compare \(lhs.phrase) with \(rhs.phrase) (\(op.symbol)) in a fetch")
    }

    /// A captured value as a predicate constant.
    static func value(_ value: Any, comparedWith path: [String]) throws -> PredicateValue {
        try PredicateArguments.value(value, label: "the value compared with \(path.joined(separator: "."))")
    }

    /// `a op b` for two constants, decided now (the default of `??` against the compared value),
    /// as a fetch would decide it: nil equals only nil and orders with nothing.
    static func fold(_ a: Any, _ op: ComparisonOperator, _ b: Any, path: [String]) throws -> Bool {
        let left = try value(a, comparedWith: path), right = try value(b, comparedWith: path)
        let order = ordering(left, right)
        switch op {
        case .equal: return order == .orderedSame
        case .notEqual: return order != .orderedSame
        case .less: return order == .orderedAscending
        case .lessOrEqual: return order == .orderedAscending || order == .orderedSame
        case .greater: return order == .orderedDescending
        case .greaterOrEqual: return order == .orderedDescending || order == .orderedSame
        }
    }

    /// How two constants order (numbers by value, strings by UTF-8 bytes), or `nil` when they
    /// do not (different kinds, or nil).
    private static func ordering(_ left: PredicateValue, _ right: PredicateValue) -> ComparisonResult? {
        func order<T: Comparable>(_ x: T, _ y: T) -> ComparisonResult {
            x < y ? .orderedAscending : x == y ? .orderedSame : .orderedDescending
        }
        switch (left, right) {
        case (.integer(let x), .integer(let y)): return order(x, y)
        case (.integer(let x), .double(let y)): return order(Double(x), y)
        case (.double(let x), .integer(let y)): return order(x, Double(y))
        case (.double(let x), .double(let y)): return order(x, y)
        case (.decimal(let x), .decimal(let y)): return order(x, y)
        case (.string(let x), .string(let y)):
            return x.utf8.elementsEqual(y.utf8)
                ? .orderedSame : (x.utf8.lexicographicallyPrecedes(y.utf8) ? .orderedAscending : .orderedDescending)
        case (.date(let x), .date(let y)): return order(x, y)
        case (.boolean(let x), .boolean(let y)): return order(x ? 1 : 0, y ? 1 : 0)
        case (.null, .null): return .orderedSame
        case (.null, _), (_, .null): return nil
        default: return left == right ? .orderedSame : nil
        }
    }

    /// The error for an expression a fetch cannot run, naming it.
    static func unsupported(_ expression: any PredicateExpression, _ why: String) -> ObjectGraphError {
        let type = String(describing: Swift.type(of: expression))
        let name = type.prefix { $0 != "<" }
        return ObjectGraphError(
            .invalidOperation,
            "#Predicate: PredicateExpressions.\(name) \(why). Supported: comparisons, &&, ||, !, == nil and != nil, ??, optional chaining through to-one relationships, String contains and starts(with:), captured arrays' contains, ranges' contains, and a to-many relationship's count, isEmpty, contains(where:), allSatisfy and filter(…).count"
        )
    }
}

/// What a sub-expression of a `#Predicate` stands for in a fetch predicate.
enum PredicateTerm {
    /// A Boolean condition.
    case condition(PredicateNode)
    /// A model key path (`author.name`, `$v1.pages`, `books.@count`).
    case path([String])
    /// A value computed without the fetched object.
    case constant(Any)
    /// `path ?? fallback`.
    case coalesced([String], Any)
    /// The members of the to-many `collection` that match `predicate` (`filter`).
    case subquery(collection: [String], variable: String, predicate: PredicateNode)
    /// How many members of `collection` match `predicate` (`filter(…).count`).
    case subqueryCount(collection: [String], variable: String, predicate: PredicateNode)

    /// How error messages name the term.
    var phrase: String {
        switch self {
        case .condition: "a condition"
        case .path(let path): "the key path \(path.joined(separator: "."))"
        case .constant(let value): "the value \(value)"
        case .coalesced(let path, _): "\(path.joined(separator: ".")) ?? …"
        case .subquery(let collection, _, _): "a filter of \(collection.joined(separator: "."))"
        case .subqueryCount(let collection, _, _): "a count of filtered \(collection.joined(separator: "."))"
        }
    }
}

/// A Foundation predicate expression that knows what it stands for in a fetch predicate.
protocol TranslatablePredicateExpression: PredicateExpression {
    func translate(_ translator: inout SwiftPredicateTranslator) throws -> PredicateTerm
}
