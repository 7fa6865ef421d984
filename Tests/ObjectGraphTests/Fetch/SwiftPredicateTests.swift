import Foundation
import Testing

@testable import ObjectGraph

// Classes written by hand against `TypedManagedObject`, as the documented protocol allows: the
// key-path tables are what #Predicate translation reads.

final class PersonRecord: ManagedObject, TypedManagedObject {
    static let entityName = "Person"
    static var propertyKeyPaths: [AnyKeyPath: String] { [\PersonRecord.name: "name", \PersonRecord.age: "age", \PersonRecord.city: "city"] }
    var name: String { (try? value(forKey: "name", as: String.self)) ?? "" }
    var age: Int32? { try? value(forKey: "age", as: Int32.self) }
    var city: String? { try? value(forKey: "city", as: String.self) }
    /// Not in the model: a predicate cannot use it.
    var shout: String { name.uppercased() }
}

final class AuthorRecord: ManagedObject, TypedManagedObject {
    static let entityName = "Author"
    static var propertyKeyPaths: [AnyKeyPath: String] { [\AuthorRecord.name: "name", \AuthorRecord.books: "books"] }
    var name: String { (try? value(forKey: "name", as: String.self)) ?? "" }
    var books: Set<BookRecord> { Set(((try? relatedObjects(forKey: "books")) ?? []).compactMap { $0 as? BookRecord }) }
}

final class BookRecord: ManagedObject, TypedManagedObject {
    static let entityName = "Book"
    static var propertyKeyPaths: [AnyKeyPath: String] { [\BookRecord.title: "title", \BookRecord.author: "author"] }
    var title: String { (try? value(forKey: "title", as: String.self)) ?? "" }
    var author: AuthorRecord? { (try? relatedObject(forKey: "author")) as? AuthorRecord }
}

