import BenchSQLite
import Foundation

/// The query-language workloads of issue 4 on `Person` (Q1, Q2, Q4–Q7), on a store whose
/// `Person` table is exactly ObjectGraph's (`_pk`, `_version` and the seven attributes; an index
/// on `age` for Q1). Q3 runs on the object graph (`GraphBackend.authorsWithBookTitle`). As with
/// `Backend`, opening and closing are not timed; every other method is, commit included.
protocol QueryBackend: AnyObject {
    /// Q1: `age == parameters.equalAge` sorted by `name`, `parameters.queries` times; reads the
    /// name of every result, in order.
    func fetchEqualAgeSortedByName(_ parameters: WorkloadParameters) throws -> Checksum

    /// Q2: `name CONTAINS[cd] parameters.nameNeedle`, `parameters.searches` times; reads the name
    /// of every result (in no particular order).
    func searchNames(_ parameters: WorkloadParameters) throws -> Checksum

    /// Q4: per `age`, the count of rows and the average `score`, ordered by age;
    /// `parameters.aggregates` times. One array of groups per query.
    func averageScoreByAge(_ parameters: WorkloadParameters) throws -> [[AgeGroup]]

    /// Q5: sets `score` to `parameters.batchScore` on every row with `age <
    /// parameters.batchAgeLimit` in one transaction, bumping their versions; returns how many.
    func batchUpdateScores(_ parameters: WorkloadParameters) throws -> Int

    /// Q6: deletes every row with `age < parameters.batchAgeLimit` in one transaction; returns
    /// how many.
    func batchDelete(_ parameters: WorkloadParameters) throws -> Int

    /// Q7: inserts every row of `people` into the empty store in one transaction, keys 1…N in
    /// order; returns how many.
    func batchInsert(_ people: PersonPool) throws -> Int

    func close() throws
}

/// One row of Q4's result.
struct AgeGroup: Equatable, Sendable {
    var age: Int64
    var count: Int
    var meanScore: Double
}

/// Opens the `Person` store of `kind` for the query workloads. Not timed.
func openQueryBackend(_ kind: BackendKind, at location: StoreLocation) throws -> any QueryBackend {
    switch kind {
    case .raw: try RawSQLiteQueryBackend(location: location)
    case .objectGraph: try ObjectGraphQueryBackend(location: location)
    case .grdb, .objectGraphTyped, .objectGraphPrepared, .postgresRaw, .objectGraphPostgres: throw VerificationFailure(description: "\(kind.displayName) does not run the query workloads")
    }
}

/// Q5's check of the versions, with plain SQL: every row must be at version 1 (untouched) or 2
/// (updated once); returns how many are at 2.
func versionBumps(at url: URL) throws -> Int64 {
    let connection = try SQLiteConnection(url: url)
    defer { try? connection.close() }
    let rows = try connection.integer(#"SELECT count(*) FROM "Person" WHERE "_version" NOT IN (1, 2)"#)
    guard rows == 0 else { throw VerificationFailure(description: "\(rows) Person rows have a version other than 1 or 2") }
    return try connection.integer(#"SELECT count(*) FROM "Person" WHERE "_version" = 2"#)
}
