import Foundation
import Testing

@testable import ObjectGraph

/// A Person entity with one attribute of every type, for the predicate and sort tests.
enum PredicateFixtures {
    static let person: EntityDescription = {
        let declarations: [(String, AttributeType, Bool)] = [
            ("name", .string, false), ("age", .integer16, false), ("score", .double, false),
            ("birthday", .date, false), ("price", .decimal, false), ("flag", .boolean, false),
            ("id", .uuid, false), ("photo", .binary, false), ("homepage", .uri, false),
            ("extra", .json, false), ("weight", .float, false), ("big", .integer64, false),
            ("minAge", .integer32, false), ("maxAge", .integer32, false), ("nickname", .string, true)
        ]
        let attributes = declarations.enumerated().map { index, declaration in
            AttributeDescription(
                name: declaration.0, type: declaration.1, isOptional: true, isTransient: declaration.2, index: index)
        }
        return EntityDescription(
            name: "Person", attributes: attributes,
            relationships: [
                RelationshipDescription(
                    name: "author", destinationEntityName: "Person", index: 0, slot: attributes.count, destinationIndex: 0,
                    inverseIndex: nil)
            ],
            index: 0)
    }()

    /// A model of the one entity, for binding predicates (which may follow relationships).
    static let model = ManagedObjectModel(
        name: "Fixtures", version: 1, entities: [person], versionHash: "", canonicalJSON: Data(), sourceURL: nil)

    static func slot(_ name: String) -> Int {
        person.attribute(named: name)?.index ?? -1
    }

    /// A row of NULLs with the given attributes set.
    static func row(_ values: [String: AttributeValue]) -> ValueRow {
        var row = ValueRow(repeating: .null, count: person.attributes.count)
        for (name, value) in values { row[slot(name)] = value }
        return row
    }

    static func bind(_ format: String, _ arguments: any Sendable...) throws -> BoundPredicate {
        try FetchPredicate(format: format, argumentArray: arguments).bind(to: person, in: model)
    }

    /// Whether a row with `values` matches the template `format` with `variables` substituted.
    static func matches(_ format: String, _ values: [String: AttributeValue], substituting variables: [String: Any?]) throws -> Bool {
        try FetchPredicate(format: format).withSubstitutionVariables(variables).bind(to: person, in: model).evaluate(row(values))
    }

    static func matches(_ format: String, _ values: [String: AttributeValue], _ arguments: any Sendable...) throws -> Bool {
        try FetchPredicate(format: format, argumentArray: arguments).bind(to: person, in: model).evaluate(row(values))
    }

    /// The error `body` throws; records an issue when it throws none or something else.
    static func error(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> ObjectGraphError? {
        do {
            try body()
            Issue.record("expected an error", sourceLocation: sourceLocation)
        } catch let error as ObjectGraphError {
            return error
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }
}
