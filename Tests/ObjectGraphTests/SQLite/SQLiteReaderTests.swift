import CSQLite
import Dispatch
import Foundation
import Testing

@testable import ObjectGraph

/// One writer and a pool of readers: a fetch does not wait for a save in progress, readers see
/// each commit at once, and a write waits for another connection's lock for the busy timeout,
/// then fails with an error that says so.
@Suite struct SQLiteReaderTests {
    private func withStore(busyTimeout: TimeInterval = 5, _ body: (SQLiteStore, URL) throws -> Void) throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Club.sqlite")
        var description = SQLiteFixtures.description(url)
        description.busyTimeout = busyTimeout
        let store = try SQLiteStore(description: description, model: SQLiteFixtures.model())
        defer { store.close() }
        try body(store, url)
    }

    private func insert(_ store: SQLiteStore, _ number: UInt64) -> SaveRequest {
        SaveRequest(inserts: [SQLiteFixtures.member(store, number, email: "\(number)@x")])
    }

    @Test func aFetchFinishesWhileASaveIsInProgress() throws {
        try withStore { store, _ throws in
            _ = try store.save(insert(store, 1))
            // The next save stops at its first INSERT, its write transaction open, until released.
            let inSave = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let stopped = LockedValue<Bool>()
            store.setStatementObserver { sql in
                guard sql.hasPrefix(#"INSERT INTO "Member""#), stopped.value == nil else { return }
                stopped.set(true)
                inSave.signal()
                release.wait()
            }
            defer { store.setStatementObserver(nil) }
            let saved = DispatchSemaphore(value: 0)
            let second = insert(store, 2)
            DispatchQueue.global().async {
                _ = try? store.save(second)
                saved.signal()
            }
            inSave.wait()

            let fetched = DispatchSemaphore(value: 0)
            let keys = LockedValue<[Int64]>()
            DispatchQueue.global().async {
                keys.set(try? SQLiteFixtures.fetchAll(store).map(\.primaryKey))
                fetched.signal()
            }
            let finishedDuringSave = fetched.wait(timeout: .now() + 30) == .success
            release.signal()
            saved.wait()
            if !finishedDuringSave { fetched.wait() }
            #expect(finishedDuringSave, "the fetch waited for the save")
            // It saw the last commit, not the save still in progress.
            #expect(keys.value == [1])
            #expect(try SQLiteFixtures.fetchAll(store).map(\.primaryKey) == [1, 2])
        }
    }

    @Test func readersSeeEachCommitAtOnce() throws {
        try withStore { store, _ throws in
            let member = store.model.entities[0]
            for number in 1...20 as ClosedRange<UInt64> {
                let keys = try store.save(insert(store, number))
                // Several threads at once, so several readers, each see the row just committed.
                let seen = LockedValue<[Bool]>()
                seen.set([])
                DispatchQueue.concurrentPerform(iterations: 6) { _ in
                    let count = try? store.count(StoreFetchRequest(entity: member))
                    let row = try? store.snapshots(of: member, primaryKeys: keys)[keys[0]]
                    let ok = count == Int(number) && row != nil
                    seen.update { $0.append(ok) }
                }
                #expect(seen.value == Array(repeating: true, count: 6), "after commit \(number)")
            }
        }
    }

    /// A connection of the test's own holding the write lock of `url`, as another process would.
    private func lockingConnection(_ url: URL) throws -> OpaquePointer {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw ObjectGraphError(.storeUnavailable, "cannot open \(url.path)")
        }
        try #require(sqlite3_exec(handle, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)
        return handle
    }

    @Test func aWriteWaitsForAnotherConnectionsLockAndThenSucceeds() throws {
        try withStore { store, url throws in
            let other = try lockingConnection(url)
            defer { sqlite3_close_v2(other) }
            let beginning = DispatchSemaphore(value: 0)
            store.setStatementObserver { if $0 == "BEGIN IMMEDIATE" { beginning.signal() } }
            defer { store.setStatementObserver(nil) }
            let saved = DispatchSemaphore(value: 0)
            let keys = LockedValue<[Int64]>()
            let request = insert(store, 1)
            DispatchQueue.global().async {
                keys.set(try? store.save(request))
                saved.signal()
            }
            beginning.wait()
            // The save cannot finish while the other connection holds the lock …
            #expect(saved.wait(timeout: .now() + 0.2) == .timedOut)
            #expect(sqlite3_exec(other, "COMMIT", nil, nil, nil) == SQLITE_OK)
            // … and finishes once it is released.
            saved.wait()
            #expect(keys.value == [1])
        }
    }

    @Test func aWriteLockedOutPastTheBusyTimeoutFailsClearly() throws {
        try withStore(busyTimeout: 0.2) { store, url throws in
            let other = try lockingConnection(url)
            defer { sqlite3_close_v2(other) }
            let clock = ContinuousClock()
            let started = clock.now
            let error = #expect(throws: ObjectGraphError.self) { try store.save(insert(store, 1)) }
            let waited = clock.now - started
            #expect(error?.kind == .busy)
            #expect(error?.sqliteCode.map { $0 & 0xFF } == SQLITE_BUSY)
            #expect(error?.message.contains(SQLiteStoreState.fileSystemPath(url)) == true, "\(String(describing: error))")
            #expect(error?.message.contains("database is locked") == true)
            #expect(error?.message.contains("longer than the busy timeout of 0.2 s") == true)
            #expect(waited >= .milliseconds(200) && waited < .seconds(5), "\(waited)")
            // Nothing was written, and the store writes again once the lock is gone.
            #expect(sqlite3_exec(other, "ROLLBACK", nil, nil, nil) == SQLITE_OK)
            #expect(try store.save(insert(store, 2)) == [1])
        }
    }

    @Test func afterClosingTheFileAloneHoldsEverything() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Club.sqlite")
        let store = try SQLiteStore(description: SQLiteFixtures.description(url), model: SQLiteFixtures.model())
        _ = try store.save(insert(store, 1))
        // A read opens a reader; the writer must still be the last connection to close.
        #expect(try SQLiteFixtures.fetchAll(store).count == 1)
        store.close()
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"), "the WAL was not checkpointed and removed")
    }
}
