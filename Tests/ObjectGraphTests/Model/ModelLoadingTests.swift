import Foundation
import Testing

@testable import ObjectGraph

@Suite struct ModelLoadingTests {
    private var libraryURL: URL { ModelFixtures.modelsDirectory.appendingPathComponent("Library.json") }

    @Test func loadsLibraryByURL() throws {
        let model = try ManagedObjectModel(contentsOf: libraryURL)
        #expect(model.name == "Library")
        #expect(model.version == 1)
        #expect(model.entities.map(\.name) == ["Author", "Book", "Member", "Loan"])
        #expect(model.sourceURL == libraryURL)
        #expect(model.versionHash.count == 64)
        #expect(model.entities.map(\.index) == [0, 1, 2, 3])
    }

    @Test func libraryCoversEveryAttributeType() throws {
        let model = try ManagedObjectModel(contentsOf: libraryURL)
        let types = Set(model.entities.flatMap(\.attributes).map(\.type))
        #expect(types == Set(AttributeType.allCases))
    }

    @Test func loadsLibraryFromDataWithTheSameHash() throws {
        let byURL = try ManagedObjectModel(contentsOf: libraryURL)
        let byData = try ManagedObjectModel(data: Data(contentsOf: libraryURL), sourceName: "Library.json")
        #expect(byData.versionHash == byURL.versionHash)
        #expect(byData.canonicalJSON == byURL.canonicalJSON)
        #expect(byData.sourceURL == nil)
    }

    @Test func loadsByNameFromDirectory() throws {
        let model = try ManagedObjectModel(named: "Library", inDirectory: ModelFixtures.modelsDirectory)
        #expect(model.name == "Library")
        let withExtension = try ManagedObjectModel(named: "Library.json", inDirectory: ModelFixtures.modelsDirectory)
        #expect(withExtension.versionHash == model.versionHash)
    }

    @Test func loadsByNameFromBundle() throws {
        let model = try ManagedObjectModel(named: "Library", in: Bundle.module)
        #expect(model.name == "Library")
        // SwiftPM copies the symlinked Models folder either as a folder or as its contents,
        // depending on how the link is written; the loader looks in both places.
        #expect(model.sourceURL?.lastPathComponent == "Library.json")
        #expect(model.sourceURL?.path.hasPrefix(Bundle.module.bundlePath) == true)
    }

    /// Core Data's `NSPersistentContainer(name:)`: the model comes from the program's bundles,
    /// here the test target's resource bundle beside the test executable.
    @Test func loadsByNameFromTheProgramsBundles() throws {
        let model = try ManagedObjectModel(named: "Library")
        #expect(model.name == "Library")
        #expect(model.versionHash == (try ManagedObjectModel(named: "Library", in: Bundle.module)).versionHash)
        let container = try PersistentContainer(name: "BenchmarkIndexed")
        #expect(container.managedObjectModel.entity(named: "Person")?.attribute(named: "age")?.isIndexed == true)
        #expect(container.persistentStoreDescriptions.first?.url?.lastPathComponent == "BenchmarkIndexed.sqlite")

        let error = try #require(throws: ObjectGraphError.self) { try PersistentContainer(name: "Libary") }
        #expect(error.kind == .invalidModel)
        #expect(error.message.contains("no model named \"Libary\" in the program's bundles"))
        #expect(error.message.contains("did you mean \"Library\"?"))
    }

    @Test func missingModelSuggestsTheClosestName() throws {
        let error = try #require(throws: ObjectGraphError.self) {
            try ManagedObjectModel(named: "Libary", inDirectory: ModelFixtures.modelsDirectory)
        }
        #expect(error.kind == .invalidModel)
        #expect(error.message.contains("no model named \"Libary\""))
        #expect(error.message.contains("did you mean \"Library\"?"))

