/// Literals and format specifiers: the parts of the lexer that read more than a word.
extension PredicateLexer {
    /// A quoted string; backslash escapes `\\ \' \" \n \t \r \0 \uXXXX \u{X…}`, and `%%` for `%`.
    /// Format specifiers inside quotes are literal text, as in NSPredicate.
    mutating func string(closedBy quote: Unicode.Scalar, from start: Int) throws -> PredicateToken {
        var value = String.UnicodeScalarView()
        while position < scalars.count {
            let scalar = scalars[position]
            position += 1
            switch scalar {
            case quote:
                return token(.string(String(value)), from: start)
            case "%" where position < scalars.count && scalars[position] == "%":
                position += 1
                value.append("%")
            case "\\":
                value.append(try escape(at: position - 1))
            default:
                value.append(scalar)
            }
        }
        throw error("unterminated string: the \(quote) here is never closed", at: start)
    }

    /// The scalar an escape sequence starting at `backslash` stands for.
    private mutating func escape(at backslash: Int) throws -> Unicode.Scalar {
        guard position < scalars.count else { throw error("unterminated string: '\\' at the end of the predicate", at: backslash) }
        let scalar = scalars[position]
        position += 1
        switch scalar {
        case "\\", "'", "\"": return scalar
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "0": return "\0"
        case "u":
            let braced = consume("{")
            let digitsStart = position
            while position < scalars.count, scalars[position].properties.isASCIIHexDigit, position - digitsStart < (braced ? 8 : 4) {
                position += 1
            }
            let digits = text(from: digitsStart)
            let closed = !braced || consume("}")
            guard closed, braced ? !digits.isEmpty : digits.count == 4,
                let code = UInt32(digits, radix: 16), let result = Unicode.Scalar(code)
            else { throw error("invalid Unicode escape '\(text(from: backslash))'; write \\uXXXX or \\u{X…}", at: backslash) }
            return result
        default:
            throw error("unknown escape sequence '\\\(scalar.escaped(asASCII: false))' in a string", at: backslash)
        }
    }

    /// A `%` format specifier.
    mutating func specifier(from start: Int) throws -> PredicateToken {
        if consume("%") {
            throw error("'%%' (a literal percent sign) can only appear inside a quoted string", at: start)
        }
        for (spelling, specifier) in FormatSpecifier.spellings where matches(spelling) {
            position += spelling.unicodeScalars.count
            defer { specifierCount += 1 }
            return token(.argument(index: specifierCount, specifier), from: start)
        }
        let found = position < scalars.count ? "'%\(scalars[position].escaped(asASCII: false))'" : "'%' at the end"
        throw error("unknown format specifier \(found); use %@, %K, %d, %i, %ld, %lld, %u, %f, %lf or %s", at: start)
    }

    /// An integer (decimal, or 0x/0o/0b) or a double, with an optional leading '-'.
    mutating func number(from start: Int) throws -> PredicateToken {
        let negative = scalars[start] == "-"
        let digitsStart = negative ? start + 1 : start
        position = digitsStart
        var kind: PredicateToken.Kind
        if let radix = radixPrefix() {
            position += 2
            let magnitudeStart = position
            while position < scalars.count, scalars[position].properties.isASCIIHexDigit { position += 1 }
            guard let magnitude = UInt64(text(from: magnitudeStart), radix: radix) else {
                throw error("malformed number '\(text(from: start))'", at: start)
            }
            kind = Self.integerKind(magnitude: magnitude, negative: negative)
        } else {
            skipDigits()
            var isInteger = true
            if position + 1 < scalars.count, scalars[position] == ".", isDigit(scalars[position + 1]) {
                isInteger = false
                position += 1
                skipDigits()
            }
            if position < scalars.count, scalars[position] == "e" || scalars[position] == "E" {
                isInteger = false
                position += 1
                if position < scalars.count, scalars[position] == "+" || scalars[position] == "-" { position += 1 }
                guard position < scalars.count, isDigit(scalars[position]) else {
                    throw error("malformed number '\(text(from: start))': expected digits in the exponent", at: start)
                }
                skipDigits()
            }
            let literal = text(from: start)
            if isInteger, let value = Int64(literal) {
                kind = .integer(value)
            } else if let value = Double(literal) {
                kind = .double(value)  // also integers too large for Int64, as NSPredicate does
            } else {
                throw error("malformed number '\(literal)'", at: start)
            }
        }
        if position < scalars.count, isIdentifierStart(scalars[position]) || isDigit(scalars[position]) || scalars[position] == "." {
            position += 1
            throw error("malformed number '\(text(from: start))'", at: start)
        }
        return token(kind, from: start)
    }

    /// The radix of a `0x`, `0o` or `0b` prefix at the current position.
    private func radixPrefix() -> Int? {
        guard position + 1 < scalars.count, scalars[position] == "0" else { return nil }
        switch scalars[position + 1] {
        case "x", "X": return 16
        case "o", "O": return 8
        case "b", "B": return 2
        default: return nil
        }
    }

    /// An integer token for `±magnitude`; magnitudes beyond Int64 become doubles.
    private static func integerKind(magnitude: UInt64, negative: Bool) -> PredicateToken.Kind {
        if negative {
            if magnitude <= UInt64(Int64.max) { return .integer(-Int64(magnitude)) }
            if magnitude == UInt64(Int64.max) + 1 { return .integer(.min) }
            return .double(-Double(magnitude))
        }
        return magnitude <= UInt64(Int64.max) ? .integer(Int64(magnitude)) : .double(Double(magnitude))
    }
}
