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
        let ranOnMain = try await context.perform { () -> Bool in dispatchPrecondition(condition: .onQueue(.main)); return context.isOnQueue }
        #expect(ranOnMain)
        let title = try await context.perform {
            let item = try context.insertItem("PERF")
            try context.save()
            return try item.value(forKey: "code", as: String.self)
        }
        #expect(title == "PERF")
    }
}