        let bundleError = try #require(throws: ObjectGraphError.self) { try ManagedObjectModel(named: "Libary", in: Bundle.module) }
        #expect(bundleError.message.contains("did you mean \"Library\"?"))
    }

    @Test func unreadableFileIsAnInvalidModelError() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-model-\(UUID().uuidString).json")
        let error = try #require(throws: ObjectGraphError.self) { try ManagedObjectModel(contentsOf: url) }
        #expect(error.kind == .invalidModel)
        #expect(error.issues.first?.file == url.path)
        #expect(error.message.contains("cannot read the model file"))
    }

    @Test func buildsAttributesWithSlotsDefaultsAndRules() throws {
        let model = try ManagedObjectModel(contentsOf: libraryURL)
        let book = try #require(model.entity(named: "Book"))
        #expect(book.attributes.map(\.index) == Array(0..<book.attributes.count))
        #expect(book.uniquenessConstraints == [["id"], ["isbn"]])
        #expect(book.indexes == [["inPrint", "published"]])
        #expect(book.relationships.map(\.name) == ["author", "loans"])
        let author = try #require(book.relationship(named: "author"))
        #expect(author.destinationEntityName == "Author" && author.inverseName == "books")
        #expect(!author.isToMany && !author.isOptional)
        #expect(book.relationship(named: "loans")?.deleteRule == .cascade)
        let edition = try #require(book.attribute(named: "edition"))
        #expect(edition.type == .integer16)
        #expect(edition.defaultValue == .integer(1))
        #expect(edition.minimum == .integer(1))
        #expect(book.attribute(named: "price")?.defaultValue == .decimal(Decimal(string: "0.00")!))
        #expect(book.attribute(named: "inPrint")?.defaultValue == .boolean(true))
        #expect(book.attribute(named: "metadata")?.defaultValue == .json(JSONDocument(validatedData: Data(#"{"tags":[]}"#.utf8))))
        #expect(book.attribute(named: "isbn")?.regex == "97[89][0-9]{10}")
        #expect(book.attribute(named: "title")?.isIndexed == true)
        #expect(book.attribute(named: "title")?.maxLength == 500)
        #expect(book.attribute(named: "summary")?.isOptional == true)
        #expect(book.attribute(named: "id")?.isOptional == false)

        let member = try #require(model.entity(named: "Member"))
        #expect(member.attribute(named: "joined")?.defaultValue == .date(Date(timeIntervalSince1970: 1_704_067_200)))
        #expect(member.attribute(named: "card")?.defaultValue == .binary(Data()))
        #expect(member.attribute(named: "balance")?.minimum == .decimal(Decimal(-1000)))

        let authorEntity = try #require(model.entity(named: "Author"))
        #expect(authorEntity.attribute(named: "nickname")?.isTransient == true)
        #expect(authorEntity.storedAttributes.map(\.name).contains("nickname") == false)
        #expect(authorEntity.attribute(named: "born")?.minimum == .date(Date(timeIntervalSince1970: -30_610_224_000)))
        #expect(authorEntity.relationship(named: "books")?.deleteRule == .deny)
    }

    @Test func canonicalJSONHasSortedKeysAndNoWhitespace() throws {
        let model = try ModelFixtures.load(
            #"{ "version": 1, "name": "M", "entities": [ { "name": "E", "attributes": [ { "type": "string", "name": "s" } ] } ] }"#)
        #expect(
            String(decoding: model.canonicalJSON, as: UTF8.self)
                == #"{"entities":[{"attributes":[{"name":"s","type":"string"}],"name":"E"}],"name":"M","version":1}"#)
    }

    @Test func classNameDefaultsToTheEntityName() throws {
        let model = try ModelFixtures.load(
            ModelFixtures.model(#"{ "name": "Shelf", "attributes": [] }, { "name": "Loan2", "className": "LoanRecord" }"#))
        #expect(model.entity(named: "Shelf")?.className == "Shelf")
        #expect(model.entity(named: "Loan2")?.className == "LoanRecord")
    }

    @Test func oneWayRelationshipAndInversePairLoad() throws {
        let model = try ModelFixtures.load(
            ModelFixtures.model(
                """
                { "name": "Author", "relationships": [
                    { "name": "books", "destination": "Book", "toMany": true, "ordered": true, "inverse": "author", "deleteRule": "cascade", "minCount": 0, "maxCount": 10 } ] },
                { "name": "Book", "relationships": [
                    { "name": "author", "destination": "Author", "inverse": "books", "optional": false },
                    { "name": "related", "destination": "Book", "inverse": null } ] }
                """))
        let books = try #require(model.entity(named: "Author")?.relationships.first)
        #expect(books.isToMany && books.isOrdered)
        #expect(books.inverseName == "author")
        #expect(books.deleteRule == .cascade)
        #expect(books.maxCount == 10)
        let book = try #require(model.entity(named: "Book"))
        #expect(book.relationships.map(\.name) == ["author", "related"])
        #expect(book.relationships[0].isOptional == false)
        #expect(book.relationships[1].inverseName == nil)
        #expect(book.relationships[1].deleteRule == .nullify)
    }

    @Test func childEntitiesInheritTheirParentsPropertiesFirst() throws {
        let model = try ModelFixtures.load(
            ModelFixtures.model(
                """
                { "name": "Student", "parent": "Person", "attributes": [ { "name": "school", "type": "string" } ], "indexes": [["name", "school"]] },
                { "name": "Person", "abstract": true, "attributes": [ { "name": "name", "type": "string" } ], "uniquenessConstraints": [["name"]] }
                """))
        let student = try #require(model.entity(named: "Student"))
        #expect(student.parentName == "Person")
        #expect(student.attributes.map(\.name) == ["name", "school"])
        #expect(student.attributes.map(\.index) == [0, 1])
        #expect(student.uniquenessConstraints == [["name"]])
        #expect(student.indexes == [["name", "school"]])
        #expect(model.entity(named: "Person")?.isAbstract == true)
    }
}
