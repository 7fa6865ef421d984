import Foundation

/// Lets an `Optional` hidden inside `Any` be recognised and unwrapped.
private protocol OptionalArgument {
    var wrappedArgument: Any? { get }
}

extension Optional: OptionalArgument {
    fileprivate var wrappedArgument: Any? { self.map { $0 } }
}

/// Converts the arguments of `FetchPredicate(format:…)` into predicate values.
enum PredicateArguments {
    /// The types an argument may have, for error messages.
    static let supportedTypes =
        "Int, Int8…Int64, UInt…UInt64, Double, Float, Decimal, String, Substring, Bool, Date, Data, UUID, URL, ManagedObject, ManagedObjectID, nil, or an array of these after IN or BETWEEN"

    /// A scalar argument (anything but an array) as a predicate value, checked against what its
    /// specifier promises. `position` is the 1-based argument number, for messages.
    static func scalar(_ argument: Any, specifier: FormatSpecifier, spelling: String, position: Int) throws -> PredicateValue {
        let value = try convert(argument, label: "argument \(position)")
        switch (specifier, value) {
        case (.object, _), (.integer, .integer), (.double, .double), (.string, .string):
            return value
        case (.double, .integer(let integer)):
            return .double(Double(integer))
        case (.integer, _), (.double, _), (.string, _), (.key, _):
            throw ObjectGraphError(
                .typeMismatch,
                "argument \(position) is \(describe(argument)) but \(spelling) expects \(expectation(specifier))")
        }
    }

    /// An array argument (for IN and BETWEEN), or a set (for IN: `acceptsSet`), as predicate values.
    static func array(_ argument: Any, position: Int, acceptsSet: Bool) throws -> [PredicateValue] {
        let value = unwrapped(argument)
        guard let elements = value as? [Any] ?? (acceptsSet ? (value as? any SetArgument)?.elementsInAnyOrder : nil) else {
            let needed = acceptsSet ? "IN needs an array or a set" : "BETWEEN needs an array"
            throw ObjectGraphError(.typeMismatch, "argument \(position) is \(describe(argument)) but \(needed)")
        }
        return try elements.map { element in
            if unwrapped(element) is [Any] {
                throw ObjectGraphError(.typeMismatch, "argument \(position) is an array of arrays; IN and BETWEEN need an array of values")
            }
            return try convert(element, label: "argument \(position)")
        }
    }

    /// A value given in code (`PredicateKey("age") > value`), named `label` in messages.
    static func value(_ value: Any, label: String) throws -> PredicateValue {
        try convert(value, label: label)
    }

    /// The value of the substitution variable `$name`: a scalar, or the elements of an array
    /// where the variable stands for a list (`IN $names`).
    static func variable(_ value: Any, name: String, asList: Bool) throws -> [PredicateValue] {
        let label = "variable $\(name)"
        guard asList else { return [try convert(value, label: label)] }
        guard let elements = unwrapped(value) as? [Any] else {
            throw ObjectGraphError(.typeMismatch, "\(label) is \(describe(value)) but it follows IN or BETWEEN, which need an array")
        }
        return try elements.map { try convert($0, label: label) }
    }

    /// Whether an argument is an array or a set (so it may only follow IN or BETWEEN).
    static func isArray(_ argument: Any) -> Bool {
        let value = unwrapped(argument)
        return value is [Any] || value is any SetArgument
    }

    /// The key path a `%K` argument names, split at dots.
    static func keyPath(_ argument: Any, position: Int) throws -> [String] {
        let text: String
        switch unwrapped(argument) {
        case let string as String: text = string
        case let substring as Substring: text = String(substring)
        default:
            throw ObjectGraphError(.typeMismatch, "argument \(position) is \(describe(argument)) but %K expects a key path string")
        }
        let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !components.contains(where: \.isEmpty) else {
            throw ObjectGraphError(.unknownKey, "argument \(position) for %K is \"\(text)\", which is not a key path", key: text)
        }
        return components
    }

    // MARK: - Conversion

    /// One non-array value. Optionals are unwrapped; `.none` and `NSNull` are nil; an `NSNumber`
    /// is the Swift number it holds.
    private static func convert(_ argument: Any, label: String) throws -> PredicateValue {
        switch unwrapped(argument).map(NumberBridging.unbridged) {
        case nil, is NSNull: return .null
        case let value as Bool: return .boolean(value)
        case let value as Int: return .integer(Int64(value))
        case let value as Int8: return .integer(Int64(value))
        case let value as Int16: return .integer(Int64(value))
        case let value as Int32: return .integer(Int64(value))
        case let value as Int64: return .integer(value)
        case let value as UInt: return unsigned(UInt64(value))
        case let value as UInt8: return .integer(Int64(value))
        case let value as UInt16: return .integer(Int64(value))
        case let value as UInt32: return .integer(Int64(value))
        case let value as UInt64: return unsigned(value)
        case let value as Double: return try finite(value, label: label)
        case let value as Float: return try finite(Double(value), label: label)
        case let value as Decimal:
            guard !value.isNaN else { throw nanError(label: label) }
            return .decimal(value)
        case let value as String: return .string(value)
        case let value as Substring: return .string(String(value))
        case let value as Date:
            guard !value.timeIntervalSinceReferenceDate.isNaN else { throw nanError(label: label) }
            return .date(value)
        case let value as Data: return .data(value)
        case let value as UUID: return .uuid(value)
        case let value as URL: return .url(value)
        case let value as ManagedObject: return .object(value.objectID)
        case let value as ManagedObjectID: return .object(value)
        case is [Any]:
            throw ObjectGraphError(.typeMismatch, "\(label) is an array; arrays may only follow IN or BETWEEN")
        default:
            throw ObjectGraphError(
                .typeMismatch,
                "\(label) has type \(describe(argument)), which a predicate cannot use; supported: \(supportedTypes)")
        }
    }

    /// The argument with every level of Optional removed; `nil` for `.none`.
    private static func unwrapped(_ argument: Any) -> Any? {
        var current: Any = argument
        while let optional = current as? any OptionalArgument {
            guard let wrapped = optional.wrappedArgument else { return nil }
            current = wrapped
        }
        return current
    }

    /// Unsigned values beyond Int64 become doubles: they still compare correctly with every
    /// stored integer (all of which are smaller).
    private static func unsigned(_ value: UInt64) -> PredicateValue {
        value <= UInt64(Int64.max) ? .integer(Int64(value)) : .double(Double(value))
    }

    private static func finite(_ value: Double, label: String) throws -> PredicateValue {
        guard !value.isNaN else { throw nanError(label: label) }
        return .double(value)
    }

    private static func nanError(label: String) -> ObjectGraphError {
        ObjectGraphError(
            .typeMismatch,
            "\(label) is NaN, which no stored value can equal or be ordered against (stores refuse NaN)")
    }

    private static func describe(_ argument: Any) -> String {
        guard let value = unwrapped(argument) else { return "nil" }
        return "\(type(of: value))"
    }

    private static func expectation(_ specifier: FormatSpecifier) -> String {
        switch specifier {
        case .object: "a value"
        case .key: "a key path string"
        case .integer: "an integer"
        case .double: "a number"
        case .string: "a string"
        }
    }
}

/// A set given for `IN %@` (NSPredicate takes sets there too); membership ignores the order.
protocol SetArgument {
    var elementsInAnyOrder: [Any] { get }
}

extension Set: SetArgument {
    var elementsInAnyOrder: [Any] { Array(self) }
}

extension NSSet: SetArgument {
    var elementsInAnyOrder: [Any] { allObjects }
}
