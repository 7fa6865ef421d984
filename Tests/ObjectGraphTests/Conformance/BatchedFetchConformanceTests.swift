import Foundation
import Testing

@testable import ObjectGraph

/// `fetch(_:batchSize:)` returns every result in order, loads objects one batch at a time and
/// lets earlier batches go, on every store alike.
@Suite struct BatchedFetchConformanceTests {
    private func makeItems(_ store: TestStore, count: Int) throws {
        try store.withNewContext { (context: ManagedObjectContext) throws in
            for number in 0..<count { try context.insertItem(String(format: "C%04d", number)) }
            try context.save()
        }
    }

    @Test(arguments: StoreKind.allCases)
    func resultsMatchAPlainFetchAndLoadInBatches(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try makeItems(store, count: 1_000)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let request = try request("Item", where: "code >= 'C0100'", sortedBy: ["-code"])
            let results = try context.fetch(request, batchSize: 64)
            #expect(results.count == 900)
            #expect(context.registeredObjects.isEmpty, "nothing is loaded before it is read")
            let codes = try results.map { try $0.value(forKey: "code", as: String.self) ?? "" }
            #expect(codes == (try context.fetch(request).map { try $0.value(forKey: "code", as: String.self) ?? "" }))
            #expect(codes.first == "C0999" && codes.last == "C0100")
        }
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let results = try context.fetch(try request("Item", sortedBy: ["code"]), batchSize: 100)
            weak var firstOfFirstBatch: ManagedObject?
            do { firstOfFirstBatch = results[0] }
            #expect(firstOfFirstBatch != nil, "the current batch is kept")
            #expect(context.registeredObjects.count == 100)
            _ = results[150]
            #expect(firstOfFirstBatch == nil, "a batch no longer read is released")
            #expect(context.registeredObjects.count == 100)
            #expect(try results[999].value(forKey: "code", as: String.self) == "C0999")
            #expect(try context.fetch(try request("Item"), batchSize: 10).objectIDs.count == 1_000)
            var batched = try request("Item", where: "code < 'C0010'", sortedBy: ["code"])
            batched.fetchBatchSize = 4
            #expect(
                try context.fetch(batched).map { try $0.value(forKey: "code", as: String.self) ?? "" }
                    == (0..<10).map { String(format: "C%04d", $0) })
        }
    }

    @Test(arguments: StoreKind.allCases)
    func pendingChangesAndBadArgumentsBehaveLikeFetch(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try makeItems(store, count: 10)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            try context.insertItem("C9999")
            context.delete(try #require(try context.item("C0000")))
            let results = try context.fetch(try request("Item", sortedBy: ["code"]), batchSize: 3)
            #expect(try results.map { try $0.value(forKey: "code", as: String.self) ?? "" }.first == "C0001")
            #expect(results.count == 10)
            let zero = #expect(throws: ObjectGraphError.self) { try context.fetch(try request("Item"), batchSize: 0) }
            #expect(zero?.message == "batchSize must be positive (got 0)")
        }
    }
}
