extension FetchPredicate {
    /// The predicate with its `$name` variables replaced by `variables[name]`, as
    /// `NSPredicate.withSubstitutionVariables(_:)` does: `FetchPredicate(format: "age > $minimum")
    /// .withSubstitutionVariables(["minimum": 30])`. A variable after IN or BETWEEN takes an array.
    ///
    /// Throws `.invalidOperation` naming a variable that has no value, and `.typeMismatch` for a
    /// value a predicate cannot use. Values a predicate does not use are ignored.
    public func withSubstitutionVariables(_ variables: [String: Any?]) throws -> FetchPredicate {
        FetchPredicate(node: try Self.substitute(node, variables))
    }

    /// The names of the variables the predicate still uses, sorted.
    public var substitutionVariables: [String] {
        var names: Set<String> = []
        func collect(_ value: PredicateValue) {
            if case .variable(let name, _) = value { names.insert(name) }
        }
        func visit(_ node: PredicateNode) {
            switch node {
            case .constant, .invalid: break
            case .comparison(let lhs, _, let rhs):
                if case .value(let value) = lhs { collect(value) }
                if case .value(let value) = rhs { collect(value) }
            case .between(_, let lower, let upper):
                collect(lower)
                collect(upper)
            case .membership(_, let values): values.forEach(collect)
            case .text(_, _, _, let value): collect(value)
            case .quantified(_, let node), .not(let node): visit(node)
            case .and(let nodes), .or(let nodes): nodes.forEach(visit)
            }
        }
        visit(node)
        return names.sorted()
    }

    private static func substitute(_ node: PredicateNode, _ variables: [String: Any?]) throws -> PredicateNode {
        func scalar(_ value: PredicateValue) throws -> PredicateValue {
            guard case .variable(let name, _) = value else { return value }
            return try PredicateArguments.variable(try lookUp(name), name: name, asList: false)[0]
        }
        func lookUp(_ name: String) throws -> Any {
            guard let entry = variables[name] else {
                throw ObjectGraphError(
                    .invalidOperation,
                    "the predicate uses the variable $\(name), but no value was given for it (given: \(variables.keys.sorted().map { "$" + $0 }.joined(separator: ", ")))"
                )
            }
            return entry as Any
        }
        switch node {
        case .constant, .invalid:
            return node
        case .comparison(let lhs, let comparison, let rhs):
            func operand(_ operand: PredicateOperand) throws -> PredicateOperand {
                if case .value(let value) = operand { return .value(try scalar(value)) }
                return operand
            }
            return .comparison(try operand(lhs), comparison, try operand(rhs))
        case .between(let keyPath, .variable(let name, isList: true), _):
            let values = try PredicateArguments.variable(try lookUp(name), name: name, asList: true)
            guard values.count == 2 else {
                throw ObjectGraphError(
                    .typeMismatch, "variable $\(name) after BETWEEN must be an array of exactly two values, but it has \(values.count)")
            }
            return .between(keyPath, lower: values[0], upper: values[1])
        case .between(let keyPath, let lower, let upper):
            return .between(keyPath, lower: try scalar(lower), upper: try scalar(upper))
        case .membership(let keyPath, let values):
            if values.count == 1, case .variable(let name, isList: true) = values[0] {
                return .membership(keyPath, try PredicateArguments.variable(try lookUp(name), name: name, asList: true))
            }
            return .membership(keyPath, try values.map(scalar))
        case .text(let keyPath, let op, let options, let value):
            return .text(keyPath, op, options, try scalar(value))
        case .quantified(let quantifier, let node):
            return .quantified(quantifier, try substitute(node, variables))
        case .and(let nodes):
            return .and(try nodes.map { try substitute($0, variables) })
        case .or(let nodes):
            return .or(try nodes.map { try substitute($0, variables) })
        case .not(let node):
            return .not(try substitute(node, variables))
        }
    }
}
