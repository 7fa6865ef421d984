import Testing

@testable import ObjectGraph

/// Uniqueness constraints, indexes and entity inheritance.
@Suite struct ModelConstraintValidationTests {
    private func thing(_ extra: String) -> String {
        ModelFixtures.thing(
            attributes: """
                { "name": "code", "type": "string" },
                { "name": "name", "type": "string" },
                { "name": "scratch", "type": "string", "optional": true, "transient": true }
                """, extra: extra)
    }

    @Test func constraintsMustNameExistingAttributes() {
        ModelFixtures.expectSingleIssue(
            thing(#""uniquenessConstraints": [["cod"]]"#),
            path: "entities[0].uniquenessConstraints[0][0]", "found \"cod\", which is not an attribute of Thing", "did you mean \"code\"?")
        ModelFixtures.expectSingleIssue(
            thing(#""indexes": [["name", "zzz"]]"#),
            path: "entities[0].indexes[0][1]", "found \"zzz\"", "expected one of: code, name, scratch")
    }

    @Test func constraintsCannotNameTransientAttributes() {
        ModelFixtures.expectSingleIssue(
            thing(#""indexes": [["scratch"]]"#),
            path: "entities[0].indexes[0][0]", "found \"scratch\", a transient attribute", "expected a stored attribute")
        ModelFixtures.expectSingleIssue(
            thing(#""uniquenessConstraints": [["code", "scratch"]]"#),
            path: "entities[0].uniquenessConstraints[0][1]", "a transient attribute")
    }

    @Test func constraintsCannotNameRelationships() {
        ModelFixtures.expectSingleIssue(
            ModelFixtures.model(
                #"{ "name": "Node", "relationships": [ { "name": "parentNode", "destination": "Node", "inverse": null } ], "indexes": [["parentNode"]] }"#
            ),
            path: "entities[0].indexes[0][0]", "found \"parentNode\", a relationship, expected an attribute of Node")
    }

    @Test func emptyAndMalformedLists() {
        ModelFixtures.expectSingleIssue(
            thing(#""indexes": [[]]"#), path: "entities[0].indexes[0]", "found an empty array", "naming one or more attributes")
        ModelFixtures.expectSingleIssue(
            thing(#""indexes": ["code"]"#), path: "entities[0].indexes[0]", "found \"code\" (a string)", "an array of attribute names")
        ModelFixtures.expectSingleIssue(
            thing(#""uniquenessConstraints": [["code", "code"]]"#),
            path: "entities[0].uniquenessConstraints[0][1]", "found \"code\" twice")
        ModelFixtures.expectSingleIssue(
            thing(#""indexes": "code""#), path: "entities[0].indexes", "found \"code\" (a string), expected an array of lists")
    }

    @Test func parentMustExist() {
        ModelFixtures.expectSingleIssue(
            ModelFixtures.model(#"{ "name": "Person" }, { "name": "Student", "parent": "Persn" }"#),
            path: "entities[1].parent", "found parent \"Persn\", which is not an entity of the model", "did you mean \"Person\"?")
        ModelFixtures.expectSingleIssue(
            ModelFixtures.model(#"{ "name": "Person", "parent": "Person" }"#),
            path: "entities[0].parent", "the entity itself")
    }

    @Test func parentsMustNotFormACycle() {
        let issues = ModelFixtures.issues(
            ModelFixtures.model(
                """
                { "name": "Leaf", "parent": "A" },
                { "name": "A", "parent": "B" },
                { "name": "B", "parent": "C" },
                { "name": "C", "parent": "A" }
                """))
        #expect(issues.map(\.path) == ["entities[1].parent"])
        #expect(issues.first?.message.contains("inheritance cycle (A → B → C → A)") == true)
    }

    @Test func childrenCannotRedeclareInheritedProperties() {
        ModelFixtures.expectSingleIssue(
            ModelFixtures.model(
                """
                { "name": "Person", "attributes": [ { "name": "name", "type": "string" } ] },
                { "name": "Student", "parent": "Person", "attributes": [ { "name": "Name", "type": "string" } ] }
                """), path: "entities[1].attributes[0].name", "Student already inherits from Person (\"name\")")
    }

    @Test func childConstraintsMayNameInheritedAttributes() throws {
        let model = try ModelFixtures.load(
            ModelFixtures.model(
                """
                { "name": "Person", "attributes": [ { "name": "email", "type": "string" } ] },
                { "name": "Student", "parent": "Person", "uniquenessConstraints": [["email"]] }
                """))
        #expect(model.entity(named: "Student")?.uniquenessConstraints == [["email"]])
    }
}
