/// A recursive-descent parser for the predicate format syntax documented on `FetchPredicate`.
///
/// Grammar (precedence NOT > AND > OR):
/// ```
/// predicate  := or END
/// or         := and (("OR" | "||") and)*
/// and        := not (("AND" | "&&") not)*
/// not        := ("NOT" | "!")* primary
/// primary    := "(" or ")" | TRUEPREDICATE | FALSEPREDICATE | comparison
/// comparison := operand (op operand | "IN" list | "BETWEEN" list)
/// operand    := keypath | %K | value
/// list       := "{" [value ("," value)*] "}" | %@ (an array)
/// ```
/// Nesting (parentheses and NOTs) is capped so no input can exhaust the stack.
struct PredicateParser {
    /// The deepest nesting of parentheses and NOTs accepted.
    static let maximumDepth = 500

    private var lexer: PredicateLexer
    private var current: PredicateToken
    private let arguments: [Any]
    private var depth = 0
    /// The variables of the SUBQUERYs being parsed, innermost last: alone (`$b == %@`), one is
    /// the member itself, a key path of just the variable.
    private var subqueryVariables: [String] = []

    /// Parses `format`, substituting `arguments` for its `%` specifiers in order.
    static func parse(format: String, arguments: [Any]) throws -> PredicateNode {
        var parser = try PredicateParser(format: format, arguments: arguments)
        return try parser.parsePredicate()
    }

    private init(format: String, arguments: [Any]) throws {
        self.lexer = PredicateLexer(format: format)
        self.arguments = arguments
        self.current = try lexer.next()
    }

    private mutating func advance() throws {
        current = try lexer.next()
    }

    private mutating func parsePredicate() throws -> PredicateNode {
        if case .end = current.kind {
            throw error("expected a predicate but the format is empty (TRUEPREDICATE matches everything)", at: current)
        }
        let node = try parseOr()
        switch current.kind {
        case .end: break
        case .rightParenthesis: throw error("unexpected ')' without a matching '('", at: current)
        default: throw expected("AND, OR or the end of the predicate")
        }
        if arguments.count > lexer.specifierCount {
            throw ObjectGraphError(
                .predicateSyntax,
                "\(arguments.count) arguments were given but the predicate uses only \(lexer.specifierCount) (predicate: \(lexer.format))")
        }
        return node
    }

