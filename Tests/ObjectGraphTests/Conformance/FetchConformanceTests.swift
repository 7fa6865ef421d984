import Foundation
import Testing

@testable import ObjectGraph

/// Predicates, sorting and paging give the same results, in the same order, on every store.
@Suite struct FetchConformanceTests {
    /// Predicates and the names they select, in primary-key order.
    static let predicates: [(format: String, names: [String])] = [
        ("age == 30", ["alice", "Carl"]),
        ("age != 30", ["Dora", "Bob", "Émile", "Zoe"]),  // != is null-safe: nil != 30
        ("age > 25", ["Dora", "alice", "Carl"]),
        ("age >= 25", ["Dora", "alice", "Bob", "Carl"]),
        ("age < 25", ["Zoe"]),  // nil is not < 25
        ("age <= 18", ["Zoe"]),
        ("age == nil", ["Émile"]),
        ("age != nil", ["Dora", "alice", "Bob", "Carl", "Zoe"]),
        ("city == nil", ["Bob", "Carl"]),
        ("city != nil", ["Dora", "alice", "Émile", "Zoe"]),
        ("city == 'Oslo'", ["Dora", "Émile"]),
        ("name == \"alice\"", ["alice"]),
        ("name == 'Alice'", []),  // case-sensitive
        ("name > 'Zoe'", ["alice", "Émile"]),  // UTF-8 byte order
        ("age > 20 AND city != nil", ["Dora", "alice"]),
        ("age < 20 OR city == nil", ["Bob", "Carl", "Zoe"]),
        ("NOT (age > 20)", ["Zoe"]),  // NOT of UNKNOWN is UNKNOWN: Émile is out
        ("NOT (city == 'Oslo')", ["alice", "Bob", "Carl", "Zoe"]),
        ("(age >= 30 OR age == nil) AND NOT city == nil", ["Dora", "alice", "Émile"]),
        ("age == 30 AND city == nil OR name == 'Zoe'", ["Carl", "Zoe"]),  // AND binds tighter than OR
        ("TRUEPREDICATE", ["Dora", "alice", "Bob", "Émile", "Carl", "Zoe"]),
        ("FALSEPREDICATE", []),
        ("age BETWEEN {25, 30}", ["alice", "Bob", "Carl"]),
        ("city IN {'Oslo', 'Paris'}", ["Dora", "Émile", "Zoe"])
    ]

