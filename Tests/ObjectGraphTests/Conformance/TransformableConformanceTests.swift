import Foundation
import Testing

@testable import ObjectGraph

/// `transformable` attributes: values converted to bytes and back by a transformer registered by
/// name, as Core Data's `valueTransformerName`.
@Suite struct TransformableConformanceTests {
    /// A list of words, stored as one line of text.
    struct WordList: AttributeTransformer {
        struct NotWords: Error {}

        func transformedValue(_ value: Any) throws -> Data {
            guard let words = value as? [String] else { throw NotWords() }
            return Data(words.joined(separator: " ").utf8)
        }

        func reverseTransformedValue(_ data: Data) throws -> Any {
            String(decoding: data, as: UTF8.self).split(separator: " ").map(String.init)
        }
    }

    static let model = """
        { "name": "Notes", "version": 1, "entities": [
          { "name": "Note", "attributes": [
            { "name": "title", "type": "string" },
            { "name": "words", "type": "transformable", "valueTransformerName": "WordList", "optional": true },
            { "name": "tags", "type": "transformable", "valueTransformerName": "NotRegistered", "optional": true } ] } ] }
        """

    static func store(_ kind: StoreKind) throws -> TestStore {
        AttributeTransformers.register(WordList(), forName: "WordList")
        return try TestStore(kind, model: { try ManagedObjectModel(data: Data(model.utf8)) })
    }

    @Test(arguments: StoreKind.allCases)
    func valuesGoThroughTheirTransformerBothWays(kind: StoreKind) throws {
        let store = try Self.store(kind)
        try store.withNewContext { context in
            let note = try context.insertNewObject(forEntityName: "Note")
            try note.setValue("first", forKey: "title")
            try note.setValue(["to", "be"], forKey: "words")
            #expect(try note.value(forKey: "words") as? [String] == ["to", "be"])
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { context in
            let note = try context.one("Note", "title", "first")
            #expect(try note.value(forKey: "words", as: [String].self) == ["to", "be"])
            // The store holds the transformer's bytes.
            #expect(try note.value(forKey: "words", as: Data.self) == Data("to be".utf8))
            #expect(
                try context.count(
                    for: FetchRequest<ManagedObject>(entityName: "Note", predicate: try FetchPredicate(format: "words != nil"))) == 1)
            // A value read is a copy: changing it in place changes nothing until it is set again.
            var words = try #require(try note.value(forKey: "words") as? [String])
            words.append("or")
            #expect(!note.hasChanges)
            try note.setValue(words, forKey: "words")
            #expect(note.changedValues()["words"] as? [String] == ["to", "be", "or"])
            try note.setValue(nil, forKey: "words")
            #expect(try note.value(forKey: "words") == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRefusedValueOrAMissingTransformerIsAnError(kind: StoreKind) throws {
        let store = try Self.store(kind)
        try store.withNewContext { context in
            let note = try context.insertNewObject(forEntityName: "Note")
            let refused = #expect(throws: ObjectGraphError.self) { try note.setValue(42, forKey: "words") }
            #expect(refused?.kind == .typeMismatch)
            #expect(refused?.message.hasPrefix("Note.words: transformer 'WordList' refused a Int") == true, "\(refused?.message ?? "")")
            let missing = #expect(throws: ObjectGraphError.self) { try note.setValue(["a"], forKey: "tags") }
            #expect(missing?.kind == .invalidOperation)
            #expect(
                missing?.message
                    == "Note.tags is transformable by 'NotRegistered', but no transformer is registered under that name; call AttributeTransformers.register(_:forName:) first"
            )
        }
    }

    @Test func aTransformableAttributeNeedsItsTransformersName() {
        ModelFixtures.expectSingleIssue(
            ModelFixtures.thing(attributes: #"{ "name": "x", "type": "transformable" }"#),
            path: "entities[0].attributes[0].type", "without valueTransformerName")
        ModelFixtures.expectSingleIssue(
            ModelFixtures.thing(attributes: #"{ "name": "x", "type": "binary", "valueTransformerName": "T" }"#),
            path: "entities[0].attributes[0].valueTransformerName", "only on transformable attributes")
    }
}
