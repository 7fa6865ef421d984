import Foundation
import Testing

@testable import ObjectGraph

/// Values results (Core Data's dictionary result type): properties, grouping, aggregates,
/// having, distinct, sorting and paging, on every store alike, unsaved changes included.
@Suite struct FetchedValuesConformanceTests {
    private func makePeople(_ kind: StoreKind) throws -> TestStore {
        let store = try TestStore(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            for (name, age, city) in [("Ann", 30, "Oslo"), ("Bob", 40, "Oslo"), ("Cy", 20, "Rome"), ("Di", 50, "Oslo"), ("Ed", 35, nil)]
                as [(String, Int, String?)]
            {
                try context.insertPerson(name, age: age, city: city)
            }
            try context.save()
        }
        return store
    }

    @Test(arguments: StoreKind.allCases)
    func groupsAggregatesHavingAndSort(kind: StoreKind) throws {
        let store = try makePeople(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            var request = FetchRequest<FetchedValues>(entityName: "Person")
            request.propertiesToFetch = [
                .attribute("city"), .count(as: "people"), .aggregate(.average, of: "age", as: "meanAge"),
                .aggregate(.max, of: "name", as: "last")
            ]
            request.propertiesToGroupBy = ["city"]
            request.sortDescriptors = [FetchSortDescriptor(key: "meanAge", ascending: false)]
            let rows = try context.fetch(request)
            #expect(rows.map { $0["city"] as? String } == ["Oslo", nil, "Rome"])
            #expect(rows.map { $0.value("people", as: Int.self) } == [3, 1, 1])
            #expect(rows.first?.value("meanAge", as: Double.self) == 40)
            #expect(rows.first?["last"] as? String == "Di")

            request.havingPredicate = try FetchPredicate(format: "people > 1")
            #expect(try context.fetch(request).map { $0["city"] as? String } == ["Oslo"])

            // Unsaved changes count.
            try context.insertPerson("Flo", age: 22, city: "Rome")
            request.havingPredicate = try FetchPredicate(format: "people >= 2")
            request.sortDescriptors = [FetchSortDescriptor(key: "city")]
            #expect(try context.fetch(request).map { $0["city"] as? String } == ["Oslo", "Rome"])

            var totals = FetchRequest<FetchedValues>(entityName: "Person", predicate: try FetchPredicate(format: "age >= 30"))
            totals.propertiesToFetch = [
                .count(as: "n"), .aggregate(.sum, of: "age", as: "years"), .aggregate(.min, of: "age", as: "youngest")
            ]
            #expect(
                try context.fetch(totals) == [
                    FetchedValues(
                        names: ["n", "years", "youngest"], values: [.integer(4), .integer(155), .integer(30)],
                        types: [.integer64, .integer64, .integer32])
                ])
            totals.predicate = FetchPredicate.falsePredicate
            let empty = try context.fetch(totals)
            #expect(
                empty.count == 1 && empty[0].value("n", as: Int.self) == 0 && empty[0].value("years", as: Int.self) == 0
                    && empty[0]["youngest"] == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func plainValuesDistinctAndPaged(kind: StoreKind) throws {
        let store = try makePeople(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            var request = FetchRequest<FetchedValues>(entityName: "Person")
            request.propertiesToFetch = [.attribute("city")]
            request.returnsDistinctResults = true
            request.sortDescriptors = [FetchSortDescriptor(key: "city", ascending: false)]
            #expect(try context.fetch(request).map { $0["city"] as? String } == ["Rome", "Oslo", nil])
            request.fetchOffset = 1
            request.fetchLimit = 1
            #expect(try context.fetch(request).map { $0["city"] as? String } == ["Oslo"])
            #expect(context.registeredObjects.isEmpty, "values fetches hand out no objects")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func narrowerIntegersReadAsAnyIntegerTheyFit(kind: StoreKind) throws {
        let store = try makePeople(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            var request = FetchRequest<FetchedValues>(entityName: "Person", predicate: try FetchPredicate(format: "name == 'Bob'"))
            request.propertiesToFetch = [.attribute("age"), .attribute("name")]
            let row = try #require(try context.fetch(request).first)
            // `age` is an integer32: read as Int (and other widths it fits), as ManagedObject reads it.
            #expect(row.value("age", as: Int.self) == 40)
            #expect(row.value("age", as: Int64.self) == 40)
            #expect(row.value("age", as: Int8.self) == 40)
            #expect(row.value("age", as: Int32.self) == 40)
            #expect(row.value("age", as: UInt8.self) == 40)
            #expect(row.value("age", as: String.self) == nil)
            #expect(row.value("name", as: Int.self) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func keyPathsThroughRelationships(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let ann = try context.insert("Author", ["name": "Ann"])
            for title in ["Dune", "Emma"] { try context.insert("Book", ["title": title, "author": ann]) }
            try context.insert("Book", ["title": "Solo"])
            try context.save()
            var request = FetchRequest<FetchedValues>(entityName: "Book")
            request.propertiesToFetch = [.attribute("author.name"), .count(as: "books")]
            request.propertiesToGroupBy = ["author.name"]
            request.sortDescriptors = [FetchSortDescriptor(key: "books")]
            let rows = try context.fetch(request)
            #expect(rows.map(\.description) == ["[author.name: nil, books: 1]", "[author.name: \"Ann\", books: 2]"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func badRequestsAreErrors(kind: StoreKind) throws {
        let store = try makePeople(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            var request = FetchRequest<FetchedValues>(entityName: "Person")
            request.propertiesToFetch = [.attribute("name"), .aggregate(.sum, of: "name", as: "total")]
            let sumOfText = #expect(throws: ObjectGraphError.self) { try context.fetch(request) }
            #expect(sumOfText?.message == "Person: sum cannot aggregate name, a string attribute")
            request.propertiesToFetch = [.attribute("name"), .count(as: "n")]
            request.propertiesToGroupBy = ["city"]
            let group = #expect(throws: ObjectGraphError.self) { try context.fetch(request) }
            #expect(group?.message == "propertiesToGroupBy names 'city', which is not an attribute among propertiesToFetch (name, n)")
            request.propertiesToGroupBy = ["name"]
            request.sortDescriptors = [FetchSortDescriptor(key: "age")]
            let sort = #expect(throws: ObjectGraphError.self) { try context.fetch(request) }
            #expect(sort?.message == "Person results has no attribute named 'age'; its attributes are name, n")
        }
    }

    /// Without `propertiesToFetch` a values request gives every stored attribute, as Core Data's
    /// dictionary requests do (it was an error before).
    @Test(arguments: StoreKind.allCases)
    func withoutPropertiesToFetchEveryStoredAttributeIsFetched(kind: StoreKind) throws {
        let store = try makePeople(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let request = FetchRequest<FetchedValues>(entityName: "Person", predicate: try FetchPredicate(format: "name == 'Cy'"))
            let rows = try context.fetch(request)
            #expect(rows.map(\.names) == [["name", "age", "city"]])
            #expect(rows.first?["name"] as? String == "Cy")
            #expect(rows.first?.value("age", as: Int.self) == 20)
            #expect(rows.first?["city"] as? String == "Rome")
            var items = FetchRequest<FetchedValues>(entityName: "Item")
            try context.insertItem("A1")
            items.predicate = nil
            #expect(try context.fetch(items).first?.names.contains("scratch") == false, "transient attributes are not stored")
        }
    }

    /// A to-one in `propertiesToFetch` gives the related object's ID, as in Core Data.
    @Test(arguments: StoreKind.allCases)
    func aToOneInPropertiesToFetchGivesTheRelatedObjectsID(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let ann = try context.insert("Author", ["name": "Ann"])
            try context.insert("Book", ["title": "Dune", "author": ann])
            try context.insert("Book", ["title": "Solo"])
            try context.save()
            var request = FetchRequest<FetchedValues>(
                entityName: "Book", predicate: nil, sortDescriptors: [FetchSortDescriptor(key: "title")])
            request.propertiesToFetch = [.attribute("title"), .attribute("author")]
            let rows = try context.fetch(request)
            #expect(rows.map { $0["author"] as? ManagedObjectID } == [ann.objectID, nil])
            #expect(rows.first?.value("author", as: ManagedObjectID.self) == ann.objectID)
            request.propertiesToFetch = [.attribute("author"), .count(as: "books")]
            request.propertiesToGroupBy = ["author"]
            request.sortDescriptors = []
            let groups = try context.fetch(request)
            #expect(Set(groups.map { $0["author"] as? ManagedObjectID }) == [ann.objectID, nil])
            #expect(groups.allSatisfy { $0.value("books", as: Int.self) == 1 })
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aToManyInPropertiesToFetchIsRefusedInItsOwnWords(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            var request = FetchRequest<FetchedValues>(entityName: "Author")
            request.propertiesToFetch = [.attribute("books")]
            let error = #expect(throws: ObjectGraphError.self) { try context.fetch(request) }
            // It talked about predicate quantifiers before.
            #expect(error?.kind == .unknownKey)
            #expect(error?.message == "Author.books is a to-many relationship, which propertiesToFetch cannot use")
        }
    }
}
