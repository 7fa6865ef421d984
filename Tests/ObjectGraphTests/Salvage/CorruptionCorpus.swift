import CSQLite
import Foundation
import Testing

@testable import ObjectGraph

/// The corpus of damaged stores that `ObjectGraphTestWriter corpus` writes (see its
/// CorruptionCorpus.swift), made once per test run.
struct CorruptionCorpus: Sendable {
    struct Case: Codable, Sendable {
        let name: String
        let kind: String
        let file: String
        let original: String
        let intact: [String: Int]
    }

    struct Manifest: Codable, Sendable {
        let model: String
        let tables: [String]
        let original: [String: Int]
        let cases: [Case]
    }

    let directory: URL
    let manifest: Manifest

    static let shared: Result<CorruptionCorpus, any Error> = Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("objectgraph-corpus-\(UUID().uuidString)")
        let pid = try TestWriterProcess.spawn(
            [TestWriterProcess.executable.path, "corpus", directory.path],
            environment: ProcessInfo.processInfo.environment.map { "\($0)=\($1)" },
            output: "/dev/null", errors: "/dev/null")
        guard try TestWriterProcess.wait(for: pid) == 0 else { throw ObjectGraphError(.storeUnavailable, "the corpus writer failed") }
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: directory.appendingPathComponent("manifest.json")))
        return CorruptionCorpus(directory: directory, manifest: manifest)
    }

    static func load() throws -> CorruptionCorpus { try shared.get() }

    var model: ManagedObjectModel {
        get throws { try ManagedObjectModel(contentsOf: directory.appendingPathComponent(manifest.model)) }
    }

    func url(_ file: String) -> URL { directory.appendingPathComponent(file) }

    /// A copy of the case's files (store, `-wal`, `-shm`) in `folder`, so a test can open or
    /// change them without touching the corpus.
    func copy(_ item: Case, into folder: URL) throws -> URL {
        let target = folder.appendingPathComponent(item.file)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: url(item.file).path + suffix) {
            try FileManager.default.copyItem(atPath: url(item.file).path + suffix, toPath: target.path + suffix)
        }
        return target
    }
}

/// Every row of a store's table by key, as SQLite gives it, for comparing stores.
enum StoredRows {
    static func rows(of table: String, in path: String) throws -> [Int64: [String]] {
        let connection = try SQLiteConnection(path: path, readOnly: true, busyTimeout: 1)
        defer { connection.close() }
        let statement = try connection.prepare("SELECT \"_pk\", * FROM \(quoteIdentifier(table))")
        var rows: [Int64: [String]] = [:]
        while try statement.step() {
            rows[statement.int64(at: 0)] = (1..<sqlite3_column_count(statement.handle)).map { column in
                "\(statement.columnName(column))=\(statement.text(at: column) ?? "NULL")"
            }
        }
        return rows
    }
}
