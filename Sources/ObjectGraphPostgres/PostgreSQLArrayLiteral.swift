import Foundation
import ObjectGraph

/// A column of values written as the text of one PostgreSQL array (`{1,NULL,"a \"b\""}`), bound
/// as one text parameter and cast to the array's type: a statement of many rows then has a few
/// parameters, however many rows it writes (postgres-nio cannot bind arrays holding NULLs). Each
/// element is the text PostgreSQL reads back as exactly the value bound otherwise: doubles in
/// their shortest form that round-trips, bytes in hex, text quoted.
struct PostgreSQLArrayLiteral {
    /// The array's element type; `nil` when every value is NULL (no column type can be told).
    let elementType: String?
    /// The array's text.
    let text: String

    init(_ values: [AttributeValue]) throws {
        var text = "{"
        text.reserveCapacity(values.count * 8 + 2)
        var elementType: String?
        for (position, value) in values.enumerated() {
            if position > 0 { text.append(",") }
            guard let (type, element) = try Self.element(value) else {
                text.append("NULL")
                continue
            }
            if elementType == nil { elementType = type }
            text.append(element)
        }
        text.append("}")
        self.elementType = elementType
        self.text = text
    }

    /// The element type and text of a value that is not NULL, as the column keeps it (see
    /// `PostgreSQLValues.data`).
    private static func element(_ value: AttributeValue) throws -> (type: String, text: String)? {
        switch value {
        case .null: return nil
        case .integer(let integer): return ("bigint", String(integer))
        case .object(let objectID): return ("bigint", String(objectID.primaryKey ?? 0))
        case .double(let double): return ("double precision", number(double))
        case .float(let float): return ("double precision", number(Double(float)))
        case .date(let date): return ("double precision", number(date.timeIntervalSinceReferenceDate))
        case .decimal(let decimal): return ("numeric", decimal.description)
        case .boolean(let flag): return ("boolean", flag ? "t" : "f")
        case .uuid(let uuid): return ("uuid", uuid.uuidString)
        case .string(let string): return ("text", try quoted(string))
        case .uri(let url): return ("text", try quoted(url.absoluteString))
        case .json(let document): return ("text", try quoted(document.text))
        case .binary(let bytes):
            let hex = bytes.map { String(format: "%02x", $0) }.joined()
            return ("bytea", "\"\\\\x\(hex)\"")
        }
    }

    /// A double as PostgreSQL reads it back exactly; −0.0 as 0, as the store keeps it.
    private static func number(_ double: Double) -> String {
        if double.isNaN { return "NaN" }
        if double.isInfinite { return double < 0 ? "-Infinity" : "Infinity" }
        return (double + 0).description
    }

    /// `string` quoted as an array element: backslashes and double quotes escaped.
    private static func quoted(_ string: String) throws -> String {
        let string = try PostgreSQLValues.text(string)
        var quoted = "\""
        quoted.reserveCapacity(string.utf8.count + 2)
        for character in string.unicodeScalars {
            if character == "\\" || character == "\"" { quoted.unicodeScalars.append("\\") }
            quoted.unicodeScalars.append(character)
        }
        quoted.append("\"")
        return quoted
    }
}