    private mutating func parseOr() throws -> PredicateNode {
        var operands = [try parseAnd()]
        while case .or = current.kind {
            try advance()
            operands.append(try parseAnd())
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    private mutating func parseAnd() throws -> PredicateNode {
        var operands = [try parseNot()]
        while case .and = current.kind {
            try advance()
            operands.append(try parseNot())
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    private mutating func parseNot() throws -> PredicateNode {
        var negations = 0
        while case .not = current.kind {
            try enter(current)
            negations += 1
            try advance()
        }
        var node = try parsePrimary()
        for _ in 0..<negations { node = .not(node) }
        depth -= negations
        return node
    }

    private mutating func parsePrimary() throws -> PredicateNode {
        switch current.kind {
        case .leftParenthesis:
            let open = current
            try enter(open)
            try advance()
            let node = try parseOr()
            switch current.kind {
            case .rightParenthesis: try advance()
            case .end: throw error("'(' is never closed", at: open)
            default: throw expected("')' to close the '(' at column \(open.column), AND or OR")
            }
            depth -= 1
            return node
        case .quantifier(let quantifier):
            try advance()
            return .quantified(quantifier, try parseComparison())
        case .truePredicate:
            try advance()
            return .constant(true)
        case .falsePredicate:
            try advance()
            return .constant(false)
        default:
            return try parseComparison()
        }
    }

    private mutating func parseComparison() throws -> PredicateNode {
        let leftToken = current
        guard let left = try parseOperand() else {
            throw expected("a comparison, '(', NOT, TRUEPREDICATE or FALSEPREDICATE")
        }
        let operatorToken = current
        switch operatorToken.kind {
        case .comparison(let comparison):
            try advance()
            if case .options(let options) = current.kind {
                guard comparison == .equal || comparison == .notEqual else {
                    throw error(
                        "options like \(current.text) apply to ==, != and the string operators, not to '\(operatorToken.text)'", at: current
                    )
                }
                try advance()
                return try parseText(left, leftToken, comparison == .equal ? .equal : .notEqual, options, operatorToken)
            }
            guard let right = try parseOperand() else { throw expected("a value or key after '\(operatorToken.text)'") }
            if case .value = left, case .value = right {
                throw error(
                    "a comparison needs a key on at least one side, but both sides of '\(operatorToken.text)' are values", at: leftToken)
            }
            return .comparison(left, comparison, right)
        case .textOperator(let op):
            try advance()
            var options: TextOptions = []
            if case .options(let given) = current.kind {
                options = given
                try advance()
            }
            return try parseText(left, leftToken, op, options, operatorToken)
        case .in, .between:
            if case .in = operatorToken.kind, case .value(let value) = left {
                // `%@ IN books`: NSPredicate's "the collection holds the value", ANY's other spelling.
                try advance()
                guard case .keyPath(let collection) = current.kind else {
                    throw expected(
                        "a to-many key path after '\(leftToken.text) IN' (a value IN a collection: %@ IN books, 'x' IN tags.name)")
                }
                try advance()
                return .quantified(.any, .comparison(.keyPath(collection), .equal, .value(value)))
            }
            guard case .keyPath(let keyPath) = left else {
                throw error("the left side of \(operatorToken.text.uppercased()) must be a key, not a value", at: leftToken)
            }
            try advance()
            if case .options(let options) = current.kind {
                guard case .in = operatorToken.kind else {
                    throw error("options like \(current.text) apply to ==, !=, IN and the string operators, not to BETWEEN", at: current)
                }
                try advance()
                return try parseTextMembership(keyPath, options, after: operatorToken)
            }
            let list = try parseList(after: operatorToken)
            guard case .between = operatorToken.kind else { return .membership(keyPath, list.values) }
            if list.values.count == 1, case .variable = list.values[0] {
                return .between(keyPath, lower: list.values[0], upper: list.values[0])
            }
            guard list.values.count == 2 else {
                throw error("BETWEEN needs exactly two values {lower, upper} but found \(list.values.count)", at: list.token)
            }
            return .between(keyPath, lower: list.values[0], upper: list.values[1])
        case .not:
            // NSPredicate has no infix NOT: `name NOT IN {…}` is written `NOT (name IN {…})`.
            throw error(
                "NOT cannot follow \(leftToken.quoted): negate the whole comparison, as in NOT (\(leftToken.text) IN {…})", at: current)
        default:
            var expectation =
                "a comparison operator (==, !=, <, <=, >, >=, IN, BETWEEN, BEGINSWITH, ENDSWITH, CONTAINS, LIKE or MATCHES) after \(leftToken.quoted)"
            if case .keyPath = left { expectation += " (a Boolean key is tested with '\(leftToken.text) == YES')" }
            throw expected(expectation)
        }
    }

    /// `SUBQUERY(collection, $variable, predicate).@count`.
    private mutating func parseSubquery() throws -> PredicateOperand {
        let keyword = current
        try enter(keyword)
        try advance()
        guard case .leftParenthesis = current.kind else { throw expected("'(' after SUBQUERY") }
        try advance()
        guard case .keyPath(let collection) = current.kind else { throw expected("the to-many key path a SUBQUERY goes through") }
        try advance()
        guard case .comma = current.kind else { throw expected("',' after the SUBQUERY's key path") }
        try advance()
        guard case .variable(let variable) = current.kind else { throw expected("a variable ($name) naming each object of the SUBQUERY") }
        try advance()
        guard case .comma = current.kind else { throw expected("',' after the SUBQUERY's variable") }
        try advance()
        subqueryVariables.append(variable)
        let predicate = try parseOr()
        subqueryVariables.removeLast()
        guard case .rightParenthesis = current.kind else { throw expected("')' to close the SUBQUERY") }
        try advance()
        guard case .countSuffix = current.kind else {
            throw expected("'.@count' after the SUBQUERY (the only operator a SUBQUERY supports)")
        }
        try advance()
        depth -= 1
        return .subqueryCount(collection: collection, variable: variable, predicate: predicate)
    }

    /// The right side of a string comparison: `key OP[options] value`, key on the left.
    private mutating func parseText(
        _ left: PredicateOperand, _ leftToken: PredicateToken, _ op: TextOperator, _ options: TextOptions, _ operatorToken: PredicateToken
    ) throws -> PredicateNode {
        guard case .keyPath(let keyPath) = left else {
            throw error("the left side of \(operatorToken.text.uppercased()) must be a key, not a value", at: leftToken)
        }
        let valueToken = current
        guard let right = try parseOperand() else { throw expected("a value after '\(operatorToken.text)\(options.spelling)'") }
        guard case .value(let value) = right else {
            throw error(
                "the right side of \(operatorToken.text.uppercased())\(options.spelling) must be a value, not a key", at: valueToken)
        }
        return .text(keyPath, op, options, value)
    }

    /// A key path or a value, or `nil` (nothing consumed) if the current token is neither.
    private mutating func parseOperand() throws -> PredicateOperand? {
        let token = current
        switch token.kind {
        case .subquery:
            return try parseSubquery()
        case .keyPath(let components):
            try advance()
            return .keyPath(components)
        case .variable(let name) where subqueryVariables.contains(name):
            try advance()
            return .keyPath(["$" + name])
        case .argument(let index, .key):
            let argument = try argument(index, for: token)
            let components = try located(token) { try PredicateArguments.keyPath(argument, position: index + 1) }
            try advance()
            return .keyPath(components)
        default:
            return try parseValue().map(PredicateOperand.value)
        }
    }

    /// A literal or a scalar argument, or `nil` (nothing consumed) if the current token is neither.
    private mutating func parseValue() throws -> PredicateValue? {
        let token = current
        let value: PredicateValue
        switch token.kind {
        case .integer(let integer): value = .integer(integer)
        case .double(let double): value = .double(double)
        case .string(let string): value = .string(string)
        case .boolean(let boolean): value = .boolean(boolean)
        case .null: value = .null
        case .variable(let name): value = .variable(name, isList: false)
        case .argument(let index, let specifier) where specifier != .key:
            let argument = try argument(index, for: token)
            if PredicateArguments.isArray(argument) {
                throw error("argument \(index + 1) is an array; arrays may only follow IN or BETWEEN", at: token, kind: .typeMismatch)
            }
            value = try located(token) {
                try PredicateArguments.scalar(argument, specifier: specifier, spelling: token.text, position: index + 1)
            }
        case .unsupported(let text):
            throw error("'\(text)' is not supported yet", at: token)
        default:
            return nil
        }
        try advance()
        return value
    }

    /// The list after `keyPath IN[cd]`, as NSPredicate reads it: the key equals one of the
    /// strings under the options (`title ==[cd] 'a' OR title ==[cd] 'b'`), so none is false.
    private mutating func parseTextMembership(
        _ keyPath: [String], _ options: TextOptions, after keyword: PredicateToken
    ) throws -> PredicateNode {
        let list = try parseList(after: keyword)
        if list.values.contains(where: { if case .variable = $0 { true } else { false } }) {
            throw error("IN\(options.spelling) takes a list {…} or an array argument, not a substitution variable", at: list.token)
        }
        let alternatives = list.values.map { PredicateNode.text(keyPath, .equal, options, $0) }
        switch alternatives.count {
        case 0: return .constant(false)
        case 1: return alternatives[0]
        default: return .or(alternatives)
        }
    }

    /// The list after IN or BETWEEN: `{a, b, …}` or an array argument. Returns the values and the
    /// token that started the list, for messages.
    private mutating func parseList(after keyword: PredicateToken) throws -> (values: [PredicateValue], token: PredicateToken) {
        let open = current
        switch open.kind {
        case .argument(let index, .object):
            let argument = try argument(index, for: open)
            let acceptsSet = if case .in = keyword.kind { true } else { false }
            let values = try located(open) { try PredicateArguments.array(argument, position: index + 1, acceptsSet: acceptsSet) }
            try advance()
            return (values, open)
        case .variable(let name):
            try advance()
            return ([.variable(name, isList: true)], open)
        case .leftBrace:
            try advance()
            var values: [PredicateValue] = []
            if case .rightBrace = current.kind {
                try advance()
                return (values, open)
            }
            while true {
                if case .keyPath = current.kind {
                    throw error("a list holds values, not keys such as \(current.quoted)", at: current)
                }
                guard let value = try parseValue() else { throw expected("a value in the list") }
                values.append(value)
                switch current.kind {
                case .comma: try advance()
                case .rightBrace:
                    try advance()
                    return (values, open)
                case .end: throw error("'{' is never closed", at: open)
                default: throw expected("',' or '}' in the list that starts at column \(open.column)")
                }
            }
        default:
            throw expected("'{' or an array argument (%@) after \(keyword.text.uppercased())")
        }
    }

    // MARK: - Helpers

    /// One more level of nesting, refused beyond `maximumDepth`.
    private mutating func enter(_ token: PredicateToken) throws {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw error("the predicate nests parentheses and NOTs more than \(Self.maximumDepth) levels deep", at: token)
        }
    }

    /// The argument a specifier consumes, or a located error when there are too few.
    private func argument(_ index: Int, for token: PredicateToken) throws -> Any {
        guard index < arguments.count else {
            throw error(
                "\(token.quoted) has no argument: the predicate uses at least \(index + 1) but \(arguments.count) were given",
                at: token)
        }
        return arguments[index]
    }

    /// Runs `body`, prefixing any error it throws with the token's column.
    private func located<T>(_ token: PredicateToken, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as ObjectGraphError {
            throw error(failure.message, at: token, kind: failure.kind, key: failure.key)
        }
    }

    /// "Expected X but found Y" at the current token, or "'Y' is not supported yet" when Y is
    /// NSPredicate syntax this version does not handle.
    private func expected(_ expectation: String) -> ObjectGraphError {
        if case .unsupported(let text) = current.kind {
            return error("'\(text)' is not supported yet", at: current)
        }
        return error("expected \(expectation) but found \(current.quoted)", at: current)
    }

    private func error(
        _ message: String, at token: PredicateToken, kind: ObjectGraphError.Kind = .predicateSyntax, key: String? = nil
    ) -> ObjectGraphError {
        predicateSyntaxError(message, column: token.column, format: lexer.format, kind: kind, key: key)
    }
}
