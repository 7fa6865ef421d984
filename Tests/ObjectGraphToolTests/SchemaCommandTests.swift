import ArgumentParser
import Foundation
import ObjectGraph
import Testing

@testable import ObjectGraphTool

@Suite struct SchemaCommandTests {
    private let libraryPath = ToolFixtures.modelPath("Library.json")

    /// The statements of `output`, each with its closing `;`.
    private func statements(in output: CommandOutput) -> [String] {
        output.standardOutput.components(separatedBy: ";\n").dropLast().map { $0 + ";" }
    }

    @Test func printsEveryStatementOfTheStoreEndedBySemicolons() throws {
        let model = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: libraryPath))
        let output = try runTool(["schema", libraryPath])
        #expect(output.standardOutput == model.sqliteSchema().map { $0 + ";\n" }.joined())
        #expect(output.standardOutput.hasSuffix(";\n"))
        #expect(output.standardError.isEmpty)
        #expect(output.exitCode == .success)
    }

    @Test func createsAStrictTableForEveryEntityAndTheMetadataTables() throws {
        let output = try runTool(["schema", libraryPath])
        let tables = statements(in: output).filter { $0.hasPrefix("CREATE TABLE ") }
        let names = tables.map { $0.split(separator: "\"")[1] }
        #expect(names == ["Author", "Book", "Member", "Loan", "_objectgraph_metadata", "_objectgraph_primary_keys"])
        for table in tables {
            #expect(table.hasSuffix("\n) STRICT;"), "\(table)")
        }
        #expect(
            tables.first == """
                CREATE TABLE IF NOT EXISTS "Author" (
                    "_pk" INTEGER PRIMARY KEY,
                    "id" BLOB NOT NULL,
                    "name" TEXT NOT NULL,
                    "born" REAL,
                    "website" TEXT,
                    "rating" REAL NOT NULL,
                    "photo" BLOB,
                    "_version" INTEGER NOT NULL DEFAULT 1
                ) STRICT;
                """)
        // The transient attribute is not stored.
        #expect(!tables[0].contains("nickname"))
    }

    @Test func createsAUniqueIndexForEveryUniquenessConstraint() throws {
        let output = try runTool(["schema", libraryPath])
        let uniqueIndexes = statements(in: output).filter { $0.hasPrefix("CREATE UNIQUE INDEX ") }
        #expect(
            uniqueIndexes == [
                #"CREATE UNIQUE INDEX IF NOT EXISTS "Author_id_unique" ON "Author" ("id");"#,
                #"CREATE UNIQUE INDEX IF NOT EXISTS "Book_id_unique" ON "Book" ("id");"#,
                #"CREATE UNIQUE INDEX IF NOT EXISTS "Book_isbn_unique" ON "Book" ("isbn");"#,
                #"CREATE UNIQUE INDEX IF NOT EXISTS "Member_id_unique" ON "Member" ("id");"#,
                #"CREATE UNIQUE INDEX IF NOT EXISTS "Member_email_unique" ON "Member" ("email");"#,
                #"CREATE UNIQUE INDEX IF NOT EXISTS "Loan_id_unique" ON "Loan" ("id");"#
            ])
        let compoundIndexes = statements(in: output).filter { $0.hasPrefix("CREATE INDEX ") && $0.contains(", ") }
        #expect(compoundIndexes.contains(#"CREATE INDEX IF NOT EXISTS "Loan_returnedAt_dueAt_idx" ON "Loan" ("returnedAt", "dueAt");"#))
        #expect(compoundIndexes.count == 4)
    }

    @Test func storesEachToOneRelationshipAsAnIndexedNullableColumn() throws {
        let statements = statements(in: try runTool(["schema", libraryPath]))
        let loan = try #require(statements.first { $0.hasPrefix(#"CREATE TABLE IF NOT EXISTS "Loan""#) })
        #expect(
            loan.hasSuffix(
                """
                    "fine" TEXT,
                    "book" INTEGER,
                    "member" INTEGER,
                    "_version" INTEGER NOT NULL DEFAULT 1
                ) STRICT;
                """))
        let book = try #require(statements.first { $0.hasPrefix(#"CREATE TABLE IF NOT EXISTS "Book""#) })
        #expect(book.hasSuffix("\n    \"author\" INTEGER,\n    \"_version\" INTEGER NOT NULL DEFAULT 1\n) STRICT;"), "\(book)")
        // To-many sides are read through the foreign keys: no column, no join table.
        #expect(!book.contains("\"loans\""))
        #expect(!statements.contains { $0.contains("_join_") })
        for index in [
            #"CREATE INDEX IF NOT EXISTS "Book_author_idx" ON "Book" ("author");"#,
            #"CREATE INDEX IF NOT EXISTS "Loan_book_idx" ON "Loan" ("book");"#,
            #"CREATE INDEX IF NOT EXISTS "Loan_member_idx" ON "Loan" ("member");"#
        ] {
            #expect(statements.contains(index))
        }
    }

    @Test func writesProblemsToStandardErrorAndFails() throws {
        let models = try TemporaryModels(["Broken.json": ToolFixtures.brokenModel])
        defer { models.remove() }
        let path = models.path("Broken.json")
        let output = try runTool(["schema", path])
        // Nothing on standard output, so `objectgraph schema M.json > schema.sql` never writes half a schema.
        #expect(output.standardOutput.isEmpty)
        #expect(output.standardError.hasPrefix("Broken.json: 3 problems in the model:\n  \(path):8:36: entities[0].attributes[0].type: "))
        #expect(output.standardError.contains("\n  \(path):9:19: entities[0].attributes[1].name: "))
        #expect(output.standardError.hasSuffix("\n"))
        #expect(output.exitCode == .failure)
    }

    @Test func reportsAMissingFileOnStandardError() throws {
        let models = try TemporaryModels([:])
        defer { models.remove() }
        let output = try runTool(["schema", models.path("Missing.json")])
        #expect(output.standardOutput.isEmpty)
        #expect(output.standardError.contains("cannot read the model file"))
        #expect(output.exitCode == .failure)
    }
}