/// `#Predicate` against the same predicate written as a format string: the same objects on both
/// stores; unsupported expressions refused with an error naming them.
@Suite struct SwiftPredicateTests {
    private static func people(_ kind: StoreKind) throws -> TestStore {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            try context.insertPerson("Ada", age: 36, city: "London")
            try context.insertPerson("Grace", age: 45)
            try context.insertPerson("Alan", age: 41, city: "Wilmslow")
            try context.insertPerson("Linus", city: "Helsinki")
            try context.insertPerson("Guido", age: 30, city: "Paris")
            try context.save()
        }
        return store
    }

    /// The names of the `Person`s each predicate finds, sorted.
    private static func names(
        _ store: TestStore, _ predicate: FetchPredicate, _ entity: String = "Person", _ key: String = "name"
    ) throws -> [String] {
        try store.withNewContext { context in
            try context.fetch(FetchRequest<ManagedObject>(entityName: entity, predicate: predicate))
                .map { try $0.value(forKey: key, as: String.self) ?? "" }.sorted()
        }
    }

    @Test(arguments: StoreKind.allCases)
    func attributePredicatesMatchTheirFormatStrings(kind: StoreKind) throws {
        let store = try Self.people(kind)
        let chosen = ["Ada", "Linus", "Nobody"]
        let cases: [(Predicate<PersonRecord>, String, [Any?])] = [
            (#Predicate { $0.name == "Ada" }, "name == 'Ada'", []),
            (#Predicate { $0.age != nil && $0.age! > 36 }, "age != nil AND age > 36", []),
            (#Predicate { ($0.age ?? 0) >= 40 }, "age >= 40", []),
            (#Predicate { ($0.city ?? "Paris") == "Paris" }, "city == 'Paris' OR city == nil", []),
            (#Predicate { $0.name.contains("a") }, "name CONTAINS 'a'", []),
            (#Predicate { $0.name.starts(with: "G") }, "name BEGINSWITH 'G'", []),
            (#Predicate { chosen.contains($0.name) }, "name IN %@", [chosen]),
            (#Predicate { (30...40).contains($0.age!) }, "age BETWEEN {30, 40}", []),
            (#Predicate { (30..<40).contains($0.age!) }, "age >= 30 AND age < 40", []),
            (#Predicate { !($0.city == nil) || $0.age == 45 }, "NOT (city == nil) OR age == 45", []),
            (#Predicate { $0.city == nil }, "city == nil", []),
            (#Predicate { $0.age! < 40 || $0.name > "H" }, "age < 40 OR name > 'H'", [])
        ]
        for (swift, format, arguments) in cases {
            let expected = try Self.names(store, try FetchPredicate(format: format, argumentArray: arguments.map { $0 as Any }))
            #expect(try Self.names(store, try FetchPredicate(swift)) == expected, "\(format)")
            #expect(!expected.isEmpty, "\(format) finds nothing: a weak case")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func relationshipPredicatesMatchTheirFormatStrings(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { context in
            let ann = try context.insert("Author", ["name": "Ann"])
            let bob = try context.insert("Author", ["name": "Bob"])
            try context.insert("Author", ["name": "Cy"])
            for title in ["Dune", "Emma", "Ulysses"] { try context.insert("Book", ["title": title]).setValue(ann, forKey: "author") }
            try context.insert("Book", ["title": "Dracula"]).setValue(bob, forKey: "author")
            try context.insert("Book", ["title": "Orphan"])
            try context.save()
        }
        let books: [(Predicate<BookRecord>, String, [Any?])] = [
            (#Predicate { $0.author?.name == "Ann" }, "author.name == 'Ann'", []),
            (#Predicate { $0.author == nil }, "author == nil", []),
            (#Predicate { $0.author?.name.starts(with: "B") == true }, "author.name BEGINSWITH 'B'", [])
        ]
        for (swift, format, arguments) in books {
            let expected = try Self.names(
                store, try FetchPredicate(format: format, argumentArray: arguments.map { $0 as Any }), "Book", "title")
            #expect(try Self.names(store, try FetchPredicate(swift), "Book", "title") == expected, "\(format)")
            #expect(!expected.isEmpty, "\(format) finds nothing: a weak case")
        }
        let authors: [(Predicate<AuthorRecord>, String)] = [
            (#Predicate { $0.books.count > 1 }, "books.@count > 1"),
            (#Predicate { $0.books.isEmpty }, "books.@count == 0"),
            (#Predicate { $0.books.contains { $0.title.starts(with: "D") } }, "ANY books.title BEGINSWITH 'D'"),
            (#Predicate { $0.books.allSatisfy { $0.title.contains("u") } }, "SUBQUERY(books, $b, NOT $b.title CONTAINS 'u').@count == 0"),
            (#Predicate { $0.books.filter { $0.title.contains("m") }.count >= 1 }, "SUBQUERY(books, $b, $b.title CONTAINS 'm').@count >= 1")
        ]
        for (swift, format) in authors {
            let expected = try Self.names(store, try FetchPredicate(format: format), "Author")
            #expect(try Self.names(store, try FetchPredicate(swift), "Author") == expected, "\(format)")
            #expect(!expected.isEmpty, "\(format) finds nothing: a weak case")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func unsavedChangesAreMatchedByTheTranslatedPredicate(kind: StoreKind) throws {
        let store = try Self.people(kind)
        try store.withNewContext { context in
            try context.insertPerson("Zed", age: 99)
            let request = FetchRequest<ManagedObject>(
                entityName: "Person", predicate: try FetchPredicate(#Predicate<PersonRecord> { $0.age! > 90 }))
            #expect(try context.fetch(request).map(\.label) == ["Zed"])
        }
    }

    @Test func unsupportedExpressionsAreRefusedByName() throws {
        let arithmetic = #expect(throws: ObjectGraphError.self) { try FetchPredicate(#Predicate<PersonRecord> { $0.age! + 1 > 30 }) }
        #expect(arithmetic?.kind == .invalidOperation)
        #expect(arithmetic?.message.contains("PredicateExpressions.Arithmetic") == true, "\(arithmetic?.message ?? "")")
        let computed = #expect(throws: ObjectGraphError.self) { try FetchPredicate(#Predicate<PersonRecord> { $0.shout == "ADA" }) }
        #expect(computed?.kind == .unknownKey)
        #expect(computed?.message.contains("not a property of the model") == true, "\(computed?.message ?? "")")
        let length = #expect(throws: ObjectGraphError.self) { try FetchPredicate(#Predicate<PersonRecord> { $0.name.count > 3 }) }
        #expect(length?.message.contains("String") == true, "\(length?.message ?? "")")
    }

    @Test(arguments: StoreKind.allCases)
    func foundationSortDescriptorsSortLikeFetchSortDescriptors(kind: StoreKind) throws {
        let store = try Self.people(kind)
        let descriptor = try FetchSortDescriptor(SortDescriptor(\PersonRecord.name, order: .reverse))
        #expect(descriptor.key == "name" && !descriptor.ascending)
        try store.withNewContext { context in
            var request = FetchRequest<ManagedObject>(entityName: "Person")
            request.sortDescriptors = [try FetchSortDescriptor(SortDescriptor(\PersonRecord.age)), descriptor]
            #expect(try context.fetch(request).map(\.label) == ["Linus", "Guido", "Ada", "Alan", "Grace"])
        }
        #expect(throws: ObjectGraphError.self) { try FetchSortDescriptor(SortDescriptor(\PersonRecord.shout)) }
    }

    @Test(arguments: StoreKind.allCases)
    func aTypedRequestNamesItsEntity(kind: StoreKind) throws {
        let store = try Self.people(kind)
        let request = try FetchRequest<PersonRecord>(predicate: #Predicate { $0.city != nil }, sortBy: [SortDescriptor(\.name)])
        #expect(request.entityName == "Person")
        let names = try store.withNewContext { context in
            try context.fetch(
                FetchRequest<ManagedObject>(
                    entityName: request.entityName, predicate: request.predicate, sortDescriptors: request.sortDescriptors)
            ).map(\.label)
        }
        #expect(names == ["Ada", "Alan", "Guido", "Linus"])
    }
}
