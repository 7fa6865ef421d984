/// Splits a predicate format string into tokens, one at a time, as the parser asks for them (so
/// errors are reported in the order they occur in the text).
///
/// Works on Unicode scalars: columns count scalars from 1, and no grapheme clustering can merge a
/// quote with the character after it.
struct PredicateLexer {
    let format: String
    let scalars: [Unicode.Scalar]
    /// The index of the next scalar to read.
    var position = 0
    /// How many format specifiers have been read; the next one consumes this argument index.
    var specifierCount = 0

    init(format: String) {
        self.format = format
        self.scalars = Array(format.unicodeScalars)
    }

    /// The next token, `.end` once the format is exhausted.
    mutating func next() throws -> PredicateToken {
        while position < scalars.count, scalars[position].properties.isWhitespace { position += 1 }
        guard position < scalars.count else { return PredicateToken(kind: .end, column: position + 1, text: "") }
        let start = position
        let scalar = scalars[position]
        position += 1
        switch scalar {
        case "(": return token(.leftParenthesis, from: start)
        case ")": return token(.rightParenthesis, from: start)
        case "{": return token(.leftBrace, from: start)
        case "}": return token(.rightBrace, from: start)
        case ",": return token(.comma, from: start)
        case "=":
            if consume("=") { return token(.comparison(.equal), from: start) }
            if consume("<") { return token(.comparison(.lessOrEqual), from: start) }
            if consume(">") { return token(.comparison(.greaterOrEqual), from: start) }
            return token(.comparison(.equal), from: start)
        case "!":
            return token(consume("=") ? .comparison(.notEqual) : .not, from: start)
        case "<":
            if consume("=") { return token(.comparison(.lessOrEqual), from: start) }
            if consume(">") { return token(.comparison(.notEqual), from: start) }
            return token(.comparison(.less), from: start)
        case ">":
            return token(.comparison(consume("=") ? .greaterOrEqual : .greater), from: start)
        case "&":
            guard consume("&") else { throw error("a single '&' is not an operator; write '&&' or AND", at: start) }
            return token(.and, from: start)
        case "|":
            guard consume("|") else { throw error("a single '|' is not an operator; write '||' or OR", at: start) }
            return token(.or, from: start)
        case "'", "\"": return try string(closedBy: scalar, from: start)
        case "%": return try specifier(from: start)
        case "#":
            guard let name = identifier() else { throw error("expected a key after '#'", at: start) }
            return try keyPath(first: name, from: start)
        case "$":
            guard let name = identifier() else { throw error("expected a variable name after '$'", at: start) }
            // `$b.year` inside a SUBQUERY is a key path starting at the variable.
            if position < scalars.count, scalars[position] == "." { return try keyPath(first: "$" + name, from: start) }
            return token(.variable(name), from: start)
        case "." where position < scalars.count && scalars[position] == "@":
            // `).@count` closing a SUBQUERY.
            position += 1
            guard identifier() == "count" else { return token(.unsupported(text(from: start)), from: start) }
            return token(.countSuffix, from: start)
        case "@":
            // Collection operators stand after a key path (books.@count), never alone.
            _ = identifier()
            return token(.unsupported(text(from: start)), from: start)
        case "-" where position < scalars.count && isDigit(scalars[position]):
            return try number(from: start)
        case "[":
            return try options(from: start)
        case "-", "+", "/", "]", ":", "*":
            if scalar == "*" { _ = consume("*") }
            return token(.unsupported(text(from: start)), from: start)
        case _ where isDigit(scalar):
            return try number(from: start)
        case _ where isIdentifierStart(scalar):
            position = start
            let word = identifier() ?? ""
            let upper = word.uppercased()
            if let keyword = PredicateKeywords.supported[upper] { return token(keyword, from: start) }
            if PredicateKeywords.unsupported.contains(upper) { return token(.unsupported(word), from: start) }
            let path = try keyPath(first: word, from: start)
            guard upper == PredicateKeywords.selfKeyword, case .keyPath(let components) = path.kind else { return path }
            return token(.keyPath(Array(components.dropFirst())), from: start)
        default:
            throw error("unexpected character '\(scalar.escaped(asASCII: false))'", at: start)
        }
    }

