import Foundation
import Testing

@testable import ObjectGraph

/// `setValue(_: String?, forKey:)`, the typed overload Swift picks for optional strings and for a
/// bare `nil`: a value sets a string attribute, nil clears any attribute or relationship, as
/// `setValue(_: Any?, forKey:)` does — on objects and on batch-insert rows, on both stores.
@Suite struct OptionalStringSetterConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func optionalStringsAndNilSetAndClear(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { context in
            let author = try context.insert("Author", ["name": "Ann"])
            let book = try context.insert("Book", ["title": "Dune"])
            try book.setValue(author, forKey: "author")
            let subtitle: String? = "Messiah"
            try book.setValue(subtitle, forKey: "title")
            #expect(try book.value(forKey: "title", as: String.self) == "Messiah")
            try book.setValue(nil, forKey: "author")  // the String? overload, for a relationship
            #expect(try book.relatedObject(forKey: "author") == nil)
            #expect(try author.relatedObjects(forKey: "books").isEmpty)
            let error = #expect(throws: ObjectGraphError.self) { try book.setValue("Wrong" as String?, forKey: "author") }
            #expect(error?.kind == .typeMismatch)
            try context.save()
        }
        #expect(try store.storedCount("Book", "title == 'Messiah' AND author == nil") == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func batchRowsTakeOptionalStrings(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let cities: [String?] = ["Paris", nil, "Oslo"]
        try store.withNewContext { context in
            let result = try context.execute(
                BatchInsertRequest(entityName: "Person", count: cities.count) { index, row in
                    try row.setValue("P\(index)", forKey: "name")
                    try row.setValue(cities[index], forKey: "city")
                })
            #expect(result.count == 3)
        }
        #expect(try store.storedCount("Person", "city == nil") == 1)
        #expect(try store.storedCount("Person", "city IN {'Paris', 'Oslo'}") == 2)
    }
}
