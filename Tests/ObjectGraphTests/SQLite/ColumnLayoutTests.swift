import Foundation
import Testing

@testable import ObjectGraph

/// Stores made before 2026-11-24 have the row version second in every table, right after `_pk`;
/// newer ones have it last. The store names its columns in every statement, so it reads and
/// writes both layouts alike.
@Suite struct ColumnLayoutTests {
    @Test func aStoreWithTheVersionSecondReadsUpdatesAndChecksVersions() throws {
        let store = try TestStore(.sqlite)
        let uris = try store.withNewContext { context in
            let items = try ["A1", "B2", "C3"].map { (code: String) in try context.insertItem(code, ["title": "t-" + code]) }
            try context.save()
            return items.map { $0.objectID.uriRepresentation() }
        }
        try moveVersionColumnsSecond(in: store)
        try store.reopen()
        let ids = try uris.map { try #require(store.container.persistentStoreCoordinator.managedObjectID(forURIRepresentation: $0)) }

        try store.withNewContext { context in
            var request = FetchRequest<ManagedObject>(entityName: "Item")
            request.sortDescriptors = [FetchSortDescriptor(key: "code")]
            let titles = try context.fetch(request).map { try $0.get("title", as: String.self) }
            #expect(titles == ["t-A1", "t-B2", "t-C3"])
        }
        // A stale copy of B2 is refused after another context updated it: the version is read and
        // checked in its old place.
        let stale = store.newContext()
        let staleItem = try stale.performAndWait { try stale.existingObject(with: ids[1]) }
        try store.withNewContext { context in
            try context.existingObject(with: ids[1]).setValue("changed", forKey: "title")
            context.delete(try context.existingObject(with: ids[2]))
            try context.save()
        }
        let error = try #require(throws: ObjectGraphError.self) {
            try stale.performAndWait {
                try staleItem.setValue("stale", forKey: "title")
                try stale.save()
            }
        }
        #expect(error.kind == .mergeConflict)
        #expect(error.mergeConflicts.map(\.objectID) == [ids[1]])

        try store.reopen()
        #expect(try store.storedCount("Item") == 2)
        let changed = try #require(store.container.persistentStoreCoordinator.managedObjectID(forURIRepresentation: uris[1]))
        #expect(try store.withNewContext { try $0.existingObject(with: changed).get("title", as: String.self) } == "changed")
    }

    /// A table rebuilt without `STRICT` (by a tool, say) may hold values of any storage class:
    /// its values are checked as they are read, and one of the wrong class is damage.
    @Test func aTableThatIsNotStrictIsReadWithChecks() throws {
        let store = try TestStore(.sqlite)
        try store.withNewContext { context in
            _ = try context.insertItem("A1")
            try context.save()
        }
        try rebuildTables(in: store) { create, connection in
            try connection.execute(create.replacingOccurrences(of: "\n) STRICT", with: "\n)"))
        } then: { connection in
            try connection.execute("UPDATE \"Item\" SET \"i32\" = 'seven'")
        }
        try store.reopen()
        let error = try #require(throws: ObjectGraphError.self) {
            try store.withNewContext { try $0.fetch(FetchRequest<ManagedObject>(entityName: "Item")) }
        }
        #expect(error.kind == .corruptStore)
        #expect(error.message.contains("\"i32\"") && error.message.contains("TEXT"), "\(error.message)")
    }

    /// Rebuilds every entity table of `store`'s file with `_version` right after `_pk`, as stores
    /// were laid out before, keeping rows and indexes.
    private func moveVersionColumnsSecond(in store: TestStore) throws {
        let version = "    \"_version\" INTEGER NOT NULL DEFAULT 1"
        try rebuildTables(in: store) { create, connection in
            var lines = create.components(separatedBy: "\n").filter { $0 != version }
            lines[lines.count - 2].removeLast()  // the comma of the column now last
            lines.insert(version + ",", at: 2)  // after "_pk"
            try connection.execute(lines.joined(separator: "\n"))
            let table = String(create.split(separator: "\"")[1])
            #expect(try names(ofColumnsIn: table, connection).prefix(2) == ["_pk", "_version"])
        }
    }

    /// Closes `store` and rebuilds every entity table of its file: `create` runs the table's
    /// CREATE TABLE statement (changed as it likes) once the old table is renamed away; rows and
    /// indexes are carried over, then `then` runs, all in one transaction.
    private func rebuildTables(
        in store: TestStore, create: (String, SQLiteConnection) throws -> Void, then: (SQLiteConnection) throws -> Void = { _ in }
    ) throws {
        let model = store.container.managedObjectModel
        store.container.persistentStoreCoordinator.removePersistentStore()
        let connection = try SQLiteConnection(
            path: store.directory!.appendingPathComponent("Conformance.sqlite").path, readOnly: false, busyTimeout: 1)
        defer { connection.close() }
        let statements = model.sqliteSchema()
        try connection.execute("BEGIN")
        for statement in statements where statement.hasPrefix("CREATE TABLE") && statement.contains("\"_version\"") {
            let table = String(statement.split(separator: "\"")[1])
            let list = try names(ofColumnsIn: table, connection).map { "\"\($0)\"" }.joined(separator: ", ")
            try connection.execute("ALTER TABLE \"\(table)\" RENAME TO \"old_\(table)\"")
            try create(statement, connection)
            try connection.execute("INSERT INTO \"\(table)\" (\(list)) SELECT \(list) FROM \"old_\(table)\"")
            try connection.execute("DROP TABLE \"old_\(table)\"")
        }
        for index in statements where index.hasPrefix("CREATE INDEX") || index.hasPrefix("CREATE UNIQUE INDEX") {
            try connection.execute(index)
        }
        try then(connection)
        try connection.execute("COMMIT")
    }

    private func names(ofColumnsIn table: String, _ connection: SQLiteConnection) throws -> [String] {
        let statement = try connection.prepare("SELECT name FROM pragma_table_info(?)")
        try statement.bind(.string(table), at: 1)
        var names: [String] = []
        while try statement.step() { names.append(statement.textValue(at: 0)) }
        return names
    }
}
