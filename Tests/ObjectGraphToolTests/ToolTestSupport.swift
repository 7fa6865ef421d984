import ArgumentParser
import Foundation
import Testing

@testable import ObjectGraphTool

/// Runs `objectgraph` in process: parses `arguments` exactly as the tool does and returns what the
/// chosen subcommand would print and its exit status. Parsing errors are thrown, as ArgumentParser
/// throws them to `main()`.
func runTool(_ arguments: [String]) throws -> CommandOutput {
    let command = try ObjectGraphCommand.parseAsRoot(arguments)
    let reporting = try #require(command as? any ReportingCommand, "\(arguments) did not select a subcommand")
    return reporting.output()
}

/// The repository's model files, found from this source file so tests run from any directory.
enum ToolFixtures {
    /// The repository: Tests/ObjectGraphToolTests/../..
    static let repositoryDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The top-level `Models` folder.
    static let modelsDirectory = repositoryDirectory.appendingPathComponent("Models")

    /// The path of a model in `Models`, such as `Library.json`.
    static func modelPath(_ name: String) -> String {
        modelsDirectory.appendingPathComponent(name).path
    }

    /// A model with three problems the validator reports together: an unknown attribute type
    /// (line 8, column 36), a repeated attribute name (line 9, column 19) and a uniqueness
    /// constraint naming a missing attribute (line 11, column 34).
    static let brokenModel = """
        {
          "name": "Broken",
          "version": 1,
          "entities": [
            {
              "name": "Shelf",
              "attributes": [
                { "name": "label", "type": "strang" },
                { "name": "label", "type": "string" }
              ],
              "uniquenessConstraints": [["code"]]
            }
          ]
        }
        """

    /// A model file cut off inside the entity list, so the end of the input comes at line 5.
    static let malformedModel = """
        {
          "name": "Truncated",
          "version": 1,
          "entities": [

        """
}

/// A fresh temporary directory holding model files, so parallel tests never share a path.
struct TemporaryModels {
    let directory: URL

    /// Writes each `name: contents` pair into a new directory.
    init(_ files: [String: String]) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ObjectGraphToolTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, contents) in files {
            try Data(contents.utf8).write(to: directory.appendingPathComponent(name))
        }
    }

    /// The path of `name` inside the directory (the file need not exist).
    func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// Deletes the directory and everything in it.
    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
