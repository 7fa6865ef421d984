import ArgumentParser
import Foundation
import ObjectGraph
import Testing

@testable import ObjectGraphTool

@Suite struct ValidateCommandTests {
    @Test func summarisesTheLibraryModel() throws {
        let path = ToolFixtures.modelPath("Library.json")
        // The hash is the library's to define; the tool only has to print it.
        let hash = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: path)).versionHash
        let output = try runTool(["validate", path])
        #expect(
            output.standardOutput == """
                Library.json: valid
                  model:    Library, version 1
                  hash:     \(hash)
                  entities: 4
                    Author  7 attributes (1 transient), 1 relationship, 1 uniqueness constraint, 1 compound index
                    Book    13 attributes, 2 relationships, 2 uniqueness constraints, 1 compound index
                    Member  8 attributes, 1 relationship, 2 uniqueness constraints, 1 compound index
                    Loan    7 attributes (1 transient), 2 relationships, 1 uniqueness constraint, 1 compound index

                """)
        #expect(output.standardError.isEmpty)
        #expect(output.exitCode == .success)
    }

    @Test func summarisesRelationshipsInheritanceAndAbstractEntities() throws {
        let models = try TemporaryModels([
            "Shop.json": """
            {
              "name": "Shop",
              "version": 3,
              "entities": [
                { "name": "Item", "abstract": true, "attributes": [ { "name": "title", "type": "string" } ] },
                { "name": "Gadget", "parent": "Item",
                  "attributes": [ { "name": "watts", "type": "integer32" } ],
                  "relationships": [ { "name": "maker", "destination": "Maker", "inverse": "gadgets" } ] },
                { "name": "Maker", "primaryKey": "id", "attributes": [ { "name": "id", "type": "integer64" } ],
                  "relationships": [ { "name": "gadgets", "destination": "Gadget", "toMany": true, "inverse": "maker" } ] }
              ]
            }
            """
        ])
        defer { models.remove() }
        let path = models.path("Shop.json")
        let hash = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: path)).versionHash
        let output = try runTool(["validate", path])
        // Gadget counts the attribute it inherits from Item; Maker's key is a uniqueness constraint too.
        #expect(
            output.standardOutput == """
                Shop.json: valid
                  model:    Shop, version 3
                  hash:     \(hash)
                  entities: 3
                    Item    1 attribute, abstract
                    Gadget  2 attributes, 1 relationship, parent Item
                    Maker   1 attribute, primary key id, 1 relationship, 1 uniqueness constraint

                """)
        #expect(output.exitCode == .success)
    }

    @Test func reportsEveryProblemWithItsLocationAndFails() throws {
        let models = try TemporaryModels(["Broken.json": ToolFixtures.brokenModel])
        defer { models.remove() }
        let path = models.path("Broken.json")
        let output = try runTool(["validate", path])
        let lines = output.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count == 5, "\(output.standardOutput)")
        #expect(lines[0] == "Broken.json: 3 problems in the model:")
        #expect(lines[1].hasPrefix(#"  \#(path):8:36: entities[0].attributes[0].type: found unknown attribute type "strang""#))
        #expect(lines[1].hasSuffix(#"did you mean "string"?"#))
        #expect(lines[2].hasPrefix(#"  \#(path):9:19: entities[0].attributes[1].name: found property name "label" again"#))
        #expect(
            lines[3].hasPrefix(
                #"  \#(path):11:34: entities[0].uniquenessConstraints[0][0]: found "code", which is not an attribute of Shelf"#))
        #expect(lines[4].isEmpty, "the report ends with a newline")
        #expect(output.standardError.isEmpty)
        #expect(output.exitCode == .failure)
        #expect(output.exitCode.rawValue == 1)
    }

    @Test func reportsMalformedJSONWithItsPosition() throws {
        let models = try TemporaryModels(["Truncated.json": ToolFixtures.malformedModel])
        defer { models.remove() }
        let path = models.path("Truncated.json")
        let output = try runTool(["validate", path])
        #expect(output.standardOutput.hasPrefix("Truncated.json: 1 problem in the model:\n  \(path):5:1: malformed JSON: "))
        #expect(output.exitCode == .failure)
    }

    @Test func checksSeveralFilesInOrderAndFailsIfAnyIsInvalid() throws {
        let models = try TemporaryModels([
            "Broken.json": ToolFixtures.brokenModel,
            "Truncated.json": ToolFixtures.malformedModel
        ])
        defer { models.remove() }
        let output = try runTool([
            "validate", models.path("Broken.json"), ToolFixtures.modelPath("Library.json"), models.path("Truncated.json")
        ])
        // Sections are separated by one blank line and keep the order of the arguments.
        let sections = output.standardOutput.components(separatedBy: "\n\n")
        try #require(sections.count == 3, "\(output.standardOutput)")
        #expect(sections[0].hasPrefix("Broken.json: 3 problems in the model:\n"))
        #expect(sections[0].split(separator: "\n").count == 4)
        #expect(sections[1].hasPrefix("Library.json: valid\n  model:    Library, version 1\n"))
        #expect(sections[2].hasPrefix("Truncated.json: 1 problem in the model:\n"))
        #expect(sections[2].contains(":5:1: malformed JSON: "))
        #expect(output.standardOutput.hasSuffix("\n"))
        #expect(output.exitCode == .failure)
    }

    @Test func succeedsWhenEveryFileIsValid() throws {
        let output = try runTool(["validate", ToolFixtures.modelPath("Library.json"), ToolFixtures.modelPath("Benchmark.json")])
        let sections = output.standardOutput.components(separatedBy: "\n\n")
        #expect(sections.map { $0.prefix { $0 != "\n" } } == ["Library.json: valid", "Benchmark.json: valid"])
        #expect(output.exitCode == .success)
    }

    @Test func reportsAMissingFileReadably() throws {
        let models = try TemporaryModels([:])
        defer { models.remove() }
        let path = models.path("Missing.json")
        let output = try runTool(["validate", path])
        #expect(output.standardOutput.hasPrefix("Missing.json: 1 problem in the model:\n  \(path): cannot read the model file"))
        #expect(output.exitCode == .failure)
    }
}
