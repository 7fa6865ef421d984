import Foundation
import ObjectGraph

/// A column of values written as the text of one PostgreSQL array (`{1,NULL,"a \"b\""}`), bound
/// as one text parameter and cast to the array's type: a statement of many rows then has a few
/// parameters, however many rows it writes (postgres-nio cannot bind arrays holding NULLs). Each
/// element is the text PostgreSQL reads back as exactly the value bound otherwise: doubles in
/// their shortest form that round-trips, −0.0 as 0, bytes as `\x` and hex, text quoted.
struct PostgreSQLArrayLiteral {
    /// The array's element type; `nil` when every value is NULL (no column type can be told).
    let elementType: String?
    /// The array's text.
    let text: String

    init<Values: Collection<AttributeValue>>(_ values: Values) throws {
        var text = "{"
        text.reserveCapacity(values.count * 8 + 2)
        var elementType: String?
        for (position, value) in values.enumerated() {
            if position > 0 { text.append(",") }
            guard let element = try Self.element(value) else {
                text.append("NULL")
                continue
            }
            if elementType == nil { elementType = element.type }
            if element.needsEscaping {
                text.append("\"")
                Self.append(element.text, to: &text) {
                    $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") ? "\\" + String(UnicodeScalar($0)) : nil
                }
                text.append("\"")
            } else {
                text.append(element.text)
            }
        }
        text.append("}")
        self.elementType = elementType
        self.text = text
    }

    /// Roughly how many bytes of text a value becomes: what bounds the rows of one statement
    /// when values are large (see `PostgreSQLStoreState.arrayStatementBytes`).
    static func approximateLength(of value: AttributeValue) -> Int {
        switch value {
        case .string(let string): string.utf8.count + 3
        case .json(let document): document.text.utf8.count + 3
        case .uri(let url): url.absoluteString.utf8.count + 3
        case .binary(let bytes): 2 * bytes.count + 6
        case .decimal: 40
        default: 24
        }
    }

    /// The text of a value as PostgreSQL's input functions read back exactly the value bound
    /// otherwise (`PostgreSQLValues.data`), the type it is read as, and whether it may hold
    /// characters to escape (text and bytes; numbers, booleans and UUIDs cannot). Nil for NULL.
    private static func element(_ value: AttributeValue) throws -> (text: String, type: String, needsEscaping: Bool)? {
        switch value {
        case .null: return nil
        case .integer(let integer): return (String(integer), "bigint", false)
        case .object(let objectID): return (String(objectID.primaryKey ?? 0), "bigint", false)
        case .double(let double): return (number(double), "double precision", false)
        case .float(let float): return (number(Double(float)), "double precision", false)
        case .date(let date): return (number(date.timeIntervalSinceReferenceDate), "double precision", false)
        case .decimal(let decimal): return (decimal.description, "numeric", false)
        case .boolean(let flag): return (flag ? "t" : "f", "boolean", false)
        case .uuid(let uuid): return (uuid.uuidString, "uuid", false)
        case .string(let string): return (try PostgreSQLValues.text(string), "text", true)
        case .uri(let url): return (try PostgreSQLValues.text(url.absoluteString), "text", true)
        case .json(let document): return (try PostgreSQLValues.text(document.text), "text", true)
        case .binary(let bytes):
            var text = "\\x"
            text.reserveCapacity(2 * bytes.count + 2)
            for byte in bytes {
                text.unicodeScalars.append(hexDigits[Int(byte >> 4)])
                text.unicodeScalars.append(hexDigits[Int(byte & 0x0f)])
            }
            return (text, "bytea", true)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".unicodeScalars)

    /// A double as PostgreSQL reads it back exactly; −0.0 as 0, as the store keeps it.
    private static func number(_ double: Double) -> String {
        if double.isNaN { return "NaN" }
        if double.isInfinite { return double < 0 ? "-Infinity" : "Infinity" }
        return (double + 0).description
    }

    /// Appends `text` to `output`, each UTF-8 byte for which `escape` gives a replacement
    /// replaced by it; text with nothing to escape is appended whole.
    private static func append(_ text: String, to output: inout String, escaping escape: (UInt8) -> String?) {
        guard text.utf8.contains(where: { escape($0) != nil }) else {
            output.append(text)
            return
        }
        var start = text.utf8.startIndex
        for index in text.utf8.indices {
            guard let replacement = escape(text.utf8[index]) else { continue }
            output.append(contentsOf: text[start..<index])
            output.append(replacement)
            start = text.utf8.index(after: index)
        }
        output.append(contentsOf: text[start...])
    }
}
