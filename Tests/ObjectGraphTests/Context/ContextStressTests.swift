import CSQLite
import Foundation
import Synchronization
import Testing

@testable import ObjectGraph

/// Eight contexts — the main-queue view context, private contexts and child contexts — on
/// several threads, fetching, changing and saving the same objects for a bounded time. Counters
/// are incremented under the `.error` policy, so a lost update would show as a sum below the
/// number of committed increments; titles are rewritten under object trump, which must never
/// undo a counter. Also run under ThreadSanitizer (see README: `swift test --sanitize=thread`).
@Suite struct ContextStressTests {
    private static let itemCount = 12
    private static let duration: TimeInterval = 1.5

    /// What the workers did, shared by their threads.
    final class Tally: Sendable {
        let committed = Atomic<Int>(0)
        let conflicts = Atomic<Int>(0)
        let titleSaves = Atomic<Int>(0)
        let failures = Locked<[String]>([])
        func fail(_ message: String) { failures.withLock { $0.append(message) } }
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentContextsLoseNoUpdate(kind: StoreKind) async throws {
        let store = try TestStore(kind)
        let ids: [ManagedObjectID] = try store.withNewContext { context in
            let items = try (0..<Self.itemCount).map { try context.insertItem("C\($0)", ["i64": 0]) }
            try context.save()
            return items.map(\.objectID)
        }
        let container = store.container
        let view = container.viewContext
        view.automaticallyMergesChangesFromParent = true
        let incrementers = (1...3).map { number in
            let context = container.newBackgroundContext()
            context.name = "incrementer \(number)"
            return context
        }
        let retitler = container.newBackgroundContext()
        retitler.name = "retitler"
        retitler.mergePolicy = .mergeByPropertyObjectTrump
        // Each child has a parent of its own, so the child's worker knows when its increment is
        // committed: when that parent's save succeeds.
        let children = (1...2).map { number in
            let parent = container.newBackgroundContext()
            parent.name = "parent \(number)"
            let child = parent.newChildContext()
            child.name = "child \(number)"
            return child
        }
        let tally = Tally()
        let deadline = Date().addingTimeInterval(Self.duration)

        // Threads of their own: the workers block, and the task pool has only a thread per core.
        let finished = DispatchGroup()
        var workers: [@Sendable () -> Void] = (incrementers + children).map { context in
            { Self.increment(context, ids, until: deadline, tally) }
        }
        workers.append { Self.retitle(retitler, ids, until: deadline, tally) }
        for work in workers {
            finished.enter()
            Thread {
                work()
                finished.leave()
            }.start()
        }
        await Self.watch(view, ids, until: deadline, tally)
        finished.wait()

        #expect(tally.failures.withLock { $0 } == [])
        let committed = tally.committed.load(ordering: .relaxed)
        #expect(committed > 0)
        #expect(tally.titleSaves.load(ordering: .relaxed) > 0)
        let sum = try store.withNewContext { context in
            try context.objects("Item").reduce(0) { $0 + (try $1.get("i64", as: Int.self) ?? 0) }
        }
        // Every committed increment is in the store, and nothing else is.
        #expect(sum == committed, "\(committed) committed increments, \(tally.conflicts.load(ordering: .relaxed)) conflicts")
        if kind == .sqlite { #expect(try Self.integrityCheck(store) == "ok") }
    }

    /// Eight contexts that merge each other's saves automatically add one to a shared counter
    /// from whatever they last merged, under the `.error` policy, retrying after a rollback on a
    /// conflict: every acknowledged increment is in the store. A merge that let an unsaved edit
    /// take the other save's row version used to lose some of them.
    @Test(arguments: StoreKind.allCases)
    func automaticallyMergingContextsLoseNoIncrement(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let id = try store.savedItem("COUNTER", ["i64": 0])
        let contexts = (1...8).map { number in
            let context = store.newContext(name: "merging \(number)")
            context.automaticallyMergesChangesFromParent = true
            return context
        }
        let tally = Tally()
        let deadline = Date().addingTimeInterval(Self.duration)
        // A thread each: concurrentPerform would run only as many at once as there are cores.
        let finished = DispatchGroup()
        for context in contexts {
            finished.enter()
            Thread {
                Self.incrementFromMerges(context, id, until: deadline, tally)
                finished.leave()
            }.start()
        }
        finished.wait()
        #expect(tally.failures.withLock { $0 } == [])
        let committed = tally.committed.load(ordering: .relaxed)
        #expect(committed > 0)
        #expect(tally.conflicts.load(ordering: .relaxed) > 0, "the contexts raced")
        let stored = try store.withNewContext { try $0.existingObject(with: id).get("i64", as: Int.self) }
        #expect(stored == committed, "\(committed) acknowledged increments, \(tally.conflicts.load(ordering: .relaxed)) conflicts")
    }

    /// Loops: add one to the counter as the context last merged it and save; a conflict is
    /// counted and rolled back (which brings in the merge it held back).
    private static func incrementFromMerges(_ context: ManagedObjectContext, _ id: ManagedObjectID, until deadline: Date, _ tally: Tally) {
        while Date() < deadline {
            context.performAndWait {
                do {
                    let item = try context.existingObject(with: id)
                    try item.setValue((try item.get("i64", as: Int.self) ?? 0) + 1, forKey: "i64")
                    try context.save()
                    tally.committed.add(1, ordering: .relaxed)
                } catch let error as ObjectGraphError where error.kind == .mergeConflict {
                    tally.conflicts.add(1, ordering: .relaxed)
                    context.rollback()
                } catch {
                    tally.fail("\(context.name ?? "?"): \(error)")
                }
            }
        }
    }

    /// Loops: refresh an item, add one to its counter, save (through the parent for a child);
    /// a conflict is counted and rolled back.
    private static func increment(_ context: ManagedObjectContext, _ ids: [ManagedObjectID], until deadline: Date, _ tally: Tally) {
        var generator = SystemRandomNumberGenerator()
        while Date() < deadline {
            let id = ids.randomElement(using: &generator)!
            context.performAndWait {
                do {
                    if let parent = context.parent {
                        try parent.performAndWait { try parent.refresh(parent.existingObject(with: id), mergeChanges: false) }
                    }
                    let item = try context.existingObject(with: id)
                    try context.refresh(item, mergeChanges: false)
                    try item.setValue((try item.value(forKey: "i64", as: Int.self) ?? 0) + 1, forKey: "i64")
                    try context.save()
                    if let parent = context.parent { try parent.performAndWait { try parent.save() } }
                    tally.committed.add(1, ordering: .relaxed)
                } catch let error as ObjectGraphError where error.kind == .mergeConflict {
                    tally.conflicts.add(1, ordering: .relaxed)
                    context.rollback()
                    context.parent?.performAndWait { context.parent?.rollback() }
                } catch {
                    tally.fail("\(context.name ?? "?"): \(error)")
                }
            }
        }
    }

    /// Loops: rewrite an item's title from a stale copy under object trump. A conflict error is
    /// possible only when every retry met yet another save of the row; it is counted, not failed.
    private static func retitle(_ context: ManagedObjectContext, _ ids: [ManagedObjectID], until deadline: Date, _ tally: Tally) {
        var generator = SystemRandomNumberGenerator()
        var round = 0
        while Date() < deadline {
            round += 1
            let id = ids.randomElement(using: &generator)!
            context.performAndWait {
                do {
                    try context.existingObject(with: id).setValue("T\(round)", forKey: "title")
                    try context.save()
                    tally.titleSaves.add(1, ordering: .relaxed)
                } catch let error as ObjectGraphError where error.kind == .mergeConflict {
                    tally.conflicts.add(1, ordering: .relaxed)
                    context.rollback()
                } catch {
                    tally.fail("retitler: \(error)")
                }
            }
        }
    }

    /// Loops on the main queue: fetch every item and check the counters never go past what has
    /// been committed.
    private static func watch(_ view: ManagedObjectContext, _ ids: [ManagedObjectID], until deadline: Date, _ tally: Tally) async {
        while Date() < deadline {
            await MainActor.run {
                view.performAndWait {
                    do {
                        let sum = try view.objects("Item").reduce(0) { $0 + (try $1.get("i64", as: Int.self) ?? 0) }
                        // Read after the fetch; up to one save per worker may have committed and not been counted yet.
                        let ceiling = tally.committed.load(ordering: .relaxed) + 5
                        if sum > ceiling { tally.fail("the view context saw \(sum) increments with at most \(ceiling) committed") }
                    } catch {
                        tally.fail("view: \(error)")
                    }
                }
            }
            try? await Task.sleep(nanoseconds: 2_000_000)
        }
    }

    /// `PRAGMA integrity_check` on the store file, through a connection of its own.
    private static func integrityCheck(_ store: TestStore) throws -> String {
        let path = try #require(store.directory).appendingPathComponent("Conformance.sqlite").path
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let handle else { return "cannot open" }
        defer { sqlite3_close(handle) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "PRAGMA integrity_check", -1, &statement, nil) == SQLITE_OK else { return "cannot prepare" }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else { return "no answer" }
        return String(cString: text)
    }
}
