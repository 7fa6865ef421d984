import Foundation
import Testing

@testable import ObjectGraph

/// Fetches see the context's unsaved changes: inserts that match, minus deletions, with changed
/// values matched and sorted as changed; paging applies after the merge.
@Suite struct PendingFetchConformanceTests {
    /// Saves people aged 10…50 (A…E), then in `context`: inserts F (25), deletes C (30),
    /// changes D from 40 to 5 and A from 10 to 60.
    static func makeChanges(_ store: TestStore, in context: ManagedObjectContext) throws {
        try store.withNewContext { setup in
            for (name, age) in [("A", 10), ("B", 20), ("C", 30), ("D", 40), ("E", 50)] { try setup.insertPerson(name, age: age) }
            try setup.save()
        }
        let people = try context.objects("Person", sortedBy: ["name"])
        try context.insertPerson("F", age: 25)
        context.delete(people[2])
        try people[3].setValue(5, forKey: "age")
        try people[0].setValue(60, forKey: "age")
    }

    @Test(arguments: StoreKind.allCases)
    func unsavedChangesAreMerged(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let context = store.newContext()
        try context.performAndWait {
            try Self.makeChanges(store, in: context)
            // Stored ages > 20 are C 30, D 40, E 50; as changed: F 25, E 50, A 60.
            #expect(try context.objects("Person", where: "age > 20", sortedBy: ["age"]).map(\.label) == ["F", "E", "A"])
            #expect(try context.count(for: request("Person", where: "age > 20")) == 3)
            #expect(try context.objects("Person", where: "age > 20").map(\.label) == ["A", "E", "F"])
            #expect(try context.objects("Person", sortedBy: ["-age"]).map(\.label) == ["A", "E", "F", "B", "D"])
            #expect(try context.objects("Person", where: "age < 10").map(\.label) == ["D"])
            #expect(try context.count(for: request("Person")) == 5)
            // With no sort, saved objects come first by key, then unsaved in insertion order.
            #expect(try context.objects("Person").map(\.label) == ["A", "B", "D", "E", "F"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func pagingAppliesAfterTheMerge(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let context = store.newContext()
        try context.performAndWait {
            try Self.makeChanges(store, in: context)
            // Merged order by age: D 5, B 20, F 25, E 50, A 60.
            let sort = ["age"]
            #expect(try context.objects("Person", sortedBy: sort, limit: 2).map(\.label) == ["D", "B"])
            #expect(try context.objects("Person", sortedBy: sort, limit: 2, offset: 2).map(\.label) == ["F", "E"])
            #expect(try context.objects("Person", sortedBy: sort, offset: 4).map(\.label) == ["A"])
            #expect(try context.objects("Person", sortedBy: ["-age"], limit: 1).map(\.label) == ["A"])
            #expect(try context.objects("Person", where: "age >= 20", sortedBy: sort, limit: 2, offset: 1).map(\.label) == ["F", "E"])
            #expect(try context.count(for: request("Person", sortedBy: sort, limit: 2, offset: 4)) == 1)
            #expect(try context.count(for: request("Person", sortedBy: sort, limit: 3)) == 3)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func excludingPendingChangesSeesOnlyTheStore(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let context = store.newContext()
        try context.performAndWait {
            try Self.makeChanges(store, in: context)
            let stored = try context.objects("Person", where: "age > 20", sortedBy: ["age"], includesPendingChanges: false)
            #expect(stored.map(\.label) == ["C", "D", "E"])
            #expect(try context.count(for: request("Person", where: "age > 20", includesPendingChanges: false)) == 3)
            #expect(try context.count(for: request("Person", includesPendingChanges: false)) == 5)
            let page = try context.objects("Person", sortedBy: ["age"], limit: 2, offset: 1, includesPendingChanges: false)
            #expect(page.map(\.label) == ["B", "C"])
            // The objects are still the context's registered instances, changes and all.
            #expect(stored[1].isUpdated)
            #expect(stored[0].isDeleted)
        }
    }

    /// Object ID fetches merge the same way.
    @Test(arguments: StoreKind.allCases)
    func objectIDFetchesMergeToo(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let context = store.newContext()
        try context.performAndWait {
            try Self.makeChanges(store, in: context)
            var idRequest = FetchRequest<ManagedObjectID>(entityName: "Person")
            idRequest.predicate = try FetchPredicate(format: "age > 20")
            idRequest.sortDescriptors = [FetchSortDescriptor(key: "age", ascending: true)]
            let objects = try context.objects("Person", where: "age > 20", sortedBy: ["age"])
            #expect(try context.fetch(idRequest) == objects.map(\.objectID))
            #expect(try context.count(for: idRequest) == 3)
        }
    }

    /// Changes to another entity leave a fetch untouched; saving makes the merge unnecessary.
    @Test(arguments: StoreKind.allCases)
    func mergeMatchesTheSavedResult(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let context = store.newContext()
        try context.performAndWait {
            try Self.makeChanges(store, in: context)
            try context.insertItem("A1")
            let before = try context.objects("Person", where: "age > 20", sortedBy: ["-age"])
            try context.save()
            let after = try context.objects("Person", where: "age > 20", sortedBy: ["-age"])
            #expect(before == after)
            #expect(after.map(\.label) == ["A", "E", "F"])
            #expect(
                try store.withNewContext { try $0.objects("Person", where: "age > 20", sortedBy: ["-age"]).map(\.label) } == ["A", "E", "F"]
            )
        }
    }

    /// An object inserted and deleted before any save is in no result.
    @Test(arguments: StoreKind.allCases)
    func insertedThenDeletedIsNotFetched(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let person = try context.insertPerson("Gone", age: 1)
            try context.insertPerson("Kept", age: 2)
            context.delete(person)
            #expect(try context.objects("Person").map(\.label) == ["Kept"])
            #expect(try context.count(for: request("Person")) == 1)
        }
    }
}
