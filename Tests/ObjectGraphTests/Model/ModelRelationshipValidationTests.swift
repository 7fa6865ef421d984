import Testing

@testable import ObjectGraph

/// Relationship rules: destinations, inverses, delete rules and counts.
@Suite struct ModelRelationshipValidationTests {
    /// An Author/Book model whose `Book.author` relationship has `bookAuthor` as its fields.
    private func books(_ bookAuthor: String, authorBooks: String = #""inverse": "author""#) -> String {
        ModelFixtures.model(
            """
            { "name": "Author", "relationships": [ { "name": "books", "destination": "Book", "toMany": true, \(authorBooks) } ] },
            { "name": "Book", "relationships": [ { "name": "author", \(bookAuthor) } ] }
            """)
    }

    private static let path = "entities[1].relationships[0]"

    @Test func destinationMustExist() {
        ModelFixtures.expectSingleIssue(
            books(#""destination": "Autor", "inverse": null"#, authorBooks: #""inverse": null"#),
            path: Self.path + ".destination", "found destination \"Autor\"", "did you mean \"Author\"?")
        ModelFixtures.expectSingleIssue(
            books(#""inverse": null"#, authorBooks: #""inverse": null"#),
            path: Self.path + ".destination", "missing required field \"destination\"")
    }

    @Test func inverseKeyIsRequiredUnlessDeclaredOneWayWithNull() throws {
        ModelFixtures.expectSingleIssue(
            books(#""destination": "Author""#, authorBooks: #""inverse": null"#),
            path: Self.path + ".inverse", "missing required field \"inverse\"", "or null for a deliberately one-way relationship")
        ModelFixtures.expectSingleIssue(
            books(#""destination": "Author", "inverse": 3"#, authorBooks: #""inverse": null"#),
            path: Self.path + ".inverse", "found 3 (a number)")
        _ = try ModelFixtures.load(books(#""destination": "Author", "inverse": null"#, authorBooks: #""inverse": null"#))
    }

    @Test func inverseMustExistOnTheDestination() {
        let issues = ModelFixtures.issues(books(#""destination": "Author", "inverse": "book""#))
        let issue = issues.first { $0.path == Self.path + ".inverse" }
        #expect(issue?.message.contains("found inverse \"book\", which is not a relationship of Author; did you mean \"books\"?") == true)
        ModelFixtures.expectSingleIssue(
            ModelFixtures.model(
                """
                { "name": "Author", "attributes": [ { "name": "name", "type": "string" } ] },
                { "name": "Book", "relationships": [ { "name": "author", "destination": "Author", "inverse": "name" } ] }
                """),
            path: Self.path + ".inverse", "which is an attribute of Author, expected one of its relationships")
    }

    @Test func inverseMustPointBackToThisEntity() {
        let json = ModelFixtures.model(
            """
            { "name": "Author", "relationships": [ { "name": "books", "destination": "Book", "toMany": true, "inverse": "author" } ] },
            { "name": "Book", "relationships": [ { "name": "author", "destination": "Member", "inverse": "books" } ] },
            { "name": "Member", "relationships": [ { "name": "books", "destination": "Book", "toMany": true, "inverse": "author" } ] }
            """)
        let issues = ModelFixtures.issues(json)
        #expect(issues.map(\.path) == ["entities[0].relationships[0].inverse"])
        #expect(
            issues.first?.message.contains("but Book.author points to Member, expected a relationship of Book pointing back to Author")
                == true)
    }

    @Test func inversesMustNameEachOther() {
        let json = ModelFixtures.model(
            """
            { "name": "Author", "relationships": [
                { "name": "books", "destination": "Book", "toMany": true, "inverse": "author" },
                { "name": "edited", "destination": "Book", "toMany": true, "inverse": "author" } ] },
            { "name": "Book", "relationships": [ { "name": "author", "destination": "Author", "inverse": "books" } ] }
            """)
        ModelFixtures.expectSingleIssue(
            json, path: "entities[0].relationships[1].inverse",
            "Book.author names \"books\" as its inverse", "expected the two relationships to name each other")
        ModelFixtures.expectSingleIssue(
            books(#""destination": "Author", "inverse": null"#),
            path: "entities[0].relationships[0].inverse", "Book.author is declared one-way")
    }

    @Test func deleteRuleMustBeKnown() {
        ModelFixtures.expectSingleIssue(
            books(#""destination": "Author", "inverse": "books", "deleteRule": "cascde""#),
            path: Self.path + ".deleteRule", "found unknown delete rule \"cascde\"", "did you mean \"cascade\"?",
            "nullify, cascade, deny, noAction")
    }

    @Test func countsAndOrderingApplyToToManyOnly() {
        ModelFixtures.expectSingleIssue(
            books(#""destination": "Author", "inverse": "books", "ordered": true"#),
            path: Self.path + ".ordered", "found \"ordered\": true on a to-one relationship")
        ModelFixtures.expectSingleIssue(
            books(#""destination": "Author", "inverse": "books", "maxCount": 2"#),
            path: Self.path + ".maxCount", "found maxCount on a to-one relationship")
        ModelFixtures.expectSingleIssue(
            books(
                #""destination": "Author", "inverse": "books""#,
                authorBooks: #""inverse": "author", "minCount": 3, "maxCount": 2"#),
            path: "entities[0].relationships[0].minCount", "found minCount 3 greater than maxCount 2")
    }

    @Test func relationshipNamesFollowPropertyRules() {
        ModelFixtures.expectSingleIssue(
            ModelFixtures.model(#"{ "name": "Node", "relationships": [ { "name": "entity", "destination": "Node", "inverse": null } ] }"#),
            path: "entities[0].relationships[0].name", "found property name \"entity\"", "reserved")
    }
}

@Suite struct OneWayRelationshipWarningTests {
    @Test func oneWayRelationshipsAreReportedAsWarnings() throws {
        let model = try GraphModel.load()
        #expect(
            model.warnings == [
                "Employee.mentor is one-way (\"inverse\": null): an Employee does not know which Employee objects refer to it, so deleting it leaves them pointing at a deleted object",
                "Team.members is one-way (\"inverse\": null): an Employee does not know which Team objects refer to it, so deleting it leaves them pointing at a deleted object"
            ])
    }
}
