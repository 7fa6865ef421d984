import Foundation
import Testing

@testable import ObjectGraph

/// `context.results(for:)`: the results now, then again after each save, merge and reported
/// change that touches the request's entity; ended by cancellation; never keeping a context alive.
@Suite struct LiveResultsConformanceTests {
    static func codes(_ items: [ManagedObject]?, in context: ManagedObjectContext) throws -> [String]? {
        try items.map { items in try context.performAndWait { try items.map { try $0.value(forKey: "code") as? String ?? "?" } } }
    }

    @Test(arguments: StoreKind.allCases)
    func resultsFollowSavesMergesAndDeletes(kind: StoreKind) async throws {
        let store = try TestStore(kind)
        let context = store.newContext(name: "watcher")
        context.automaticallyMergesChangesFromParent = true
        var request = FetchRequest<ManagedObject>(entityName: "Item")
        request.sortDescriptors = [FetchSortDescriptor(key: "code")]
        var results = context.results(for: request).makeAsyncIterator()
        #expect(try Self.codes(try await results.next(), in: context) == [])

        try context.performAndWait {
            _ = try context.insertItem("B")
            try context.save()
        }
        #expect(try Self.codes(try await results.next(), in: context) == ["B"])

        // Another context's save reaches this one by merging.
        let other = store.newContext(name: "other")
        try other.performAndWait {
            _ = try other.insertItem("A")
            try other.save()
        }
        #expect(try Self.codes(try await results.next(), in: context) == ["A", "B"])

        try context.performAndWait {
            context.delete(try #require(try context.item("B")))
            try context.save()
        }
        #expect(try Self.codes(try await results.next(), in: context) == ["A"])
    }

    @Test(arguments: StoreKind.allCases)
    func changesToOtherEntitiesYieldNothing(kind: StoreKind) async throws {
        let store = try TestStore.graph(kind)
        let context = store.newContext()
        let counts = Locked<[Int]>([])
        let reader = Task {
            for try await authors in context.results(for: FetchRequest<ManagedObject>(entityName: "Author")) {
                counts.withLock { $0.append(authors.count) }
            }
        }
        func waitFor(_ expected: [Int]) async throws {
            for _ in 0..<200 where counts.withLock({ $0 }) != expected { try await Task.sleep(for: .milliseconds(10)) }
        }
        func save(_ entity: String, _ key: String, _ value: String) throws {
            try context.performAndWait {
                try context.insertNewObject(forEntityName: entity).setValue(value, forKey: key)
                try context.save()
            }
        }
        try await waitFor([0])
        try save("Book", "title", "Unrelated")
        try await Task.sleep(for: .milliseconds(100))
        try save("Author", "name", "Related")
        try await waitFor([0, 1])
        try save("Book", "title", "Unrelated again")
        try await Task.sleep(for: .milliseconds(100))
        reader.cancel()
        _ = try? await reader.value
        #expect(counts.withLock { $0 } == [0, 1], "only the author's save yielded")
    }

    @Test(arguments: StoreKind.allCases)
    func cancellingTheTaskEndsTheSequenceAndLetsTheContextGo(kind: StoreKind) async throws {
        let store = try TestStore(kind)
        weak var weakContext: ManagedObjectContext?
        let stream: AsyncThrowingStream<[ManagedObject], any Error>
        do {
            let context = store.newContext()
            weakContext = context
            stream = context.results(for: FetchRequest<ManagedObject>(entityName: "Item"))
            var iterator = stream.makeAsyncIterator()
            _ = try await iterator.next()
            let following = context.performAndWait { context.resultsObservers.filter { $0.observer != nil }.count }
            #expect(following == 1)
        }
        // The block that started the live fetch may still be ending on the context's queue.
        for _ in 0..<500 where weakContext != nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(weakContext == nil, "a live fetch does not keep its context alive")

        let context = store.newContext()
        let received = Locked(0)
        let task = Task {
            for try await _ in context.results(for: FetchRequest<ManagedObject>(entityName: "Item")) { received.withLock { $0 += 1 } }
        }
        for _ in 0..<500 where received.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        task.cancel()
        try await task.value
        #expect(received.withLock { $0 } == 1, "the first results, then the end")
        // The live fetch goes when its sequence's termination is handled, on another thread.
        var following = 1
        for _ in 0..<500 where following > 0 {
            following = context.performAndWait { context.resultsObservers.filter { $0.observer != nil }.count }
            if following > 0 { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(following == 0, "the live fetch went away with its sequence")
        _ = stream
    }
}
