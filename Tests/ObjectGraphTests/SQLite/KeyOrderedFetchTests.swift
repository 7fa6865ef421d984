import Foundation
import Testing

@testable import ObjectGraph

/// Fetches SQLite would answer through an index and then sort read their rows in key order
/// (`_pk IN (SELECT _pk …)`) once the database outgrows the page cache, with exactly the results
/// of the plain query; others run as written.
@Suite struct KeyOrderedFetchTests {
    static let json = """
        { "name": "Ages", "version": 1, "entities": [
          { "name": "Person", "attributes": [
              { "name": "name", "type": "string" }, { "name": "age", "type": "integer32", "indexed": true },
              { "name": "score", "type": "double" } ] } ] }
        """

    /// A store of 300 people with scattered ages, names and scores (a fixed LCG). Its file
    /// outgrows a page cache of 4 pages, not one of 2,000.
    private static func store(_ kind: StoreKind, cachePages: Int = 4) throws -> TestStore {
        let store = try TestStore(kind, model: { try ManagedObjectModel(data: Data(json.utf8)) }, pragmas: ["cache_size": "\(cachePages)"])
        try store.withNewContext { context in
            var state: UInt64 = 7
            for _ in 0..<300 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let person = try context.insertNewObject(forEntityName: "Person")
                try person.setValue("n\((state >> 20) % 97)", forKey: "name")
                try person.setValue(Int((state >> 40) % 60) + 18, forKey: "age")
                try person.setValue(Double((state >> 8) % 1000) / 10, forKey: "score")
            }
            try context.save()
        }
        return store
    }

    /// The names, ages and object IDs `format` fetches, sorted by `sort`, from a fresh context.
    private static func rows(
        _ store: TestStore, _ format: String, sortedBy sort: [String], limit: Int = 0, offset: Int = 0
    ) throws -> [String] {
        try store.withNewContext { context in
            try context.objects("Person", where: format, sortedBy: sort, limit: limit, offset: offset).map { person in
                "\(try person.get("name", as: String.self) ?? "") \(try person.get("age", as: Int.self) ?? 0) \(person.objectID.primaryKey ?? 0)"
            }
        }
    }

    /// The SELECT the SQLite store runs for the fetch.
    private static func select(_ store: TestStore, _ format: String, sortedBy sort: [String], limit: Int = 0) throws -> String {
        let statements = try store.statements { _ = try rows(store, format, sortedBy: sort, limit: limit) }
        return try #require(statements.first { $0.hasPrefix("SELECT") })
    }

    @Test(arguments: [
        ("age BETWEEN {30, 40}", ["name"], 10, 0),
        ("age BETWEEN {30, 40}", ["-name", "score"], 0, 0),
        ("age == 42", ["score"], 0, 0),
        ("age >= 60", ["name"], 7, 5),
        ("age IN {20, 21, 22}", ["-score"], 0, 3)
    ])
    func anIndexRangeSortedOtherwiseReadsRowsInKeyOrder(format: String, sort: [String], limit: Int, offset: Int) throws {
        let sqlite = try Self.store(.sqlite)
        let select = try Self.select(sqlite, format, sortedBy: sort, limit: limit)
        #expect(select.contains(#"WHERE "_pk" IN (SELECT "_pk" FROM "Person" WHERE "#), "\(select)")
        let found = try Self.rows(sqlite, format, sortedBy: sort, limit: limit, offset: offset)
        #expect(!found.isEmpty)
        #expect(found == (try Self.rows(Self.store(.inMemory), format, sortedBy: sort, limit: limit, offset: offset)))
    }

    @Test(arguments: [
        ("age BETWEEN {30, 40}", ["age"]),  // the index gives the order: no sort to save
        ("score > 50", ["name"]),  // no index: a scan reads every row once anyway
        ("age == 42 AND score > 50", ["name"]),  // the keys alone cannot answer the filter
        ("age == 42 OR name == 'n3'", ["name"])  // not a single index search
    ])
    func otherFetchesRunAsWritten(format: String, sort: [String]) throws {
        let sqlite = try Self.store(.sqlite)
        let select = try Self.select(sqlite, format, sortedBy: sort)
        #expect(!select.contains("IN (SELECT"), "\(select)")
        #expect(try Self.rows(sqlite, format, sortedBy: sort) == (try Self.rows(Self.store(.inMemory), format, sortedBy: sort)))
    }

    @Test func aDatabaseThePageCacheHoldsRunsAsWritten() throws {
        let sqlite = try Self.store(.sqlite, cachePages: 2000)
        let select = try Self.select(sqlite, "age BETWEEN {30, 40}", sortedBy: ["name"])
        #expect(!select.contains("IN (SELECT"), "\(select)")
        #expect(try Self.rows(sqlite, "age BETWEEN {30, 40}", sortedBy: ["name"]).count > 20)
    }
}
