import Foundation

/// A long `IN` list as one JSON array bound to one parameter (`IN (SELECT value FROM
/// json_each(?))`) instead of a parameter per value: SQLite allows 32,766 parameters in a
/// statement, and a list of 50,000 keys is an ordinary thing to fetch.
enum SQLValueList {
    /// Lists longer than this go through JSON, when their values allow it.
    static let shortestJSONList = 500

    /// The values as a JSON array whose elements `json_each` reads back as exactly what the
    /// store holds, or `nil` when one of them cannot be: reals (JSON's decimal text could round
    /// differently), blobs, and text with a NUL character.
    static func json(_ values: [AttributeValue]) -> String? {
        var elements: [String] = []
        elements.reserveCapacity(values.count)
        for value in values {
            switch value {
            case .integer(let integer): elements.append(String(integer))
            case .boolean(let flag): elements.append(flag ? "1" : "0")
            case .object(let objectID): elements.append(String(objectID.primaryKey ?? 0))
            case .string(let text):
                guard let element = string(text) else { return nil }
                elements.append(element)
            case .decimal(let decimal): elements.append(string(decimal.description)!)
            case .uri(let url):
                guard let element = string(url.absoluteString) else { return nil }
                elements.append(element)
            default: return nil
            }
        }
        return "[" + elements.joined(separator: ",") + "]"
    }

    /// `text` as a JSON string, or `nil` when it holds a NUL character.
    private static func string(_ text: String) -> String? {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\0": return nil
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
