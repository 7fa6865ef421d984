import Foundation
import Testing

@testable import ObjectGraph

/// Problems with the document's shape: JSON types, unknown and missing fields, names, versions.
@Suite struct ModelStructureValidationTests {
    @Test func topLevelMustBeAnObject() {
        ModelFixtures.expectSingleIssue("[1, 2]", path: "", "found an array", "expected an object")
    }

    @Test func modelNeedsNameVersionAndEntities() {
        let issues = ModelFixtures.issues("{}")
        #expect(issues.map(\.path) == ["name", "version", "entities"])
        #expect(issues.allSatisfy { $0.message.hasPrefix("missing required field") })
        #expect(issues.allSatisfy { $0.line == 1 && $0.column == 1 })
    }

    @Test(arguments: ["0", "-3", "1.5", "\"1\""])
    func versionMustBeAnIntegerOfAtLeastOne(version: String) {
        ModelFixtures.expectSingleIssue(
            ModelFixtures.model(#"{ "name": "E" }"#, version: version),
            path: "version", "found \(version)", "expected a whole number of at least 1")
    }

    @Test func modelWithoutEntitiesIsRefused() {
        ModelFixtures.expectSingleIssue(ModelFixtures.model(""), path: "entities", "found an empty array", "expected at least one entity")
    }

    @Test func wrongJSONTypesNameWhatWasFoundAndExpected() {
        let issue = ModelFixtures.expectSingleIssue(
            ModelFixtures.thing(attributes: #"{ "name": "count", "type": "integer32", "optional": "yes" }"#),
            path: "entities[0].attributes[0].optional", "found \"yes\" (a string)", "expected true or false")
        #expect(issue?.line == 5)

        ModelFixtures.expectSingleIssue(
            ModelFixtures.model(#"{ "name": 42 }"#), path: "entities[0].name", "found 42 (a number)", "expected the entity's name")
        ModelFixtures.expectSingleIssue(
            ModelFixtures.model(#"{ "name": "E", "attributes": {} }"#),
            path: "entities[0].attributes", "found an object", "expected an array of attributes")
        ModelFixtures.expectSingleIssue(
            ModelFixtures.model(#""Thing""#), path: "entities[0]", "found \"Thing\" (a string)", "expected an object describing an entity")
    }

    @Test func unknownFieldSuggestsTheClosestKnownOne() {
        let issue = ModelFixtures.expectSingleIssue(
            ModelFixtures.thing(attributes: #"{ "name": "title", "type": "string", "optinal": true }"#),
            path: "entities[0].attributes[0].optinal", "found unknown field \"optinal\"", "did you mean \"optional\"?")
        #expect(issue?.file == "Test.json")
        #expect(issue?.line == 5)
        #expect(issue?.column == 77)

        ModelFixtures.expectSingleIssue(
            ModelFixtures.model(#"{ "name": "E", "zzz": 1 }"#),
            path: "entities[0].zzz", "found unknown field \"zzz\"", "expected one of: name, className")
        ModelFixtures.expectSingleIssue(
            ModelFixtures.model(#"{ "name": "E" }"#).replacingOccurrences(of: "\"version\"", with: "\"verison\": 1, \"version\""),
            path: "verison", "did you mean \"version\"?")
    }

    @Test func repeatedKeyIsReported() {
        ModelFixtures.expectSingleIssue(
            ModelFixtures.model(#"{ "name": "E", "name": "F" }"#),
            path: "entities[0].name", "found the key \"name\" a second time")
    }

    @Test func missingRequiredAttributeFields() {
        let issues = ModelFixtures.issues(ModelFixtures.thing(attributes: #"{ "optional": true }"#))
        #expect(issues.map(\.path) == ["entities[0].attributes[0].name", "entities[0].attributes[0].type"])
        #expect(issues[1].message.contains("missing required field \"type\""))
        #expect(issues[1].message.contains("integer16, integer32"))
    }

    @Test func unknownAttributeTypeListsValidTypesAndSuggests() {
        ModelFixtures.expectSingleIssue(
            ModelFixtures.thing(attributes: #"{ "name": "title", "type": "strng" }"#),
            path: "entities[0].attributes[0].type", "found unknown attribute type \"strng\"", "did you mean \"string\"?",
            "integer16, integer32, integer64, double, float, decimal, string, boolean, date, binary, uuid, uri, json")
        ModelFixtures.expectSingleIssue(
            ModelFixtures.thing(attributes: #"{ "name": "title", "type": "text" }"#),
            path: "entities[0].attributes[0].type", "found unknown attribute type \"text\"", "expected an attribute type (one of")
    }

    @Test(arguments: ["first name", "1st", "_hidden", "naïve", String(repeating: "a", count: 65), ""])
    func invalidIdentifiersAreRefused(name: String) {
        ModelFixtures.expectSingleIssue(
            ModelFixtures.thing(attributes: #"{ "name": "\#(name)", "type": "string" }"#),
            path: "entities[0].attributes[0].name", "found property name \"\(name)\"",
            "expected a letter followed by letters, digits or underscores")
    }

    @Test func sixtyFourCharacterNamesAreAllowed() throws {
        let name = "a" + String(repeating: "b", count: 63)
        let model = try ModelFixtures.load(ModelFixtures.thing(attributes: #"{ "name": "\#(name)", "type": "string" }"#))
        #expect(model.entities[0].attributes[0].name == name)
    }

    @Test func invalidEntityAndModelNames() {
        ModelFixtures.expectSingleIssue(
            ModelFixtures.model(#"{ "name": "Book-Shelf" }"#), path: "entities[0].name", "found entity name \"Book-Shelf\"", "'-'")
        ModelFixtures.expectSingleIssue(
            ModelFixtures.model(#"{ "name": "E" }"#, name: "My Library"), path: "name", "found model name \"My Library\"")
    }

    @Test(arguments: ["sqlite_master", "SQLiteStats", "sqlitething"])
    func entityNamesStartingWithSQLiteAreReserved(name: String) {
        ModelFixtures.expectSingleIssue(
            ModelFixtures.model(#"{ "name": "\#(name)", "className": "Stats" }"#),
            path: "entities[0].name", "found entity name \"\(name)\"", "not starting with \"sqlite\"")
    }

    @Test(arguments: [
        "objectID", "entity", "managedObjectContext", "isFault", "isInserted", "isUpdated", "isDeleted",
        "hasChanges", "description", "hash", "hashValue", "self", "changedValues", "committedValues",
        "Attributes", "Relationships"
    ])
    func propertyNamesCollidingWithManagedObjectAreReserved(name: String) {
        ModelFixtures.expectSingleIssue(
            ModelFixtures.thing(attributes: #"{ "name": "\#(name)", "type": "string" }"#),
            path: "entities[0].attributes[0].name", "found property name \"\(name)\"", "reserved")
    }

    @Test(arguments: ["rowid", "ROWID", "oid"])
    func sqliteRowIDAliasesAreReserved(name: String) {
        ModelFixtures.expectSingleIssue(
            ModelFixtures.thing(attributes: #"{ "name": "\#(name)", "type": "integer64" }"#),
            path: "entities[0].attributes[0].name", "SQLite reserves")
    }

    @Test func classNamesThatShadowTypesAreReserved() {
        ModelFixtures.expectSingleIssue(
            ModelFixtures.model(#"{ "name": "Date" }"#), path: "entities[0].name", "class name \"Date\"", "add a \"className\"")
        ModelFixtures.expectSingleIssue(
            ModelFixtures.model(#"{ "name": "Thing", "className": "ManagedObject" }"#),
            path: "entities[0].className", "class name \"ManagedObject\"")
        ModelFixtures.expectSingleIssue(
            ModelFixtures.model(#"{ "name": "Thing", "className": "TypedManagedObject" }"#),
            path: "entities[0].className", "class name \"TypedManagedObject\"")
        #expect(throws: Never.self) { try ModelFixtures.load(ModelFixtures.model(#"{ "name": "Date", "className": "CalendarDate" }"#)) }
    }

    @Test func duplicateEntityNamesIgnoringCase() {
        ModelFixtures.expectSingleIssue(
            ModelFixtures.model(#"{ "name": "Book" }, { "name": "book" }"#),
            path: "entities[1].name", "found entity name \"book\" again", "entities[0] is \"Book\"")
        ModelFixtures.expectSingleIssue(
            ModelFixtures.model(#"{ "name": "Book" }, { "name": "Volume", "className": "Book" }"#),
            path: "entities[1].className", "found class name \"Book\" again")
    }

    @Test func duplicatePropertyNamesIgnoringCaseAcrossAttributesAndRelationships() {
        ModelFixtures.expectSingleIssue(
            ModelFixtures.thing(attributes: #"{ "name": "title", "type": "string" }, { "name": "Title", "type": "string" }"#),
            path: "entities[0].attributes[1].name", "found property name \"Title\" again", "entities[0].attributes[0] is \"title\"")
        ModelFixtures.expectSingleIssue(
            ModelFixtures.thing(
                attributes: #"{ "name": "owner", "type": "uuid" }"#,
                extra: #""relationships": [ { "name": "owner", "destination": "Thing", "inverse": null } ]"#),
            path: "entities[0].relationships[0].name", "found property name \"owner\" again")
    }

    /// Every problem comes back in one error, in file order.
    @Test func everyProblemIsReportedAtOnce() throws {
        let json = """
            {
              "name": "Library",
              "version": 0,
              "entities": [
                { "name": "Book", "attributes": [
                    { "name": "title", "type": "strng" },
                    { "name": "isbn", "type": "string", "optinal": true },
                    { "name": "pages", "type": "integer16", "default": 70000 }
                  ],
                  "indexes": [["titel"]]
                },
                { "name": "Book" }
              ]
            }
            """
        let error = try #require(ModelFixtures.error(json))
        #expect(
            error.issues.map(\.path) == [
                "version",
                "entities[0].attributes[0].type",
                "entities[0].attributes[1].optinal",
                "entities[0].attributes[2].default",
                "entities[0].indexes[0][0]",
                "entities[1].name"
            ])
        let lines = error.message.split(separator: "\n")
        #expect(lines.first == "Test.json: 6 problems in the model:")
        #expect(lines.count == 7)
        #expect(lines[1] == "  Test.json:3:14: version: found 0 (a number), expected a whole number of at least 1")
        #expect(error.issues[1].line == 6)
        #expect(error.issues[1].column == 36)
    }
}