    // MARK: - Pieces

    /// `[c]`, `[d]`, `[cd]` (or `[dc]`): the options of a string comparison.
    private mutating func options(from start: Int) throws -> PredicateToken {
        var options: TextOptions = []
        while position < scalars.count, scalars[position] != "]" {
            switch scalars[position] {
            case "c", "C": options.insert(.caseInsensitive)
            case "d", "D": options.insert(.diacriticInsensitive)
            default:
                throw error(
                    "unknown comparison option '\(scalars[position].escaped(asASCII: false))' in '[…]', expected [c], [d] or [cd]",
                    at: position)
            }
            position += 1
        }
        guard consume("]"), !options.isEmpty else {
            throw error("expected comparison options [c], [d] or [cd]", at: start)
        }
        return token(.options(options), from: start)
    }

    /// A key path whose first component has been read: `.component` repeats while they follow.
    private mutating func keyPath(first: String, from start: Int) throws -> PredicateToken {
        var components = [first]
        while position < scalars.count, scalars[position] == "." {
            let dot = position
            position += 1
            if consume("#"), let name = identifier() {
                components.append(name)
            } else if position < scalars.count, scalars[position] == "@" {
                let operatorStart = position
                position += 1
                let name = identifier() ?? ""
                guard CollectionOperator(rawValue: "@" + name) != nil else {
                    return token(.unsupported(text(from: operatorStart)), from: operatorStart)
                }
                components.append("@" + name)
            } else if let name = identifier() {
                components.append(name)
            } else {
                throw error("expected a key after '.' in '\(text(from: start))'", at: dot + 1)
            }
        }
        return token(.keyPath(components), from: start)
    }

    /// `[A-Za-z_][A-Za-z0-9_]*` at the current position, or `nil` (position unchanged).
    private mutating func identifier() -> String? {
        guard position < scalars.count, isIdentifierStart(scalars[position]) else { return nil }
        let start = position
        while position < scalars.count, isIdentifierStart(scalars[position]) || isDigit(scalars[position]) {
            position += 1
        }
        return text(from: start)
    }

    // MARK: - Helpers

    mutating func skipDigits() {
        while position < scalars.count, isDigit(scalars[position]) { position += 1 }
    }

    mutating func consume(_ scalar: Unicode.Scalar) -> Bool {
        guard position < scalars.count, scalars[position] == scalar else { return false }
        position += 1
        return true
    }

    func matches(_ spelling: String) -> Bool {
        var index = position
        for scalar in spelling.unicodeScalars {
            guard index < scalars.count, scalars[index] == scalar else { return false }
            index += 1
        }
        return true
    }

    func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
    }

    func text(from start: Int) -> String {
        String(String.UnicodeScalarView(scalars[start..<min(position, scalars.count)]))
    }

    func token(_ kind: PredicateToken.Kind, from start: Int) -> PredicateToken {
        PredicateToken(kind: kind, column: start + 1, text: text(from: start))
    }

    func error(_ message: String, at index: Int) -> ObjectGraphError {
        predicateSyntaxError(message, column: index + 1, format: format)
    }
}

/// An error located in a predicate format: "at column N: what was expected and found (predicate: …)".
func predicateSyntaxError(
    _ message: String, column: Int, format: String, kind: ObjectGraphError.Kind = .predicateSyntax, key: String? = nil
) -> ObjectGraphError {
    let scalars = format.unicodeScalars
    let shown =
        scalars.count > 120
        ? String(String.UnicodeScalarView(scalars.prefix(120))) + "…"
        : format
    return ObjectGraphError(kind, "at column \(column): \(message) (predicate: \(shown))", key: key)
}
