import Foundation

/// The value of a `json` attribute: a JSON text, decoded on demand into any `Decodable` type.
///
/// Setting a `json` attribute accepts either a `JSONDocument` or any `Encodable` value, which is
/// encoded with sorted keys so the same value always produces the same text.
public struct JSONDocument: Sendable, Hashable, CustomStringConvertible {
    /// The UTF-8 JSON text.
    public let data: Data

    /// A document holding JSON text that is already known to be valid.
    package init(validatedData: Data) {
        self.data = validatedData
    }

    /// A document for JSON text; throws if the text is not valid JSON.
    public init(data: Data) throws {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw ObjectGraphError(.typeMismatch, "the text is not valid JSON: \(error.localizedDescription)")
        }
        self.init(validatedData: data)
    }

    /// A document holding `value` encoded as JSON (keys sorted).
    public init(encoding value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        do {
            self.init(validatedData: try encoder.encode(value))
        } catch {
            throw ObjectGraphError(.typeMismatch, "the value \(value) cannot be encoded as JSON: \(error)")
        }
    }

    /// Decodes the document as `type`.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(type, from: data)
        } catch {
            throw ObjectGraphError(.typeMismatch, "the JSON \(text) cannot be decoded as \(T.self): \(error)")
        }
    }

    /// The JSON text.
    public var text: String { String(decoding: data, as: UTF8.self) }

    public var description: String { text }
}
