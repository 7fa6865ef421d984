import Foundation
import Testing

@testable import ObjectGraph

/// Models that SQLite could not store are refused at load, for every store, naming the entity:
/// a table holds at most 2,000 columns.
@Suite struct ModelStoreLimitTests {
    private static func attributes(_ count: Int, prefix: String = "a") -> String {
        (0..<count).map { #"{ "name": "\#(prefix)\#($0)", "type": "integer32", "optional": true }"# }.joined(separator: ", ")
    }

    @Test func aTableOfTwoThousandColumnsLoadsAndSaves() throws {
        // 1,998 attributes, `_pk` and `_version`.
        let model = try ModelFixtures.load(ModelFixtures.model(#"{ "name": "Wide", "attributes": [\#(Self.attributes(1_998))] }"#))
        let store = try TestStore(.sqlite, model: { model })
        let id = try store.withNewContext { context in
            let wide = try context.insertNewObject(forEntityName: "Wide")
            try wide.setValue(7, forKey: "a1997")
            try context.save()
            return wide.objectID
        }
        try store.reopen()
        #expect(try store.withNewContext { try $0.existingObject(with: id).value(forKey: "a1997", as: Int.self) } == 7)
    }

    @Test func anEntityNeedingMoreColumnsIsRefusedAtLoad() {
        let issue = ModelFixtures.expectSingleIssue(
            ModelFixtures.model(#"{ "name": "Wide", "attributes": [\#(Self.attributes(1_999))] }"#),
            path: "entities[0]", "Wide would need a table of 2001 columns", "more than the 2000 SQLite allows")
        #expect(issue?.line == 5)
    }

    @Test func aHierarchySharesOneTableAndItsLimit() {
        let json = ModelFixtures.model(
            """
            { "name": "Base", "attributes": [\(Self.attributes(1_000))] },
            { "name": "Derived", "parent": "Base", "attributes": [\(Self.attributes(1_000, prefix: "b"))] }
            """)
        ModelFixtures.expectSingleIssue(json, path: "entities[0]", "Base and its 1 sub-entities, which share its table,", "2003 columns")
    }
}
