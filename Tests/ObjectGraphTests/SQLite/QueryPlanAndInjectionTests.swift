import Foundation
import Testing

@testable import ObjectGraph

/// What the SQLite store runs for fetches: indexes are used, and values never become SQL.
@Suite struct QueryPlanAndInjectionTests {
    /// The SELECT the store runs for `format`, captured as it starts.
    private func selectSQL(_ store: TestStore, _ format: String, _ arguments: Any...) throws -> String {
        let sqlite = try #require(try store.container.persistentStoreCoordinator.requireStore() as? SQLiteStore)
        let log = SQLiteStatementLog()
        sqlite.setStatementObserver { log.record($0) }
        defer { sqlite.setStatementObserver(nil) }
        try store.withNewContext { context in
            _ = try context.fetch(
                FetchRequest<ManagedObject>(entityName: "Item", predicate: FetchPredicate(format: format, argumentArray: arguments)))
        }
        return try #require(log.all.first { $0.hasPrefix("SELECT") })
    }

    private func plan(_ store: TestStore, of sql: String) throws -> [String] {
        let connection = try SQLiteConnection(
            path: try #require(store.directory).appendingPathComponent("Conformance.sqlite").path, readOnly: true, busyTimeout: 1)
        return try connection.queryPlan(of: sql)
    }

    @Test func anEqualityOnAUniqueOrIndexedAttributeUsesItsIndex() throws {
        let store = try TestStore(.sqlite)
        try store.withNewContext { context in
            for number in 0..<200 { try context.insertItem("C\(number)") }
            try context.save()
        }
        let sql = try selectSQL(store, "code == %@", "C7")
        let details = try plan(store, of: sql)
        #expect(details.contains { $0.contains("USING INDEX") || $0.contains("USING COVERING INDEX") }, "\(sql): \(details)")
        #expect(!details.contains { $0.hasPrefix("SCAN") }, "\(details)")
    }

    @Test(arguments: StoreKind.allCases)
    func hostileValuesAndKeysChangeNothing(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let drop = "'; DROP TABLE \"Person\"; --"
        try store.withNewContext { context in
            try context.insertPerson("A1")
            try context.insertPerson(drop)
            try context.save()
        }
        let hostile = [drop, "\" OR 1=1 --", "A1' OR '1'='1", "%", "_", "\\", "\u{0}"]
        try store.withNewContext { context in
            for value in hostile {
                // PostgreSQL text cannot hold NUL: a predicate comparing with it is refused there.
                if kind == .postgreSQL, value.utf8.contains(0) {
                    let error = #expect(throws: ObjectGraphError.self) {
                        try context.fetch(
                            FetchRequest<ManagedObject>(entityName: "Person", predicate: FetchPredicate(format: "name == %@", value)))
                    }
                    #expect(error?.kind == .invalidOperation)
                    #expect(
                        error?.message
                            == #"The PostgreSQL store cannot compare Person objects with the string "\0": PostgreSQL text cannot hold the NUL character (U+0000)"#
                    )
                    continue
                }
                let found = try context.fetch(
                    FetchRequest<ManagedObject>(entityName: "Person", predicate: FetchPredicate(format: "name == %@", value)))
                #expect(found.count == (value == drop ? 1 : 0), "\(value)")
                let fuzzy = try context.fetch(
                    FetchRequest<ManagedObject>(
                        entityName: "Person", predicate: FetchPredicate(format: "name CONTAINS[cd] %@ OR name LIKE %@", value, value)))
                #expect(fuzzy.count <= 1, "\(value)")
            }
            for key in ["name\" OR 1=1 --", "name; DROP TABLE Person", "\"name\""] {
                let error = #expect(throws: ObjectGraphError.self) {
                    try context.fetch(
                        FetchRequest<ManagedObject>(entityName: "Person", predicate: FetchPredicate(format: "%K == 'x'", key)))
                }
                #expect(error?.kind == .unknownKey, "\(key)")
            }
        }
        #expect(try store.storedCount("Person") == 2)
    }
}
