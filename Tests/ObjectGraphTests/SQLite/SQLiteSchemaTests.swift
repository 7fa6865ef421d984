import Foundation
import Testing

@testable import ObjectGraph

/// The DDL a model maps to.
@Suite struct SQLiteSchemaTests {
    @Test func memberTableAndIndexes() {
        let statements = SQLiteFixtures.model().sqliteSchema()
        #expect(
            statements[0] == """
                CREATE TABLE IF NOT EXISTS "Member" (
                    "_pk" INTEGER PRIMARY KEY,
                    "email" TEXT NOT NULL,
                    "name" TEXT NOT NULL,
                    "note" TEXT,
                    "age" INTEGER,
                    "_version" INTEGER NOT NULL DEFAULT 1
                ) STRICT
                """)
        #expect(
            Array(statements[1...3]) == [
                #"CREATE UNIQUE INDEX IF NOT EXISTS "Member_email_unique" ON "Member" ("email")"#,
                #"CREATE INDEX IF NOT EXISTS "Member_name_idx" ON "Member" ("name")"#,
                #"CREATE INDEX IF NOT EXISTS "Member_name_age_idx" ON "Member" ("name", "age")"#
            ])
        #expect(statements.count == 7)
        #expect(statements[5].contains(#""_objectgraph_metadata""#))
        #expect(statements[6].contains(#""_objectgraph_primary_keys""#))
    }

    @Test func everyTypeHasItsColumnType() {
        let sample = SQLiteFixtures.model().sqliteSchema().joined(separator: "\n")
        for line in [
            #""integer16Value" INTEGER,"#, #""integer32Value" INTEGER,"#, #""integer64Value" INTEGER,"#,
            #""doubleValue" REAL,"#, #""floatValue" REAL,"#, #""decimalValue" TEXT,"#, #""stringValue" TEXT,"#,
            #""booleanValue" INTEGER,"#, #""dateValue" REAL,"#, #""binaryValue" BLOB,"#, #""uuidValue" BLOB,"#,
            #""uriValue" TEXT,"#, #""jsonValue" TEXT"#, #""label" TEXT NOT NULL,"#
        ] {
            #expect(sample.contains(line), "\(line)")
        }
    }

    @Test func clashingIndexNamesGetSuffixes() {
        let first = EntityDescription(
            name: "A_b", attributes: [AttributeDescription(name: "c", type: .string, isIndexed: true, index: 0)], index: 0)
        let second = EntityDescription(
            name: "A", attributes: [AttributeDescription(name: "b_c", type: .string, isIndexed: true, index: 0)],
            indexes: [["b_c"]], index: 1)
        let model = ManagedObjectModel(
            name: "M", version: 1, entities: [first, second], versionHash: "h", canonicalJSON: Data(), sourceURL: nil)
        let indexes = model.sqliteSchema().filter { $0.hasPrefix("CREATE INDEX") }
        // The compound index repeating `b_c` alone is left out.
        #expect(
            indexes == [
                #"CREATE INDEX IF NOT EXISTS "A_b_c_idx" ON "A_b" ("c")"#,
                #"CREATE INDEX IF NOT EXISTS "A_b_c_idx_2" ON "A" ("b_c")"#
            ])
    }

    @Test func theStoreRunsExactlyThisSchema() throws {
        let directory = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = SQLiteFixtures.model()
        let url = directory.appendingPathComponent("s.sqlite")
        try SQLiteStore(description: SQLiteFixtures.description(url), model: model).close()
        let connection = try SQLiteConnection(path: url.path, readOnly: true, busyTimeout: 1)
        let select = try connection.prepare("SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY rowid")
        var stored: [String] = []
        while try select.step() { stored.append(select.text(at: 0) ?? "") }
        let expected = model.sqliteSchema().map { $0.replacingOccurrences(of: " IF NOT EXISTS", with: "") }
        #expect(stored == expected)
    }
}

/// The DDL of an entity with a `primaryKey` attribute: the attribute is the table's `_pk`.
@Suite struct SQLitePrimaryKeySchemaTests {
    @Test func theKeyAttributeIsTheRowKey() throws {
        let model = try ManagedObjectModel(
            data: Data(
                """
                { "name": "Keys", "version": 1, "entities": [
                  { "name": "Person", "primaryKey": "id", "indexes": [["name", "id"]], "attributes": [
                      { "name": "id", "type": "integer64" }, { "name": "name", "type": "string" } ] } ] }
                """.utf8))
        let statements = model.sqliteSchema()
        #expect(
            statements[0] == """
                CREATE TABLE IF NOT EXISTS "Person" (
                    "_pk" INTEGER PRIMARY KEY /* Person.id */,
                    "name" TEXT NOT NULL,
                    "_version" INTEGER NOT NULL DEFAULT 1
                ) STRICT
                """)
        // The rowid is unique already: the key's implicit constraint needs no index of its own.
        #expect(statements[1] == #"CREATE INDEX IF NOT EXISTS "Person_name_id_idx" ON "Person" ("name", "_pk")"#)
        #expect(statements.count == 4)
    }
}
