import CSQLite
import Foundation
import Testing

@testable import ObjectGraph

/// Saving and reading back through `SQLiteStore`: keys, versions, atomicity, errors that name the
/// object, and what a save executes.
@Suite struct SQLiteStoreSaveTests {
    /// A store in a fresh directory; `body` gets the store and its URL, the directory goes after.
    private func withStore(pragmas: [String: String] = [:], _ body: (SQLiteStore, URL) throws -> Void) throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Club.sqlite")
        let store = try SQLiteStore(description: SQLiteFixtures.description(url, pragmas: pragmas), model: SQLiteFixtures.model())
        defer { store.close() }
        try body(store, url)
    }

    private func reopen(_ url: URL) throws -> SQLiteStore {
        try SQLiteStore(description: SQLiteFixtures.description(url), model: SQLiteFixtures.model())
    }

    private func permanentID(_ store: SQLiteStore, _ key: Int64, entity: Int = 0) -> ManagedObjectID {
        ManagedObjectID(space: store.idSpaces[entity], primaryKey: key)
    }

    @Test func insertsGetKeysAndReadBackAfterReopening() throws {
        try withStore { store, url throws in
            let keys = try store.save(
                SaveRequest(inserts: [
                    SQLiteFixtures.member(store, 1, email: "a@x", note: "first"),
                    SQLiteFixtures.member(store, 2, email: "b@x"),
                    SQLiteFixtures.member(store, 3, email: "c@x")
                ]))
            #expect(keys == [1, 2, 3])
            store.close()

            let reopened = try reopen(url)
            defer { reopened.close() }
            let rows = try SQLiteFixtures.fetchAll(reopened)
            #expect(rows.map(\.primaryKey) == [1, 2, 3])
            #expect(rows.allSatisfy { $0.version == Snapshot.firstVersion })
            // The transient slot holds its default, not the value that was in the insert.
            #expect(rows[0].values == [.string("a@x"), .string("Someone"), .string("first"), .boolean(false), .integer(30)])
            #expect(try reopened.save(SaveRequest(inserts: [SQLiteFixtures.member(reopened, 4, email: "d@x")])) == [4])
        }
    }

    /// Inserted text goes through the statement's buffer (4 KiB at first): a row whose text does
    /// not fit binds the rest as SQLite's own copy, and the next rows get a larger buffer.
    @Test func textBeyondTheStatementsBufferIsWrittenWhole() throws {
        try withStore { store, url throws in
            func long(_ letter: Character, _ row: Int) -> String { String(repeating: letter, count: 1_500 + row) }
            let members = (1...4).map { row in
                row.isMultiple(of: 2)
                    ? SQLiteFixtures.member(
                        store, UInt64(row), email: long("e", row), name: long("n", row), note: long("t", row))
                    : SQLiteFixtures.member(store, UInt64(row), email: "\(row)@x", note: "short")
            }
            _ = try store.save(SaveRequest(inserts: SaveRequest.Inserts(members)))
            store.close()
            let reopened = try reopen(url)
            defer { reopened.close() }
            let rows = try SQLiteFixtures.fetchAll(reopened)
            #expect(rows.map { Array($0.values[0..<3]) } == members.map { Array($0.values[0..<3]) })
        }
    }

    @Test func everyTypeSurvivesAStoreRoundTrip() throws {
        try withStore { store, url throws in
            let entity = store.model.entities[1]
            var values: ValueRow = [.string("all")]
            values += [
                .integer(Int64(Int16.max)), .integer(Int64(Int32.min)), .integer(Int64.min), .double(-.infinity), .float(0.1),
                .decimal(Decimal(string: "12345.6789")!), .string(""), .boolean(true),
                .date(Date(timeIntervalSinceReferenceDate: 700_000_000.000_123_4)), .binary(Data()), .uuid(UUID()),
                .uri(URL(string: "https://example.com/path?q=a%20b")!), .json(try JSONDocument(encoding: ["k": [1, 2]]))
            ]
            let empty = ValueRow([.string("none")] + Array(repeating: .null, count: 13))
            let ids = [UInt64(1), 2].map { ManagedObjectID(space: store.idSpaces[entity.index], temporaryNumber: $0) }
            _ = try store.save(SaveRequest(inserts: [.init(objectID: ids[0], values: values), .init(objectID: ids[1], values: empty)]))
            store.close()
            let reopened = try reopen(url)
            defer { reopened.close() }
            let rows = try SQLiteFixtures.fetchAll(reopened, 1)
            #expect(rows.map(\.values) == [values, empty])
        }
    }

    @Test func updatesWriteChangedAttributesAndBumpTheVersion() throws {
        try withStore { store, _ throws in
            _ = try store.save(SaveRequest(inserts: [SQLiteFixtures.member(store, 1, email: "a@x", note: "keep")]))
            let id = permanentID(store, 1)
            var values: ValueRow = [.string("ignored@x"), .string("Renamed"), .null, .boolean(true), .integer(31)]
            _ = try store.save(SaveRequest(updates: [.init(objectID: id, changedAttributes: [1, 3, 4], values: values)]))
            var row = try #require(try store.snapshots(of: store.model.entities[0], primaryKeys: [1])[1])
            #expect(row.version == Snapshot.firstVersion + 1)
            #expect(row.values == [.string("a@x"), .string("Renamed"), .string("keep"), .boolean(false), .integer(31)])

            values[2] = .null
            _ = try store.save(SaveRequest(updates: [.init(objectID: id, changedAttributes: [2], values: values)]))
            row = try #require(try store.snapshots(of: store.model.entities[0], primaryKeys: [1])[1])
            #expect(row.version == Snapshot.firstVersion + 2)
            #expect(row.values[2] == .null)
        }
    }

    /// Stores made when rows started at version 1 (the column's default) are held to the
    /// versions they have.
    @Test func rowsOfAnOlderStoreStartingAtVersionOneUpdate() throws {
        try withStore { store, url throws in
            _ = try store.save(SaveRequest(inserts: [SQLiteFixtures.member(store, 1, email: "a@x")]))
            store.close()
            var handle: OpaquePointer?
            try #require(sqlite3_open(url.path, &handle) == SQLITE_OK)
            defer { sqlite3_close(handle) }
            try #require(sqlite3_exec(handle, #"UPDATE "Member" SET "_version" = 1"#, nil, nil, nil) == SQLITE_OK)
            let reopened = try reopen(url)
            defer { reopened.close() }
            let id = permanentID(reopened, 1)
            let values: ValueRow = [.string("a@x"), .string("Renamed"), .null, .boolean(false), .integer(31)]
            let stale = SaveRequest.Update(objectID: id, changedAttributes: [1], values: values, expectedVersion: Snapshot.firstVersion)
            #expect(throws: VersionConflicts.self) { try reopened.save(SaveRequest(updates: [stale])) }
            _ = try reopened.save(SaveRequest(updates: [.init(objectID: id, changedAttributes: [1], values: values, expectedVersion: 1)]))
            let row = try #require(try reopened.snapshots(of: reopened.model.entities[0], primaryKeys: [1])[1])
            #expect(row.version == 2)
            #expect(row.values[1] == .string("Renamed"))
        }
    }

    /// Many keys that fill most of the range they span are read by one scan of the range; the
    /// rows in it that were not asked for stay out, and keys without rows are left out.
    @Test func manyKeysAreReadByScanningTheRangeTheySpan() throws {
        try withStore { store, _ throws in
            _ = try store.save(
                SaveRequest(inserts: SaveRequest.Inserts((1...1_000).map { SQLiteFixtures.member(store, $0, email: "\($0)@x") })))
            let asked = ((1...800).filter { $0 % 5 != 0 }.map(Int64.init) + [1_001, 1_002, 7]).shuffled()
            #expect(SQLiteReader.denseKeys(asked)?.range == 1...1_002)
            let found = try store.snapshots(of: store.model.entities[0], primaryKeys: asked)
            #expect(found.keys.sorted() == (1...800).filter { $0 % 5 != 0 }.map(Int64.init))
            #expect(found[7]?.values[0] == .string("7@x") && found[799]?.values[0] == .string("799@x"))
            // Keys spread wide, or few, are looked up one by one, with the same answer.
            #expect(SQLiteReader.denseKeys(Array(stride(from: 1, through: 1_000, by: 3))) == nil)
            #expect(SQLiteReader.denseKeys([1, 2, 3]) == nil)
            let spread = try store.snapshots(of: store.model.entities[0], primaryKeys: Array(stride(from: 1, through: 1_000, by: 3)))
            #expect(spread.count == 334 && spread[1_000]?.values[0] == .string("1000@x"))
        }
    }

    @Test func updatingAVanishedRowFailsAndWritesNothing() throws {
        try withStore { store, _ throws in
            _ = try store.save(SaveRequest(inserts: [SQLiteFixtures.member(store, 1, email: "a@x")]))
            let values: ValueRow = [.string("a@x"), .string("New"), .null, .boolean(false), .null]
            let error = #expect(throws: ObjectGraphError.self) {
                try store.save(
                    SaveRequest(
                        updates: [
                            .init(objectID: permanentID(store, 1), changedAttributes: [1], values: values),
                            .init(objectID: permanentID(store, 99), changedAttributes: [1], values: values)
                        ]))
            }
            #expect(error?.kind == .objectNotFound)
            #expect(error?.objectID == permanentID(store, 99))
            #expect(error?.message.contains("Member/p99") == true)
            #expect(try SQLiteFixtures.fetchAll(store)[0].values[1] == .string("Someone"))
        }
    }

    @Test func deletesRemoveRowsAndIgnoreRowsAlreadyGone() throws {
        try withStore { store, _ throws in
            _ = try store.save(
                SaveRequest(inserts: SaveRequest.Inserts((1...3).map { SQLiteFixtures.member(store, $0, email: "\($0)@x") })))
            _ = try store.save(SaveRequest(deletes: [permanentID(store, 2), permanentID(store, 42)]))
            #expect(try SQLiteFixtures.fetchAll(store).map(\.primaryKey) == [1, 3])
            // Deleted keys are not handed out again.
            #expect(try store.save(SaveRequest(inserts: [SQLiteFixtures.member(store, 4, email: "4@x")])) == [4])
        }
    }

    @Test func aUniquenessViolationWritesNothingAndNamesTheObject() throws {
        try withStore { store, _ throws in
            let third = SQLiteFixtures.member(store, 3, email: "a@x")
            let error = #expect(throws: ObjectGraphError.self) {
                try store.save(
                    SaveRequest(inserts: [
                        SQLiteFixtures.member(store, 1, email: "a@x"), SQLiteFixtures.member(store, 2, email: "b@x"), third
                    ]))
            }
            #expect(error?.kind == .constraintViolation)
            #expect(error?.objectID == third.objectID)
            #expect(error?.entityName == "Member")
            #expect(error?.key == "email")
            #expect(error?.sqliteCode == 2067)
            #expect(
                error?.message
                    == "Cannot save Member/t3 (unsaved): another Member already has email = \"a@x\" (uniqueness constraint on email); nothing was written."
            )
            #expect(try SQLiteFixtures.fetchAll(store).isEmpty)
            // The keys the failed save took are given back.
            #expect(try store.save(SaveRequest(inserts: [SQLiteFixtures.member(store, 4, email: "a@x")])) == [1])
        }
    }

    @Test func aMissingRequiredValueNamesTheKey() throws {
        try withStore { store, _ throws in
            let entity = store.model.entities[0]
            let id = ManagedObjectID(space: store.idSpaces[entity.index], temporaryNumber: 7)
            let error = #expect(throws: ObjectGraphError.self) {
                try store.save(SaveRequest(inserts: [.init(objectID: id, values: [.null, .string("N"), .null, .null, .null])]))
            }
            #expect(error?.kind == .constraintViolation)
            #expect(error?.key == "email")
            #expect(error?.objectID == id)
            #expect(error?.sqliteCode == SQLiteResultCode.constraintNotNull)
        }
    }

    @Test func aFullDiskFailsTheSaveAndWritesNothing() throws {
        try withStore(pragmas: ["max_page_count": "40"]) { store, _ throws in
            _ = try store.save(SaveRequest(inserts: [SQLiteFixtures.member(store, 1, email: "small@x")]))
            let big = String(repeating: "x", count: 400_000)
            let error = #expect(throws: ObjectGraphError.self) {
                try store.save(
                    SaveRequest(inserts: [
                        SQLiteFixtures.member(store, 2, email: "b@x"), SQLiteFixtures.member(store, 3, email: "c@x", note: big)
                    ]))
            }
            #expect(error?.kind == .diskFull)
            #expect(error?.sqliteCode == SQLITE_FULL)
            #expect(error?.message.contains("[SQLITE_FULL (13)]") == true)
            #expect(try SQLiteFixtures.fetchAll(store).map(\.primaryKey) == [1])
            #expect(try store.save(SaveRequest(inserts: [SQLiteFixtures.member(store, 4, email: "d@x")])) == [2])
        }
    }

    @Test func aSaveIsOneTransactionOfPreparedStatements() throws {
        try withStore { store, _ throws in
            let log = SQLiteStatementLog()
            store.setStatementObserver { log.record($0) }
            _ = try store.save(
                SaveRequest(inserts: SaveRequest.Inserts((1...3).map { SQLiteFixtures.member(store, $0, email: "\($0)@x") })))
            store.setStatementObserver(nil)
            let statements = log.all
            #expect(statements.count == 8)
            #expect(statements.first == "BEGIN IMMEDIATE")
            // Checks whether another connection committed (and so may have used keys).
            #expect(statements[1] == "PRAGMA data_version")
            #expect(
                statements[2...4].allSatisfy {
                    $0 == #"INSERT INTO "Member" ("_pk", "_version", "email", "name", "note", "age") VALUES (?, 2, ?, ?, ?, ?)"#
                })
            #expect(statements[5].hasPrefix(#"INSERT INTO "_objectgraph_primary_keys""#))
            #expect(statements[6] == "COMMIT")
            // After the commit: did another connection commit too? (See SQLiteChangeMonitor.)
            #expect(statements[7] == "PRAGMA data_version")
        }
    }

    @Test func reservedKeysAreNeverHandedOutAgain() throws {
        try withStore { store, url throws in
            let member = store.model.entities[0]
            #expect(try store.reservePrimaryKeys(for: member, count: 3) == [1, 2, 3])
            #expect(try store.reservePrimaryKeys(for: member, count: 0) == [])
            let reserved = ManagedObjectID(space: store.idSpaces[member.index], primaryKey: 2)
            var insert = SQLiteFixtures.member(store, 1, email: "r@x")
            insert = SaveRequest.Insert(objectID: reserved, values: insert.values)
            // A permanent ID keeps its key and is not in the returned list.
            #expect(try store.save(SaveRequest(inserts: [insert])) == [])
            #expect(try SQLiteFixtures.fetchAll(store).map(\.primaryKey) == [2])
            store.close()
            let reopened = try reopen(url)
            defer { reopened.close() }
            #expect(try reopened.save(SaveRequest(inserts: [SQLiteFixtures.member(reopened, 9, email: "n@x")])) == [4])
        }
    }

    @Test func pagingCountingAndLookingUpByKey() throws {
        try withStore { store, _ throws in
            _ = try store.save(
                SaveRequest(inserts: SaveRequest.Inserts((1...10).map { SQLiteFixtures.member(store, $0, email: "\($0)@x") })))
            let member = store.model.entities[0]
            var request = StoreFetchRequest(entity: member)
            request.limit = 3
            request.offset = 4
            #expect(try store.fetch(request).map(\.primaryKey) == [5, 6, 7])
            #expect(try store.count(request) == 3)
            request.limit = nil
            #expect(try store.fetch(request).map(\.primaryKey) == [5, 6, 7, 8, 9, 10])
            #expect(try store.count(request) == 6)
            #expect(try store.count(StoreFetchRequest(entity: member)) == 10)

            #expect(try store.snapshots(of: member, primaryKeys: []).isEmpty)
            #expect(try store.snapshots(of: member, primaryKeys: [4])[4]?.values[0] == .string("4@x"))
            #expect(try store.snapshots(of: member, primaryKeys: [404]).isEmpty)
            let many = try store.snapshots(of: member, primaryKeys: [9, 2, 404, 2])
            #expect(Set(many.keys) == [2, 9])
            #expect(many[9]?.values[0] == .string("9@x"))
        }
    }

    @Test func twoStoresOnOneFileNeverHandOutTheSameKey() throws {
        try withStore { first, url throws in
            let second = try reopen(url)
            defer { second.close() }
            #expect(try first.save(SaveRequest(inserts: [SQLiteFixtures.member(first, 1, email: "a@x")])) == [1])
            #expect(try second.save(SaveRequest(inserts: [SQLiteFixtures.member(second, 1, email: "b@x")])) == [2])
            #expect(try first.reservePrimaryKeys(for: first.model.entities[0], count: 2) == [3, 4])
            #expect(try second.save(SaveRequest(inserts: [SQLiteFixtures.member(second, 2, email: "c@x")])) == [5])
            #expect(try SQLiteFixtures.fetchAll(first).map(\.primaryKey) == [1, 2, 5])
        }
    }

    @Test func concurrentCallersAreSerialised() throws {
        try withStore { store, _ throws in
            let failures = Locked(0)
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                do {
                    for round in 0..<20 {
                        let number = UInt64(worker * 100 + round)
                        _ = try store.save(SaveRequest(inserts: [SQLiteFixtures.member(store, number, email: "\(number)@x")]))
                        _ = try SQLiteFixtures.fetchAll(store)
                    }
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
            #expect(failures.withLock { $0 } == 0)
            #expect(try store.count(StoreFetchRequest(entity: store.model.entities[0])) == 160)
        }
    }
}
