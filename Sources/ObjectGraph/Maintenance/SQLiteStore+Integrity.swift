import CSQLite
import Foundation

/// The integrity check of a SQLite store: SQLite's own check of the file, then ObjectGraph's of
/// what SQLite cannot know (the metadata, references between objects, the entities of rows).
extension SQLiteStoreState {
    /// Every problem found on the writer's connection; `quick` runs SQLite's `quick_check`
    /// (no index content check, much faster on a large file) instead of `integrity_check`.
    func integrityProblems(quick: Bool) throws -> [IntegrityReport.Problem] {
        var problems = try fileProblems(quick: quick)
        // A damaged file makes the checks below unreliable, and its reads may fail.
        guard problems.isEmpty else { return problems }
        let checks = StoredRowChecks(model: model, layout: relationshipLayout)
        problems += try checks.metadataProblems { try StoreMetadataRecord(readFrom: connection) }
        problems += try checks.rowProblems(count: scalar)
        return problems
    }

    /// SQLite's `integrity_check` (or `quick_check`) of the file: damage, not what the rows mean.
    func fileProblems(quick: Bool) throws -> [IntegrityReport.Problem] {
        var problems: [IntegrityReport.Problem] = []
        let check = try connection.prepare("PRAGMA \(quick ? "quick_check" : "integrity_check")")
        while try check.step() {
            guard let line = check.text(at: 0), line != "ok" else { continue }
            problems.append(
                .init(
                    kind: .damagedFile, entityName: nil,
                    message: "SQLite's \(quick ? "quick_check" : "integrity_check") of \(connection.path): \(line)"))
        }
        // The check read every page of the file into the connection's cache, where the pages
        // would stay for as long as the store is open: hand that memory back.
        sqlite3_db_release_memory(connection.handle)
        return problems
    }

    private func scalar(_ sql: String) throws -> Int64 {
        let statement = try connection.prepare(sql)
        return try statement.step() ? statement.int64(at: 0) : 0
    }
}
