/// A JSON syntax error with the line and column where parsing stopped.
struct JSONSyntaxError: Error, Sendable {
    let message: String
    let position: SourcePosition
}

/// A strict RFC 8259 JSON parser that records where every value starts.
///
/// Foundation's `JSONSerialization` reports syntax errors with positions that differ between
/// platforms (and are often missing on Linux), and it forgets positions once parsing succeeds.
/// Model files are written by hand, so every error must point at a line and column: this parser
/// keeps them. It accepts exactly RFC 8259 JSON (plus a leading UTF-8 byte order mark): no comments,
/// no trailing commas, no NaN.
struct ModelJSONParser {
    /// Deeper nesting than this is refused rather than risking the stack on hostile input.
    static let maximumDepth = 256

    private let bytes: [UInt8]
    private var offset = 0
    private var line = 1
    private var column = 1
    private var depth = 0

    /// Parses `bytes` as one JSON document.
    static func parse(_ bytes: some Sequence<UInt8>) throws(JSONSyntaxError) -> JSONNode {
        var parser = ModelJSONParser(bytes: Array(bytes))
        return try parser.parseDocument()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
    }

    private var position: SourcePosition { SourcePosition(line: line, column: column) }
    private var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func parseDocument() throws(JSONSyntaxError) -> JSONNode {
        skipWhitespace()
        guard current != nil else { throw error("the document is empty; expected a JSON object") }
        let node = try parseValue()
        skipWhitespace()
        if current != nil { throw error("found \(describeCurrent()) after the end of the JSON value; expected nothing more") }
        return node
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        let start = position
        guard let byte = current else { throw error("found the end of the input; expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return JSONNode(value: .object(try parseObject()), position: start)
        case UInt8(ascii: "["): return JSONNode(value: .array(try parseArray()), position: start)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try parseString()), position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try parseNumber()), position: start)
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return JSONNode(value: try parseLiteral(), position: start)
        default:
            throw error("found \(describeCurrent()); expected a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> [JSONMember] {
        try enterContainer()
        advance()  // {
        var members: [JSONMember] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            advance()
            depth -= 1
            return members
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                if current == UInt8(ascii: "}"), !members.isEmpty { throw error("found '}' after a comma; JSON allows no trailing comma") }
                throw error("found \(describeCurrent()); expected a member name in double quotes")
            }
            let keyPosition = position
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("found \(describeCurrent()) after member name \"\(key)\"; expected ':'") }
            advance()
            skipWhitespace()
            members.append(JSONMember(key: key, keyPosition: keyPosition, value: try parseValue()))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "}"):
                advance()
                depth -= 1
                return members
            default: throw error("found \(describeCurrent()) after the value of \"\(key)\"; expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> [JSONNode] {
        try enterContainer()
        advance()  // [
        var elements: [JSONNode] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            advance()
            depth -= 1
            return elements
        }
        while true {
            skipWhitespace()
            if current == UInt8(ascii: "]"), !elements.isEmpty { throw error("found ']' after a comma; JSON allows no trailing comma") }
            elements.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "]"):
                advance()
                depth -= 1
                return elements
            default: throw error("found \(describeCurrent()) after an array element; expected ',' or ']'")
            }
        }
    }

    private mutating func enterContainer() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("values are nested more than \(Self.maximumDepth) levels deep") }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = position
        advance()  // opening quote
        var utf8: [UInt8] = []
        while true {
            guard let byte = current else {
                throw JSONSyntaxError(message: "the string starting here is never closed; expected '\"'", position: start)
            }
            switch byte {
            case UInt8(ascii: "\""):
                advance()
                guard let string = String(validating: utf8, as: UTF8.self) else {
                    throw JSONSyntaxError(message: "the string starting here is not valid UTF-8", position: start)
                }
                return string
            case UInt8(ascii: "\\"):
                try parseEscape(into: &utf8)
            case 0x00..<0x20:
                throw error(
                    "found a raw control character (\(byte == 0x0A ? "a line break" : "code \(byte)")) inside a string; write it as an escape such as \\n"
                )
            default:
                utf8.append(byte)
                advance()
            }
        }
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONSyntaxError) {
        let escapePosition = position
        advance()  // backslash
        guard let byte = current else { throw error("the input ends inside an escape sequence") }
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09
        ]
        if let replacement = simple[byte] {
            utf8.append(replacement)
            advance()
            return
        }
        guard byte == UInt8(ascii: "u") else {
            throw JSONSyntaxError(
                message: "found the escape \\\(describeByte(byte)); expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX",
                position: escapePosition)
        }
        advance()
        var scalarValue = try parseHexQuad(escapeStart: escapePosition)
        if (0xD800..<0xDC00).contains(scalarValue) {
            // A high surrogate must be followed by a \u low surrogate; together they form one scalar.
            guard current == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u") else {
                throw JSONSyntaxError(
                    message: "found an unpaired UTF-16 high surrogate; expected a following \\uDC00–\\uDFFF escape",
                    position: escapePosition)
            }
            advance()
            advance()
            let low = try parseHexQuad(escapeStart: escapePosition)
            guard (0xDC00..<0xE000).contains(low) else {
                throw JSONSyntaxError(
                    message: "found an unpaired UTF-16 high surrogate; expected a following \\uDC00–\\uDFFF escape",
                    position: escapePosition)
            }
            scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(scalarValue) else {
            throw JSONSyntaxError(message: "found an unpaired UTF-16 low surrogate", position: escapePosition)
        }
        utf8.append(contentsOf: Array(String(Character(scalar)).utf8))
    }

    private mutating func parseHexQuad(escapeStart: SourcePosition) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = hexDigitValue(byte) else {
                throw JSONSyntaxError(message: "found an incomplete \\u escape; expected four hexadecimal digits", position: escapeStart)
            }
            value = value << 4 | digit
            advance()
        }
        return value
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = offset
        let startPosition = position
        if current == UInt8(ascii: "-") { advance() }
        guard let first = current, isDigit(first) else { throw error("found \(describeCurrent()) after '-'; expected a digit") }
        advance()
        if first == UInt8(ascii: "0"), let next = current, isDigit(next) {
            throw JSONSyntaxError(
                message: "found a number with a leading zero; JSON numbers cannot start with 0 unless they are 0", position: startPosition)
        }
        while let byte = current, isDigit(byte) { advance() }
        if current == UInt8(ascii: ".") {
            advance()
            guard let byte = current, isDigit(byte) else {
                throw error("found \(describeCurrent()) after the decimal point; expected a digit")
            }
            while let byte = current, isDigit(byte) { advance() }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            advance()
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
            guard let byte = current, isDigit(byte) else { throw error("found \(describeCurrent()) in an exponent; expected a digit") }
            while let byte = current, isDigit(byte) { advance() }
        }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    /// Reads a bare word: `true`, `false` or `null`, or an error naming the whole word, which is
    /// clearer than pointing at its first letter (`True`, `NaN`, an unquoted name).
    private mutating func parseLiteral() throws(JSONSyntaxError) -> JSONNode.Value {
        let start = position
        let startOffset = offset
        while let byte = current, isLetter(byte) { advance() }
        let word = String(decoding: bytes[startOffset..<offset], as: UTF8.self)
        switch word {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "null": return .null
        default:
            throw JSONSyntaxError(
                message:
                    "found the bare word '\(word)'; expected a value (strings need double quotes; the only bare words are true, false and null, in lowercase)",
                position: start)
        }
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { advance() }
    }

    /// Moves past one byte, keeping line and column: a line feed starts a new line, and UTF-8
    /// continuation bytes do not count as columns, so columns count Unicode scalars.
    private mutating func advance() {
        let byte = bytes[offset]
        offset += 1
        if byte == 0x0A {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(message: message, position: position)
    }

    private func describeCurrent() -> String {
        guard let byte = current else { return "the end of the input" }
        if byte >= 0x80, let scalar = String(decoding: bytes[offset..<min(offset + 4, bytes.count)], as: UTF8.self).unicodeScalars.first,
            scalar != "\u{FFFD}"
        {
            return "'\(scalar)'"
        }
        return "'\(describeByte(byte))'"
    }

    private func describeByte(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return String(UnicodeScalar(byte)) }
        if byte >= 0x80 { return "non-ASCII byte 0x\(String(byte, radix: 16, uppercase: true))" }
        return "control character 0x\(String(byte, radix: 16, uppercase: true))"
    }
}

private func isLetter(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
}

private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

private func hexDigitValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
}
