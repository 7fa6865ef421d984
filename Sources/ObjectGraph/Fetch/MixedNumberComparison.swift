/// Where a predicate compares an integer with a double. SQLite and the in-memory evaluator
/// compare the two exactly (`compareIntegerToReal`); a database that converts the integer to a
/// double instead (PostgreSQL) rounds integers from 2^53 on, so 2^53 + 1 would equal 2^53. The
/// SQL writer asks the dialect to make the double side exact against integers
/// (`SQLDialect.exactAgainstIntegers`) only where that rounding can change an answer, so the
/// comparisons of ordinary numbers keep their plain, indexable form.
enum MixedNumberComparison {
    /// The two kinds of number a comparison can hold.
    enum Kind {
        case integer
        case floating
    }

    /// 2^53: integers from here on are not all doubles.
    static let firstInexactInteger: Double = 9_007_199_254_740_992

    /// Whether `floating`, compared with `integer`, must be made exact against integers: when the
    /// two are of these kinds and a double comparison could round an integer of the other side —
    /// a stored integer (any may be that large) or a constant from 2^53 on — against a double
    /// that could lie near it (a stored double, or a constant from 2^53 on).
    static func needsExactness(_ floating: BoundPredicate.Operand, against integer: BoundPredicate.Operand) -> Bool {
        guard kind(of: floating) == .floating, kind(of: integer) == .integer else { return false }
        switch (floating, integer) {
        case (.value(let value), _): return isLarge(value)
        case (_, .value(let value)): return isLarge(value)
        default: return true
        }
    }

    /// The kind of number `operand` reads, if it reads one of these.
    static func kind(of operand: BoundPredicate.Operand) -> Kind? {
        switch operand {
        case .attribute(let attribute): return kind(of: attribute.type)
        case .attributeAsReal: return .floating
        case .path(let path, let asNumber):
            guard case .attribute(let attribute) = path.target else { return nil }
            return asNumber ? .floating : kind(of: attribute.type)
        case .value(let value): return kind(of: value)
        case .count: return .integer
        case .reference, .ownObject, .aggregate: return nil
        }
    }

    /// The kind of number a constant is.
    static func kind(of value: AttributeValue) -> Kind? {
        switch value {
        case .integer: return .integer
        case .double, .float: return .floating
        default: return nil
        }
    }

    /// Whether a constant is a number from 2^53 on (in magnitude).
    static func isLarge(_ value: AttributeValue) -> Bool {
        switch value {
        case .integer(let integer): return Double(integer.magnitude) >= firstInexactInteger
        case .double(let double): return double.magnitude >= firstInexactInteger
        case .float(let float): return Double(float.magnitude) >= firstInexactInteger
        default: return false
        }
    }

    private static func kind(of type: AttributeType) -> Kind? {
        switch type {
        case .integer16, .integer32, .integer64: return .integer
        case .double, .float: return .floating
        default: return nil
        }
    }
}
