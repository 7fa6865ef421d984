import Foundation
import Testing

@testable import ObjectGraph

/// Helpers for the model-loading tests: small inline models and issue lookups.
enum ModelFixtures {
    /// The repository's top-level `Models` folder (the test bundle holds a copy of it too).
    static let modelsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Models")

    /// A model document with `entities` (JSON text of the array's elements).
    static func model(_ entities: String, name: String = "Test", version: String = "1") -> String {
        """
        {
          "name": "\(name)",
          "version": \(version),
          "entities": [
            \(entities)
          ]
        }
        """
    }

    /// A model with one entity `Thing` holding `attributes` (JSON text of the array's elements).
    static func thing(attributes: String, extra: String = "") -> String {
        model(#"{ "name": "Thing", "attributes": [ \#(attributes) ]\#(extra.isEmpty ? "" : ", " + extra) }"#)
    }

    /// Loads `json` as a model named Test.json.
    static func load(_ json: String) throws -> ManagedObjectModel {
        try ManagedObjectModel(data: Data(json.utf8), sourceName: "Test.json")
    }

    /// The `.invalidModel` error loading `json` throws; records a test failure when it loads.
    static func error(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) -> ObjectGraphError? {
        do {
            _ = try load(json)
            Issue.record("expected the model to be refused", sourceLocation: sourceLocation)
            return nil
        } catch let error as ObjectGraphError {
            #expect(error.kind == .invalidModel, sourceLocation: sourceLocation)
            return error
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Every issue loading `json` reports.
    static func issues(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) -> [ModelIssue] {
        error(json, sourceLocation: sourceLocation)?.issues ?? []
    }

    /// Expects exactly one issue, at `path`, whose message contains each of `fragments`.
    @discardableResult
    static func expectSingleIssue(
        _ json: String, path: String, _ fragments: String..., sourceLocation: SourceLocation = #_sourceLocation
    ) -> ModelIssue? {
        let found = issues(json, sourceLocation: sourceLocation)
        #expect(found.count == 1, "issues: \(found)", sourceLocation: sourceLocation)
        guard let issue = found.first(where: { $0.path == path }) else {
            Issue.record("no issue at \(path); issues: \(found)", sourceLocation: sourceLocation)
            return nil
        }
        for fragment in fragments {
            #expect(issue.message.contains(fragment), "\"\(issue.message)\" lacks \"\(fragment)\"", sourceLocation: sourceLocation)
        }
        return issue
    }
}
