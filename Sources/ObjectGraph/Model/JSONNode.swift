/// Where a value starts in a text: 1-based line and column (columns count Unicode scalars).
struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    var line: Int
    var column: Int

    var description: String { "\(line):\(column)" }
}

/// One JSON value of a model file together with the position where it starts, so that every
/// problem found later can point at the line and column of the offending value.
struct JSONNode: Sendable {
    /// The value. Numbers keep their literal text so integers, decimals and doubles can each be
    /// read exactly, without a detour through `Double`.
    enum Value: Sendable {
        case null
        case boolean(Bool)
        case number(String)
        case string(String)
        case array([JSONNode])
        case object([JSONMember])
    }

    let value: Value
    let position: SourcePosition
}

/// One `"key": value` pair of a JSON object, with the position of its key. Objects keep their
/// members in file order, duplicates included, so the model reader can report duplicate keys.
struct JSONMember: Sendable {
    let key: String
    let keyPosition: SourcePosition
    let value: JSONNode
}

extension JSONNode {
    /// The kind of value with its article, for "expected …" and "found …" phrases.
    var kindDescription: String {
        switch value {
        case .null: "null"
        case .boolean: "a Boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// What a "found …" phrase shows: scalars as they are written (strings quoted and
    /// shortened), containers by their kind.
    var foundDescription: String {
        switch value {
        case .null: "null"
        case .boolean(let flag): "\(flag)"
        case .number(let text): text
        case .string(let text): text.count > 60 ? "\"\(text.prefix(60))…\"" : "\"\(text)\""
        case .array(let elements): elements.isEmpty ? "an empty array" : "an array"
        case .object: "an object"
        }
    }

    /// The string value, if this is a string.
    var stringValue: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    /// The elements, if this is an array.
    var arrayValue: [JSONNode]? {
        if case .array(let elements) = value { return elements }
        return nil
    }

    /// The node as compact JSON text with object keys sorted by their UTF-8 bytes: the same value
    /// always gives the same text, whatever the original key order and whitespace.
    var canonicalText: String {
        var text = ""
        appendCanonical(to: &text)
        return text
    }

    private func appendCanonical(to text: inout String) {
        switch value {
        case .null: text += "null"
        case .boolean(let flag): text += flag ? "true" : "false"
        case .number(let literal): text += literal
        case .string(let string): appendQuoted(string, to: &text)
        case .array(let elements):
            text += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { text += "," }
                element.appendCanonical(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            let sorted = members.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            for (offset, member) in sorted.enumerated() {
                if offset > 0 { text += "," }
                appendQuoted(member.key, to: &text)
                text += ":"
                member.value.appendCanonical(to: &text)
            }
            text += "}"
        }
    }
}

/// Appends `string` as a JSON string literal: quotes, backslashes and control characters escaped,
/// everything else (including `/` and non-ASCII) written as is.
private func appendQuoted(_ string: String, to text: inout String) {
    text += "\""
    for scalar in string.unicodeScalars {
        switch scalar {
        case "\"": text += "\\\""
        case "\\": text += "\\\\"
        case "\n": text += "\\n"
        case "\r": text += "\\r"
        case "\t": text += "\\t"
        case "\u{08}": text += "\\b"
        case "\u{0C}": text += "\\f"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: text.unicodeScalars.append(scalar)
        }
    }
    text += "\""
}
