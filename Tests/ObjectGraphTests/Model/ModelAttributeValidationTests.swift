import Foundation
import Testing

@testable import ObjectGraph

/// Attribute rules: default values, value and length limits, regular expressions.
@Suite struct ModelAttributeValidationTests {
    private func attribute(_ fields: String) -> String {
        ModelFixtures.thing(attributes: #"{ "name": "value", \#(fields) }"#)
    }

    private static let path = "entities[0].attributes[0]"

    @Test(arguments: [
        (#""type": "integer16", "default": -32768"#, AttributeValue.integer(-32768)),
        (#""type": "integer32", "default": 2147483647"#, .integer(2_147_483_647)),
        (#""type": "integer64", "default": -9223372036854775808"#, .integer(.min)),
        (#""type": "double", "default": 2.5e-3"#, .double(0.0025)),
        (#""type": "float", "default": 0.1"#, .float(0.1)),
        (#""type": "decimal", "default": 12.50"#, .decimal(Decimal(string: "12.5")!)),
        (#""type": "decimal", "default": "0.1""#, .decimal(Decimal(string: "0.1")!)),
        (#""type": "string", "default": "n/a""#, .string("n/a")),
        (#""type": "boolean", "default": false"#, .boolean(false)),
        (#""type": "date", "default": "2001-01-01T00:00:00Z""#, .date(Date(timeIntervalSinceReferenceDate: 0))),
        (#""type": "date", "default": "2001-01-01T02:00:00.5+02:00""#, .date(Date(timeIntervalSinceReferenceDate: 0.5))),
        (#""type": "date", "default": "2000-02-29""#, .date(Date(timeIntervalSinceReferenceDate: -86_400 * 307))),
        (#""type": "binary", "default": "aGVsbG8=""#, .binary(Data("hello".utf8))),
        (
            #""type": "uuid", "default": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#,
            .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)
        ),
        (#""type": "uri", "default": "https://example.com/a%20b""#, .uri(URL(string: "https://example.com/a%20b")!)),
        (
            #""type": "json", "default": { "b": [1, 2], "a": null }"#,
            .json(JSONDocument(validatedData: Data(#"{"a":null,"b":[1,2]}"#.utf8)))
        ),
        (#""type": "json", "default": "text""#, .json(JSONDocument(validatedData: Data(#""text""#.utf8))))
    ])
    func defaultLiteralsConvertToStoredValues(fields: String, expected: AttributeValue) throws {
        let model = try ModelFixtures.load(attribute(fields))
        #expect(model.entities[0].attributes[0].defaultValue == expected)
    }

    @Test(arguments: [
        (#""type": "integer16", "default": 70000"#, "found 70000 (a number), expected a whole number between -32768 and 32767"),
        (#""type": "integer32", "default": 2.5"#, "expected a whole number between -2147483648 and 2147483647"),
        (#""type": "integer64", "default": 1e3"#, "found 1e3"),
        (#""type": "integer64", "default": "12""#, "found \"12\" (a string)"),
        (#""type": "float", "default": 1e39"#, "within the range of a float"),
        (#""type": "double", "default": 1e400"#, "within the range of a double"),
        (#""type": "double", "default": "1.5""#, "found \"1.5\" (a string), expected a number"),
        (#""type": "decimal", "default": "12abc""#, "a string holding a number such as \"12.50\""),
        (#""type": "string", "default": 5"#, "found 5 (a number), expected a string"),
        (#""type": "boolean", "default": "true""#, "expected true or false"),
        (#""type": "date", "default": 0"#, "numbers are not accepted as dates"),
        (#""type": "date", "default": "2024-02-30""#, "expected an ISO-8601 date string"),
        (#""type": "date", "default": "2024-01-31 09:30""#, "ISO-8601"),
        (#""type": "binary", "default": "***""#, "expected a base64 string"),
        (#""type": "uuid", "default": "not-a-uuid""#, "expected a UUID string"),
        (#""type": "uri", "default": "relative/path""#, "expected an absolute URL"),
        (#""type": "uri", "default": "https://example.com/a b""#, "percent-encoded"),
        (#""type": "string", "default": null"#, "leave out \"default\"")
    ])
    func defaultOfTheWrongTypeOrOutOfRange(fields: String, fragment: String) {
        ModelFixtures.expectSingleIssue(attribute(fields), path: Self.path + ".default", fragment)
    }

    @Test func limitsConvertToTheAttributeType() throws {
        let model = try ModelFixtures.load(
            ModelFixtures.thing(
                attributes: """
                    { "name": "count", "type": "integer32", "minValue": -5, "maxValue": 5 },
                    { "name": "when", "type": "date", "minValue": "2000-01-01", "maxValue": "2100-01-01T00:00:00Z" },
                    { "name": "price", "type": "decimal", "minValue": "0.01" },
                    { "name": "code", "type": "string", "minLength": 2, "maxLength": 8, "regex": "[A-Z]+" },
                    { "name": "blob", "type": "binary", "maxLength": 16 }
                    """))
        let attributes = model.entities[0].attributes
        #expect(attributes[0].minimum == .integer(-5))
        #expect(attributes[0].maximum == .integer(5))
        #expect(attributes[1].minimum == .date(Date(timeIntervalSince1970: 946_684_800)))
        #expect(attributes[2].minimum == .decimal(Decimal(string: "0.01")!))
        #expect(attributes[3].minLength == 2 && attributes[3].maxLength == 8 && attributes[3].regex == "[A-Z]+")
        #expect(attributes[4].maxLength == 16)
    }

    @Test func minimumAboveMaximum() {
        ModelFixtures.expectSingleIssue(
            attribute(#""type": "double", "minValue": 10, "maxValue": 1.5"#),
            path: Self.path + ".minValue", "found minValue 10.0 greater than maxValue 1.5", "expected minValue <= maxValue")
        ModelFixtures.expectSingleIssue(
            attribute(#""type": "date", "minValue": "2020-01-01", "maxValue": "2019-01-01""#),
            path: Self.path + ".minValue", "greater than maxValue 2019-01-01")
        ModelFixtures.expectSingleIssue(
            attribute(#""type": "string", "minLength": 5, "maxLength": 2"#),
            path: Self.path + ".minLength", "found minLength 5 greater than maxLength 2")
    }

    @Test func limitsOnlyOnTypesTheyApplyTo() {
        ModelFixtures.expectSingleIssue(
            attribute(#""type": "string", "minValue": 1"#),
            path: Self.path + ".minValue", "found minValue on a string attribute", "only on numeric and date attributes")
        ModelFixtures.expectSingleIssue(
            attribute(#""type": "integer32", "maxLength": 3"#),
            path: Self.path + ".maxLength", "found maxLength on an integer32 attribute", "only on string and binary attributes")
        ModelFixtures.expectSingleIssue(
            attribute(#""type": "binary", "regex": "a+""#),
            path: Self.path + ".regex", "found regex on a binary attribute", "only on string attributes")
    }

    @Test func limitsMustBeValidValues() {
        ModelFixtures.expectSingleIssue(
            attribute(#""type": "integer16", "maxValue": 40000"#),
            path: Self.path + ".maxValue", "found 40000 (a number)", "between -32768 and 32767")
        ModelFixtures.expectSingleIssue(
            attribute(#""type": "date", "minValue": 0"#),
            path: Self.path + ".minValue", "numbers are not accepted as dates")
        ModelFixtures.expectSingleIssue(
            attribute(#""type": "string", "minLength": -1"#),
            path: Self.path + ".minLength", "found -1 (a number), expected a whole number of at least 0")
    }

    @Test func regexMustCompile() {
        ModelFixtures.expectSingleIssue(
            attribute(#""type": "string", "regex": "[a-""#),
            path: Self.path + ".regex", "found regex \"[a-\", which does not compile")
    }

    @Test func defaultMustSatisfyTheAttributesOwnRules() {
        ModelFixtures.expectSingleIssue(
            attribute(#""type": "integer32", "default": 0, "minValue": 1"#),
            path: Self.path + ".default", "found default 0", "at least minValue 1")
        ModelFixtures.expectSingleIssue(
            attribute(#""type": "double", "default": 9, "maxValue": 5"#),
            path: Self.path + ".default", "at most maxValue 5.0")
        ModelFixtures.expectSingleIssue(
            attribute(#""type": "string", "default": "", "minLength": 1"#),
            path: Self.path + ".default", "found a default of 0 characters, expected at least minLength 1")
        ModelFixtures.expectSingleIssue(
            attribute(#""type": "binary", "default": "aGVsbG8=", "maxLength": 2"#),
            path: Self.path + ".default", "5 bytes", "at most maxLength 2")
        ModelFixtures.expectSingleIssue(
            attribute(#""type": "string", "default": "abc1", "regex": "[a-z]+""#),
            path: Self.path + ".default", "matching the regex \"[a-z]+\" entirely")
    }

    @Test func transientAttributesCannotBeIndexed() {
        ModelFixtures.expectSingleIssue(
            attribute(#""type": "string", "transient": true, "indexed": true"#),
            path: Self.path + ".indexed", "transient attributes are not stored")
    }

    @Test func renamingIdentifierMustBeAnIdentifier() throws {
        ModelFixtures.expectSingleIssue(
            attribute(#""type": "string", "renamingIdentifier": "old name""#),
            path: Self.path + ".renamingIdentifier", "found renaming identifier \"old name\"")
        let model = try ModelFixtures.load(attribute(#""type": "string", "renamingIdentifier": "oldName""#))
        #expect(model.entities[0].attributes[0].renamingIdentifier == "oldName")
    }
}
