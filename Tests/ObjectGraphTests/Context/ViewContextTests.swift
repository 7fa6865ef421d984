import Foundation
import Testing

@testable import ObjectGraph

/// The container's main-queue context, used the way a program's main flow uses it: from the
/// main actor directly, and through `perform` from elsewhere.
@Suite struct ViewContextTests {
    @Test(arguments: StoreKind.allCases)
    @MainActor
    func viewContextSavesOnTheMainActorAndBackgroundContextsSeeIt(kind: StoreKind) async throws {
        let store = try TestStore(kind)
        let context = store.container.viewContext
        #expect(context.concurrencyType == .mainQueue)
        let item = try context.insertItem("MAIN")
        try await context.save()
        #expect(!item.objectID.isTemporaryID)

        let count = try await store.container.performBackgroundTask { background in
            try background.count(for: FetchRequest<ManagedObject>(entityName: "Item"))
        }
        #expect(count == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func viewContextPerformRunsOnTheMainQueue(kind: StoreKind) async throws {
        let store = try TestStore(kind)
        let context = store.container.viewContext
        let ranOnMain = try await context.perform { () -> Bool in
            dispatchPrecondition(condition: .onQueue(.main))
            return context.isOnQueue
        }
        #expect(ranOnMain)
        let title = try await context.perform {
            let item = try context.insertItem("PERF")
            try context.save()
            return try item.value(forKey: "code", as: String.self)
        }
        #expect(title == "PERF")
    }

    @Test(arguments: StoreKind.allCases)
    @MainActor
    func aChildOfTheViewContextWorksFromTheMainQueue(kind: StoreKind) async throws {
        let store = try TestStore(kind)
        let view = store.container.viewContext
        let item = try view.insertItem("VIEW", ["title": "unsaved in view"])
        let child = view.newChildContext()
        // The child waits for its queue from the main queue, then asks the main-queue parent for
        // rows: the parent must answer on the spot, not wait for the queue this thread holds.
        let title = try child.performAndWait {
            let copy = try child.existingObject(with: try #require(child.objects("Item").first).objectID)
            try copy.setValue("edited in child", forKey: "title")
            try child.save()
            return try copy.get("title", as: String.self)
        }
        #expect(title == "edited in child")
        #expect(try item.get("title", as: String.self) == "edited in child")
        try await view.save()
        #expect(try store.storedCount("Item", "title == 'edited in child'") == 1)
    }
}
