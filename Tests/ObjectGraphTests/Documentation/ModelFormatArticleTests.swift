import Foundation
import ObjectGraph
import Testing

/// The example of ModelFormat.md: the four ways to load a model give the same model.
@Suite struct ModelFormatArticleTests {
    @Test func aModelLoadsFromAFileDataABundleOrAFolder() throws {
        let modelsFolder = ArticleExampleTests.packageRoot.appendingPathComponent("Models")
        let json = try Data(contentsOf: modelsFolder.appendingPathComponent("Library.json"))

        let model = try ManagedObjectModel(contentsOf: modelsFolder.appendingPathComponent("Library.json"))
        let fromData = try ManagedObjectModel(data: json, sourceName: "Library.json")  // the name used in messages
        let fromBundle = try ManagedObjectModel(named: "Library", in: .module)  // Library.json at the root or in Models/
        let fromFolder = try ManagedObjectModel(named: "Library", inDirectory: modelsFolder)

        #expect(Set([model, fromData, fromBundle, fromFolder].map(\.versionHash)).count == 1)
        #expect(model.entity(named: "Book") != nil)
    }
}
