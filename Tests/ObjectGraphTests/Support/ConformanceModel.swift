import Foundation

@testable import ObjectGraph

/// The model the conformance suite runs on, written inline so each test states exactly what it
/// relies on.
///
/// `Item` has one attribute of every type — optional and required ones, defaults, a transient,
/// a uniqueness constraint on `code`, and range, length and pattern rules. `Person` is a small
/// entity for fetch tests, with optional attributes to exercise nil handling.
enum ConformanceModel {
    static let json = """
        {
          "name": "Conformance",
          "version": 1,
          "entities": [
            {
              "name": "Item",
              "attributes": [
                { "name": "code",    "type": "string", "minLength": 1, "maxLength": 12, "regex": "[A-Z][A-Z0-9-]*" },
                { "name": "title",   "type": "string", "optional": true, "maxLength": 20 },
                { "name": "note",    "type": "string", "default": "none" },
                { "name": "i16",     "type": "integer16", "optional": true },
                { "name": "i32",     "type": "integer32", "default": 7 },
                { "name": "i64",     "type": "integer64", "optional": true },
                { "name": "rating",  "type": "integer16", "default": 3, "minValue": 0, "maxValue": 5 },
                { "name": "dbl",     "type": "double", "optional": true },
                { "name": "price",   "type": "double", "default": 9.5, "minValue": 0 },
                { "name": "flt",     "type": "float", "optional": true },
                { "name": "dec",     "type": "decimal", "optional": true },
                { "name": "flag",    "type": "boolean", "default": true },
                { "name": "stamp",   "type": "date", "optional": true },
                { "name": "blob",    "type": "binary", "optional": true, "maxLength": 64 },
                { "name": "uid",     "type": "uuid", "optional": true },
                { "name": "link",    "type": "uri", "optional": true },
                { "name": "info",    "type": "json", "optional": true },
                { "name": "scratch", "type": "string", "optional": true, "transient": true }
              ],
              "uniquenessConstraints": [["code"]]
            },
            {
              "name": "Person",
              "attributes": [
                { "name": "name", "type": "string" },
                { "name": "age",  "type": "integer32", "optional": true },
                { "name": "city", "type": "string", "optional": true }
              ]
            }
          ]
        }
        """

    /// A freshly loaded instance of the model.
    static func load() throws -> ManagedObjectModel {
        try ManagedObjectModel(data: Data(json.utf8))
    }
}

/// A `Codable` value for `json` attributes.
struct Payload: Codable, Equatable {
    var name: String
    var tags: [String]
    var count: Int
    var weights: [String: Double]
    var nested: Nested?

    struct Nested: Codable, Equatable {
        var flag: Bool
        var note: String?
    }
}