    @Test(arguments: StoreKind.allCases)
    func predicates(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.savePeople()
        try store.withNewContext { context throws in
            for (format, names) in Self.predicates {
                #expect(try context.objects("Person", where: format).map(\.label) == names, "\(format)")
                #expect(try context.count(for: request("Person", where: format)) == names.count, "\(format)")
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func predicateArguments(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.savePeople()
        try store.withNewContext { context in
            let byName = FetchRequest<ManagedObject>(entityName: "Person", predicate: try FetchPredicate(format: "name == %@", "Émile"))
            #expect(try context.fetch(byName).map(\.label) == ["Émile"])
            let byAge = FetchRequest<ManagedObject>(
                entityName: "Person", predicate: try FetchPredicate(format: "age >= %d AND city == %@", 30, "Oslo"))
            #expect(try context.fetch(byAge).map(\.label) == ["Dora"])
            // A quote in an argument is a value, never syntax.
            let quoted = FetchRequest<ManagedObject>(
                entityName: "Person", predicate: try FetchPredicate(format: "name == %@", "x' OR '1'='1"))
            #expect(try context.fetch(quoted).isEmpty)
            // NSPredicate takes a set after IN too.
            let inSet = FetchRequest<ManagedObject>(
                entityName: "Person", predicate: try FetchPredicate(format: "city IN %@", Set(["Oslo", "Paris"])))
            #expect(try context.fetch(inSet).map(\.label) == ["Dora", "Émile", "Zoe"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func booleansCompareWithOneAndZero(kind: StoreKind) throws {
        let store = try TestStore(kind)
        _ = try store.savedItem("ON", ["flag": true])
        _ = try store.savedItem("OFF", ["flag": false])
        try store.withNewContext { context throws in
            #expect(try context.objects("Item", where: "flag == 1").map(\.label) == ["ON"])
            #expect(try context.objects("Item", where: "flag == 0").map(\.label) == ["OFF"])
            #expect(try context.objects("Item", where: "flag != %d", arguments: [1]).map(\.label) == ["OFF"])
            #expect(try context.objects("Item", where: "flag IN {1}").map(\.label) == ["ON"])
            let two = #expect(throws: ObjectGraphError.self) { try context.objects("Item", where: "flag == 2") }
            #expect(
                two?.message
                    == "Item.flag is boolean but the predicate compares it with the integer 2; a boolean equals YES or NO (or 1 or 0)")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func sorting(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.savePeople()
        try store.withNewContext { context throws in
            // Strings sort by UTF-8 bytes: upper case, then lower case, then non-ASCII.
            #expect(try context.objects("Person", sortedBy: ["name"]).map(\.label) == ["Bob", "Carl", "Dora", "Zoe", "alice", "Émile"])
            #expect(try context.objects("Person", sortedBy: ["-name"]).map(\.label) == ["Émile", "alice", "Zoe", "Dora", "Carl", "Bob"])
            // nil first ascending, last descending; ties by primary key.
            #expect(try context.objects("Person", sortedBy: ["age"]).map(\.label) == ["Émile", "Zoe", "Bob", "alice", "Carl", "Dora"])
            #expect(try context.objects("Person", sortedBy: ["-age"]).map(\.label) == ["Dora", "alice", "Carl", "Bob", "Zoe", "Émile"])
            // Several keys.
            #expect(
                try context.objects("Person", sortedBy: ["city", "-name"]).map(\.label) == ["Carl", "Bob", "alice", "Émile", "Dora", "Zoe"])
            #expect(
                try context.objects("Person", sortedBy: ["-age", "-name"]).map(\.label) == ["Dora", "alice", "Carl", "Bob", "Zoe", "Émile"])
            // No sort: creation order.
            #expect(try context.objects("Person").map(\.label) == ["Dora", "alice", "Bob", "Émile", "Carl", "Zoe"])
            // Sort with a predicate.
            #expect(
                try context.objects("Person", where: "age != nil", sortedBy: ["-age", "name"]).map(\.label) == [
                    "Dora", "Carl", "alice", "Bob", "Zoe"
                ])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func limitAndOffset(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.savePeople()
        try store.withNewContext { context throws in
            let sort = ["name"]  // Bob, Carl, Dora, Zoe, alice, Émile
            #expect(try context.objects("Person", sortedBy: sort, limit: 2).map(\.label) == ["Bob", "Carl"])
            #expect(try context.objects("Person", sortedBy: sort, limit: 2, offset: 3).map(\.label) == ["Zoe", "alice"])
            #expect(try context.objects("Person", sortedBy: sort, offset: 4).map(\.label) == ["alice", "Émile"])
            #expect(try context.objects("Person", sortedBy: sort, limit: 10, offset: 5).map(\.label) == ["Émile"])
            #expect(try context.objects("Person", sortedBy: sort, offset: 6).isEmpty)
            #expect(try context.objects("Person", sortedBy: sort, limit: 3, offset: 100).isEmpty)
            #expect(
                try context.objects("Person", where: "city != nil", sortedBy: ["-name"], limit: 2, offset: 1).map(\.label) == [
                    "alice", "Zoe"
                ])
            #expect(try context.count(for: request("Person", sortedBy: sort, limit: 2, offset: 5)) == 1)
            #expect(throws: ObjectGraphError.self) { try context.fetch(request("Person", limit: -1)) }
        }
    }

    /// Object ID results are the same rows in the same order.
    @Test(arguments: StoreKind.allCases)
    func objectIDResults(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.savePeople()
        try store.withNewContext { context in
            var idRequest = FetchRequest<ManagedObjectID>(entityName: "Person")
            idRequest.predicate = try FetchPredicate(format: "age >= 25")
            idRequest.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: false)]
            let ids = try context.fetch(idRequest)
            let objects = try context.objects("Person", where: "age >= 25", sortedBy: ["-name"])
            #expect(ids == objects.map(\.objectID))
            #expect(ids.count == 4)
            #expect(try context.count(for: idRequest) == 4)
        }
    }

    /// A predicate value of the wrong type for its key is an error, not an empty result.
    @Test(arguments: StoreKind.allCases)
    func mistypedPredicateIsAnError(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context throws in
            let error = #expect(throws: ObjectGraphError.self) { try context.fetch(request("Person", where: "age == 'thirty'")) }
            #expect(error?.kind == .typeMismatch)
            #expect(error?.message.contains("age") == true, "\(error?.message ?? "")")
        }
    }
}
