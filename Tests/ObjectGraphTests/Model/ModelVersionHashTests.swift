import Foundation
import Testing

@testable import ObjectGraph

/// The version hash changes exactly when something that decides storage changes.
@Suite struct ModelVersionHashTests {
    /// A model with two related entities; `replacing` swaps text in it to make a variant.
    private static let base = """
        {
          "name": "Shop",
          "version": 1,
          "entities": [
            {
              "name": "Customer",
              "className": "Customer",
              "attributes": [
                { "name": "email", "type": "string", "regex": "[^@]+@[^@]+", "maxLength": 100 },
                { "name": "score", "type": "integer32", "default": 0, "minValue": 0 },
                { "name": "nickname", "type": "string", "optional": true, "transient": true }
              ],
              "relationships": [
                { "name": "orders", "destination": "Order", "toMany": true, "inverse": "customer", "deleteRule": "cascade" }
              ],
              "uniquenessConstraints": [["email"]],
              "indexes": [["email", "score"]]
            },
            {
              "name": "Order",
              "attributes": [ { "name": "total", "type": "decimal", "default": "0.00" } ],
              "relationships": [ { "name": "customer", "destination": "Customer", "inverse": "orders" } ]
            }
          ]
        }
        """

    private func hash(_ json: String) throws -> String {
        try ModelFixtures.load(json).versionHash
    }

    private func variant(_ target: String, _ replacement: String) -> String {
        precondition(Self.base.contains(target), "the base model lacks \(target)")
        return Self.base.replacingOccurrences(of: target, with: replacement)
    }

    @Test func sameModelGivesTheSameHash() throws {
        #expect(try hash(Self.base) == hash(Self.base))
        #expect(try hash(Self.base).allSatisfy { $0.isHexDigit && !$0.isUppercase })
    }

    @Test func libraryHashIsStable() throws {
        let url = ModelFixtures.modelsDirectory.appendingPathComponent("Library.json")
        let model = try ManagedObjectModel(contentsOf: url)
        #expect(model.versionHash == ModelVersionHash.compute(for: model.entities))
        // Reloading the canonical re-serialisation gives the same hash too.
        #expect(try ManagedObjectModel(data: model.canonicalJSON).versionHash == model.versionHash)
    }

    @Test func formattingAndOrderDoNotChangeTheHash() throws {
        let original = try hash(Self.base)
        let compact = try ModelJSONParser.parse(Self.base.utf8).canonicalText
        #expect(try hash(compact) == original)
        let reordered = """
            { "entities": [
                { "relationships": [ { "inverse": "orders", "destination": "Customer", "name": "customer" } ],
                  "attributes": [ { "default": "0.00", "type": "decimal", "name": "total" } ], "name": "Order" },
                { "indexes": [["email", "score"]], "uniquenessConstraints": [["email"]], "name": "Customer",
                  "relationships": [ { "deleteRule": "cascade", "inverse": "customer", "toMany": true, "destination": "Order", "name": "orders" } ],
                  "attributes": [
                    { "transient": true, "optional": true, "type": "string", "name": "nickname" },
                    { "minValue": 0, "default": 0, "type": "integer32", "name": "score" },
                    { "maxLength": 100, "regex": "[^@]+@[^@]+", "type": "string", "name": "email" } ] } ],
              "version": 1, "name": "Shop" }
            """
        #expect(try hash(reordered) == original)
    }

    @Test(arguments: [
        (#""className": "Customer""#, #""className": "Client""#),
        (#""default": 0, "minValue": 0"#, #""default": 5, "minValue": 1"#),
        (#""regex": "[^@]+@[^@]+", "maxLength": 100"#, #""maxLength": 200"#),
        (#""deleteRule": "cascade""#, #""deleteRule": "deny""#),
        (#""name": "Shop""#, #""name": "Store""#),
        (#""version": 1"#, #""version": 2"#),
        (#""default": "0.00""#, #""default": "1.50", "renamingIdentifier": "amount""#)
    ])
    func nonSchemaChangesKeepTheHash(target: String, replacement: String) throws {
        #expect(try hash(variant(target, replacement)) == hash(Self.base))
    }

    @Test(arguments: [
        (#""name": "Order""#, #""name": "Purchase""#, #""destination": "Order""#, #""destination": "Purchase""#),
        (#""name": "score""#, #""name": "points""#, #"["email", "score"]"#, #"["email", "points"]"#),
        (#""type": "integer32""#, #""type": "integer64""#, "", ""),
        (#""name": "total", "type": "decimal""#, #""name": "total", "type": "decimal", "optional": true"#, "", ""),
        (#""transient": true"#, #""transient": false"#, "", ""),
        (#""name": "score", "type": "integer32""#, #""name": "score", "type": "integer32", "indexed": true"#, "", ""),
        (#""toMany": true"#, #""toMany": true, "ordered": true"#, "", ""),
        (#""inverse": "orders" }"#, #""inverse": "orders", "optional": false }"#, "", ""),
        (#""uniquenessConstraints": [["email"]]"#, #""uniquenessConstraints": [["email"], ["score"]]"#, "", ""),
        (#""indexes": [["email", "score"]]"#, #""indexes": [["score", "email"]]"#, "", ""),
        (#""name": "Order","#, #""name": "Order", "abstract": true,"#, "", "")
    ])
    func schemaChangesGiveANewHash(target: String, replacement: String, target2: String, replacement2: String) throws {
        var json = variant(target, replacement)
        if !target2.isEmpty { json = json.replacingOccurrences(of: target2, with: replacement2) }
        #expect(try hash(json) != hash(Self.base))
    }

    @Test func inverseAndParentChangesGiveANewHash() throws {
        let oneWay = Self.base
            .replacingOccurrences(of: #""inverse": "customer""#, with: #""inverse": null"#)
            .replacingOccurrences(of: #""inverse": "orders""#, with: #""inverse": null"#)
        #expect(try hash(oneWay) != hash(Self.base))
        let withParent = variant(#""name": "Order","#, #""name": "Order", "parent": "Customer","#)
            .replacingOccurrences(
                of: #"{ "name": "customer", "destination": "Customer", "inverse": "orders" }"#,
                with: #"{ "name": "buyer", "destination": "Customer", "inverse": null }"#
            )
            .replacingOccurrences(of: #""inverse": "customer""#, with: #""inverse": null"#)
            .replacingOccurrences(of: #""name": "total""#, with: #""name": "orderTotal""#)
        #expect(try hash(withParent.replacingOccurrences(of: #", "parent": "Customer""#, with: "")) != hash(withParent))
    }

    @Test func canonicalDescriptionListsTheCoveredFields() throws {
        let model = try ModelFixtures.load(Self.base)
        let text = ModelVersionHash.canonicalDescription(of: model.entities)
        #expect(text.contains("entity Customer abstract=false parent=-"))
        #expect(text.contains(" attribute score integer32 optional=false transient=false indexed=false"))
        #expect(text.contains(" relationship orders destination=Order toMany=true ordered=false inverse=customer optional=true"))
        #expect(text.contains(" unique email"))
        #expect(text.contains(" index email,score"))
        #expect(!text.contains("Shop") && !text.contains("cascade") && !text.contains("regex"))
    }
}
