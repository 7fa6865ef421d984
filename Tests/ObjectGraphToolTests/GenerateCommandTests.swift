import ArgumentParser
import Foundation
import ObjectGraph
import Testing

@testable import ObjectGraphTool

@Suite struct GenerateCommandTests {
    /// The model of the generated-classes tests: every attribute type and relationship kind.
    private static let catalogPath = ToolFixtures.repositoryDirectory
        .appendingPathComponent("Tests/ObjectGraphGeneratedTests/Catalog.objectgraph.json").path
    /// The expected output; `OBJECTGRAPH_UPDATE_GOLDEN=1 swift test --filter GenerateCommandTests`
    /// writes it again after a deliberate change to the generator.
    private static let goldenURL = ToolFixtures.repositoryDirectory
        .appendingPathComponent("Tests/Golden/Catalog.objectgraph.swift.golden")

    @Test func generatedCodeMatchesTheGoldenFile() throws {
        let output = try TemporaryModels([:])
        defer { output.remove() }
        let result = try runTool(["generate", Self.catalogPath, "--output", output.directory.path])
        #expect(result.exitCode == .success)
        #expect(result.standardError.isEmpty)
        let generated = try String(contentsOf: output.directory.appendingPathComponent("Catalog.objectgraph.swift"), encoding: .utf8)
        if ProcessInfo.processInfo.environment["OBJECTGRAPH_UPDATE_GOLDEN"] == "1" {
            try Data(generated.utf8).write(to: Self.goldenURL)
        }
        #expect(generated == (try String(contentsOf: Self.goldenURL, encoding: .utf8)))
    }

    @Test func publicAccessMakesClassesWithSubclassesOpen() throws {
        let output = try TemporaryModels([:])
        defer { output.remove() }
        let result = try runTool(["generate", Self.catalogPath, "-o", output.directory.path, "--access", "public"])
        #expect(result.exitCode == .success)
        let generated = try String(contentsOf: output.directory.appendingPathComponent("Catalog.objectgraph.swift"), encoding: .utf8)
        #expect(generated.contains("public final class CatalogBook: ManagedObject, GeneratedEntityClass, TypedManagedObject {"))
        #expect(generated.contains("open class Person: ManagedObject, GeneratedEntityClass, TypedManagedObject {"))
        #expect(generated.contains("open override class var entityName: String { \"Employee\" }"))
        #expect(generated.contains("open override class var propertyKeyPaths: [AnyKeyPath: String] {"))
        #expect(generated.contains("public var title: String {"))
    }

    @Test func anInvalidModelIsReportedAsCompilerDiagnostics() throws {
        let models = try TemporaryModels(["Broken.objectgraph.json": ToolFixtures.brokenModel])
        defer { models.remove() }
        let path = models.path("Broken.objectgraph.json")
        let result = try runTool(["generate", path, "-o", models.directory.path])
        #expect(result.exitCode == .failure)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.first?.hasPrefix("\(path):8:36: error: entities[0].attributes[0].type: ") == true)
        #expect(!FileManager.default.fileExists(atPath: models.path("Broken.objectgraph.swift")))
    }

    @Test func generatedFilesAreNamedAfterTheModelFile() {
        #expect(ModelCodeGeneration.outputFileName(forModelAt: URL(fileURLWithPath: "/m/Library.json")) == "Library.objectgraph.swift")
        #expect(
            ModelCodeGeneration.outputFileName(forModelAt: URL(fileURLWithPath: "/m/Library.objectgraph.json"))
                == "Library.objectgraph.swift")
    }
}
