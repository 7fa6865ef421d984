import Foundation

/// Renders a predicate tree back to format syntax, for `FetchPredicate.description`.
enum PredicateFormatter {
    static func render(_ node: PredicateNode) -> String {
        switch node {
        case .constant(let value):
            return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let lhs, let comparison, let rhs):
            return "\(render(lhs)) \(comparison.symbol) \(render(rhs))"
        case .between(let keyPath, .variable(let name, isList: true), _):
            return "\(render(.keyPath(keyPath))) BETWEEN $\(name)"
        case .between(let keyPath, let lower, let upper):
            return "\(render(.keyPath(keyPath))) BETWEEN {\(render(lower)), \(render(upper))}"
        case .membership(let keyPath, let values):
            if values.count == 1, case .variable(let name, isList: true) = values[0] { return "\(render(.keyPath(keyPath))) IN $\(name)" }
            return "\(render(.keyPath(keyPath))) IN {\(values.map(render).joined(separator: ", "))}"
        case .invalid(let message):
            // Not valid syntax on purpose: such a predicate cannot be used, only read.
            return "<invalid: \(message)>"
        case .quantified(let quantifier, let comparison):
            return "\(quantifier.rawValue) \(render(comparison))"
        case .text(let keyPath, let op, let options, let value):
            return "\(render(.keyPath(keyPath))) \(op.rawValue)\(options.spelling) \(render(value))"
        case .and(let operands):
            return operands.map(renderOperand).joined(separator: " AND ")
        case .or(let operands):
            return operands.map(renderOperand).joined(separator: " OR ")
        case .not(let operand):
            return "NOT \(renderOperand(operand))"
        }
    }

    /// An operand of AND, OR or NOT: compound operands are parenthesised, so the text parses back
    /// to the same tree (not merely an equivalent one).
    private static func renderOperand(_ node: PredicateNode) -> String {
        switch node {
        case .and, .or: "(\(render(node)))"
        default: render(node)
        }
    }

    private static func render(_ operand: PredicateOperand) -> String {
        switch operand {
        case .keyPath([]):
            return PredicateKeywords.selfKeyword
        case .keyPath(let components):
            // Only the first component could be read as a keyword; `#` marks it as a key.
            let first = components.first.map { PredicateKeywords.isReserved($0) ? "#\($0)" : $0 } ?? ""
            return ([first] + components.dropFirst()).joined(separator: ".")
        case .value(let value):
            return render(value)
        case .subqueryCount(let collection, let variable, let predicate):
            return "SUBQUERY(\(render(.keyPath(collection))), $\(variable), \(render(predicate))).@count"
        }
    }

    static func render(_ value: PredicateValue) -> String {
        switch value {
        case .null: "nil"
        case .integer(let integer): "\(integer)"
        case .double(let double): render(double)
        case .decimal(let decimal): "\(decimal)"
        case .string(let string): quote(string)
        case .boolean(let boolean): boolean ? "YES" : "NO"
        case .date(let date): "CAST(\(render(date.timeIntervalSinceReferenceDate)), \"NSDate\")"
        case .data(let data): "<\(data.map { String(format: "%02x", $0) }.joined())>"
        case .uuid(let uuid): quote(uuid.uuidString)
        case .url(let url): quote(url.absoluteString)
        case .object(let objectID): "<\(objectID.uriRepresentation().absoluteString)>"
        case .variable(let name, _): "$\(name)"
        }
    }

    /// A double literal that parses back to the same value; infinities overflow on purpose.
    private static func render(_ double: Double) -> String {
        if double.isInfinite { return double < 0 ? "-1e999" : "1e999" }
        return "\(double)"
    }

    /// A double-quoted string literal with the escapes the lexer understands.
    private static func quote(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\0": result += "\\0"
            case "%": result += "%%"
            case _ where scalar.properties.generalCategory == .control:
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
