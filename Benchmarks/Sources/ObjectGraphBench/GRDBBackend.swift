import Foundation
import GRDB

/// `Person` as an idiomatic GRDB record: a Codable struct, fetched and persisted by GRDB.
///
/// Dates are stored as seconds since the reference date, as ObjectGraph stores them, so both
/// write the same `REAL` (GRDB's default would be ISO text, which is slower and not comparable).
struct GRDBPerson: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
    var email: String
    var age: Int64
    var score: Double
    var createdAt: Date
    var bio: String?

    static let databaseTableName = "Person"

    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .timeIntervalSinceReferenceDate
    }

    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .timeIntervalSinceReferenceDate
    }

    init(_ row: PersonRow) {
        id = row.id
        name = row.name
        email = row.email
        age = row.age
        score = row.score
        createdAt = Date(timeIntervalSinceReferenceDate: row.createdAt)
        bio = row.bio
    }

    func add(to checksum: inout Checksum) {
        checksum.add(id, name, email, age, score, createdAt.timeIntervalSinceReferenceDate, bio)
    }

    func append(to checksum: inout Checksum) {
        checksum.append(id, name, email, age, score, createdAt.timeIntervalSinceReferenceDate, bio)
    }
}

/// GRDB 7 records on a `DatabaseQueue`, doing the same work as the raw baseline through the
/// record and query-interface API a GRDB user would write.
final class GRDBBackend: Backend {
    private let queue: DatabaseQueue
    private var recordsToDelete: [GRDBPerson] = []
    private var lookupIDs: [Int64] = []

    init(location: StoreLocation) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        queue = try DatabaseQueue(path: location.url.path, configuration: configuration)
        try queue.write { db in
            try db.create(table: "Person", ifNotExists: true) { table in
                table.primaryKey("id", .integer)
                table.column("name", .text).notNull()
                table.column("email", .text).notNull()
                table.column("age", .integer).notNull()
                table.column("score", .double).notNull()
                table.column("createdAt", .double).notNull()
                table.column("bio", .text)
            }
            if location.indexed {
                try db.create(index: "Person_age", on: "Person", columns: ["age"], ifNotExists: true)
            }
        }
    }

    func close() throws { try queue.close() }

    func insert(_ rows: [PersonRow]) throws {
        try queue.write { db in
            for row in rows { try GRDBPerson(row).insert(db) }
        }
    }

    func fetchAll() throws -> Checksum {
        let people = try queue.read { db in try GRDBPerson.fetchAll(db) }
        var checksum = Checksum()
        for person in people { person.add(to: &checksum) }
        return checksum
    }

    func queryAgeRange(_ parameters: WorkloadParameters) throws -> Checksum {
        try queue.read { db in
            var total = Checksum()
            for _ in 0..<parameters.queries {
                let people = try GRDBPerson
                    .filter(parameters.ageRange.contains(Column("age")))
                    .order(Column("name"))
                    .limit(parameters.queryLimit)
                    .fetchAll(db)
                var checksum = Checksum()
                for person in people { person.append(to: &checksum) }
                total.combine(checksum)
            }
            return total
        }
    }

    func updateAllScores() throws -> Checksum {
        try queue.write { db in
            var people = try GRDBPerson.fetchAll(db)
            var checksum = Checksum()
            for index in people.indices {
                people[index].add(to: &checksum)
                people[index].score = WorkloadParameters.newScore(people[index].score)
                try people[index].update(db)
            }
            return checksum
        }
    }

    func prepareDelete(ids: [Int64]) throws {
        let wanted = Set(ids)
        recordsToDelete = try queue.read { db in try GRDBPerson.fetchAll(db) }.filter { wanted.contains($0.id) }
    }

    func deletePrepared() throws -> Int {
        try queue.write { db in
            var deleted = 0
            for person in recordsToDelete where try person.delete(db) { deleted += 1 }
            return deleted
        }
    }

    /// GRDB's streaming API: a `Row` cursor over one statement (fetching records or rows into an
    /// array would hold all N).
    func iterateNames(batchSize: Int) throws -> Checksum {
        try queue.read { db in
            var checksum = Checksum()
            let rows = try Row.fetchCursor(db, sql: "SELECT name FROM Person")
            while let row = try rows.next() {
                let name: String = try row.decode(atIndex: 0)
                checksum.addName(name)
            }
            return checksum
        }
    }

    func prepareLookups(ids: [Int64]) throws { lookupIDs = ids }

    func lookUpPrepared() throws -> Checksum {
        try queue.read { db in
            var checksum = Checksum()
            for id in lookupIDs {
                guard let person = try GRDBPerson.fetchOne(db, key: id) else {
                    throw DatabaseError(message: "no Person with id \(id)")
                }
                person.append(to: &checksum)
            }
            return checksum
        }
    }
}
