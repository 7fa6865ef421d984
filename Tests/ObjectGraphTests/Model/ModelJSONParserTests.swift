import Foundation
import Testing

@testable import ObjectGraph

@Suite struct ModelJSONParserTests {
    private func syntaxError(_ text: String) -> JSONSyntaxError? {
        do {
            _ = try ModelJSONParser.parse(text.utf8)
            Issue.record("expected a syntax error for \(text)")
            return nil
        } catch {
            return error
        }
    }

    @Test func recordsPositionsOfValuesAndKeys() throws {
        let node = try ModelJSONParser.parse("{\n  \"a\": [1, \"x\"],\n  \"béta\": true\n}".utf8)
        guard case .object(let members) = node.value else {
            Issue.record("not an object")
            return
        }
        #expect(node.position == SourcePosition(line: 1, column: 1))
        #expect(members.map(\.key) == ["a", "béta"])
        #expect(members[0].keyPosition == SourcePosition(line: 2, column: 3))
        #expect(members[0].value.position == SourcePosition(line: 2, column: 8))
        #expect(members[0].value.arrayValue?[1].position == SourcePosition(line: 2, column: 12))
        // Columns count characters, not UTF-8 bytes: "béta" is 4 characters wide.
        #expect(members[1].value.position == SourcePosition(line: 3, column: 11))
    }

    @Test func keepsNumberLiteralsAndDecodesEscapes() throws {
        let node = try ModelJSONParser.parse(#"[12.50, -0, 1e3, "a\"b\\c\/\n\u00e9\ud83d\ude00"]"#.utf8)
        let elements = try #require(node.arrayValue)
        guard case .number(let text) = elements[0].value else {
            Issue.record("not a number")
            return
        }
        #expect(text == "12.50")
        #expect(elements[3].stringValue == "a\"b\\c/\né😀")
    }

    @Test func canonicalTextSortsKeysAndDropsWhitespace() throws {
        let node = try ModelJSONParser.parse(#"{ "b": [1, {"z": null, "a": false}], "a": "x\ty" }"#.utf8)
        #expect(node.canonicalText == #"{"a":"x\ty","b":[1,{"a":false,"z":null}]}"#)
    }

    @Test(arguments: [
        ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}'"),
        ("{\n  \"a\": 1,\n}", 3, 1, "no trailing comma"),
        ("[1, 2,]", 1, 7, "no trailing comma"),
        ("{\"a\": \"abc", 1, 7, "never closed"),
        ("{\"a\": True}", 1, 7, "'True'"),
        ("{'a': 1}", 1, 2, "double quotes"),
        ("[01]", 1, 2, "leading zero"),
        ("[1.]", 1, 4, "decimal point"),
        ("", 1, 1, "empty"),
        ("{} {}", 1, 4, "after the end"),
        ("[\"a\\q\"]", 1, 4, "escape \\q"),
        ("[\"\\ud800\"]", 1, 3, "surrogate"),
        ("[\"a\nb\"]", 1, 4, "control character"),
        ("{\"a\":", 1, 6, "end of the input")
    ])
    func reportsSyntaxErrorsWithPosition(text: String, line: Int, column: Int, fragment: String) {
        guard let error = syntaxError(text) else { return }
        #expect(error.position == SourcePosition(line: line, column: column), "\(error.message)")
        #expect(error.message.contains(fragment), "\(error.message)")
    }

    @Test func refusesDeepNesting() {
        let text = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(syntaxError(text)?.message.contains("nested") == true)
    }

    @Test func skipsByteOrderMark() throws {
        let node = try ModelJSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[true]".utf8))
        #expect(node.arrayValue?.count == 1)
    }

    @Test func malformedModelFileReportsLineAndColumn() throws {
        let json = """
            {
              "name": "Broken",
              "version": 1
              "entities": []
            }
            """
        let error = try #require(ModelFixtures.error(json))
        #expect(error.issues.count == 1)
        let issue = try #require(error.issues.first)
        #expect(issue.line == 4)
        #expect(issue.column == 3)
        #expect(issue.message.contains("malformed JSON"))
        #expect(issue.message.contains("expected ',' or '}'"))
        #expect(error.message.hasPrefix("Test.json: 1 problem in the model:\n  Test.json:4:3: malformed JSON"))
    }
}
