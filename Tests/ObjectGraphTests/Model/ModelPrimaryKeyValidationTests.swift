import Foundation
import Testing

@testable import ObjectGraph

/// `"primaryKey"`: which attribute may hold an entity's row keys, and what the model makes of it.
@Suite struct ModelPrimaryKeyValidationTests {
    private static func person(key: String = #""id""#, id: String = #""type": "integer64""#) -> String {
        ModelFixtures.model(
            """
            { "name": "Person", "primaryKey": \(key), "attributes": [
                { "name": "id", \(id) }, { "name": "name", "type": "string" } ] }
            """)
    }

    @Test func theKeyAttributeIsMarkedAndUnique() throws {
        let person = try ModelFixtures.load(Self.person()).entity(named: "Person")
        #expect(person?.primaryKey == "id")
        #expect(person?.attributes.map(\.isPrimaryKey) == [true, false])
        #expect(person?.uniquenessConstraints == [["id"]])
    }

    @Test func anEntityWithoutOneHasNone() throws {
        let thing = try ModelFixtures.load(ModelFixtures.thing(attributes: #"{ "name": "id", "type": "integer64" }"#)).entity(
            named: "Thing")
        #expect(thing?.primaryKey == nil)
        #expect(thing?.attributes[0].isPrimaryKey == false)
        #expect(thing?.uniquenessConstraints == [])
    }

    @Test func aDeclaredConstraintOnTheKeyIsNotRepeated() throws {
        let json = ModelFixtures.model(
            """
            { "name": "Person", "primaryKey": "id", "uniquenessConstraints": [["id"], ["name"]], "attributes": [
                { "name": "id", "type": "integer32" }, { "name": "name", "type": "string" } ] }
            """)
        #expect(try ModelFixtures.load(json).entity(named: "Person")?.uniquenessConstraints == [["id"], ["name"]])
    }

    @Test func subEntitiesShareTheRootsKey() throws {
        let json = ModelFixtures.model(
            """
            { "name": "Person", "primaryKey": "id", "attributes": [ { "name": "id", "type": "integer64" } ] },
            { "name": "Author", "parent": "Person", "attributes": [ { "name": "pen", "type": "string", "optional": true } ] }
            """)
        let author = try ModelFixtures.load(json).entity(named: "Author")
        #expect(author?.primaryKey == "id")
        #expect(author?.attributes.first { $0.name == "id" }?.isPrimaryKey == true)
    }

    @Test func theKeyChangesTheVersionHash() throws {
        let keyed = try ModelFixtures.load(Self.person())
        let plain = try ModelFixtures.load(
            ModelFixtures.model(
                """
                { "name": "Person", "attributes": [ { "name": "id", "type": "integer64" }, { "name": "name", "type": "string" } ] }
                """))
        #expect(keyed.versionHash != plain.versionHash)
        #expect(try ModelFixtures.load(Self.person()).versionHash == keyed.versionHash)
    }

    @Test(arguments: [
        (#""idd""#, [#"found "idd", which is not an attribute of Person"#, #"did you mean "id"?"#]),
        (#""name""#, [#"found "name", a string attribute, expected an integer attribute"#]),
        ("7", ["found 7 (a number), expected the name of an integer attribute"])
    ])
    func aKeyThatIsNotAnIntegerAttribute(key: String, fragments: [String]) {
        let issue = ModelFixtures.expectSingleIssue(Self.person(key: key), path: "entities[0].primaryKey")
        for fragment in fragments {
            #expect(issue?.message.contains(fragment) == true, "\(issue?.message ?? "no issue") lacks \(fragment)")
        }
    }

    @Test(arguments: [
        (#""type": "integer64", "optional": true"#, "an optional attribute, expected a required one"),
        (#""type": "integer64", "transient": true"#, "a transient attribute, expected a stored one"),
        (#""type": "integer16", "default": 1"#, "an attribute with a default, expected one without")
    ])
    func aKeyThatCannotIdentifyEveryRow(id: String, fragment: String) {
        ModelFixtures.expectSingleIssue(Self.person(id: id), path: "entities[0].primaryKey", #"found "id", "#, fragment)
    }

    @Test func aKeyOnASubEntity() {
        let json = ModelFixtures.model(
            """
            { "name": "Person", "attributes": [ { "name": "name", "type": "string" } ] },
            { "name": "Author", "parent": "Person", "primaryKey": "id", "attributes": [ { "name": "id", "type": "integer64" } ] }
            """)
        ModelFixtures.expectSingleIssue(
            json, path: "entities[1].primaryKey",
            "found a primary key on Author, a sub-entity, expected it on its hierarchy's root Person")
    }

    @Test func aKeyNamingABrokenAttributeIsNotReportedTwice() {
        let issues = ModelFixtures.issues(Self.person(id: #""type": "int""#))
        #expect(issues.map(\.path) == ["entities[0].attributes[0].type"])
    }
}
