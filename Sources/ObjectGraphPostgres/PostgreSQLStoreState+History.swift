import Foundation
import ObjectGraph
import PostgresNIO

/// Persistent history in a PostgreSQL store: the SQLite store's history (a row per transaction,
/// its changes in one `HistoryRecordCoding` blob, tombstone values in a table of their own)
/// written in the saving transaction itself, so history and data never disagree.
///
/// Numbers in commit order. Other processes read the history after the last number they saw,
/// so a number must never become visible after a larger one: a sequence (`nextval`) cannot
/// promise that, since its numbers are handed out at once and the transactions holding them
/// commit in any order. So the number comes from the one row of `_objectgraph_history_sequence`,
/// updated as the save's last statement: the row stays locked until the transaction ends, so the
/// next saving transaction waits there for this one to commit (or roll back, which gives the
/// number back) and takes the following number. Saves that record history therefore commit
/// one at a time from their history write to their commit (one statement and the commit);
/// they did anyway, as the NOTIFY each sends takes PostgreSQL's notification queue lock at
/// commit. The counter row outlives deleted history, so numbers are never reused.
extension PostgreSQLStoreState {
    static let historySequenceTable = "_objectgraph_history_sequence"

    /// The channel a store's saves NOTIFY and its listeners LISTEN on: one per store, named by
    /// its identifier.
    var notificationChannel: String { "objectgraph.\(metadata.storeIdentifier)" }

    /// Creates the history tables if they are not there yet (turning history on for a store
    /// that had it off is just this), inside the opening transaction.
    static func createHistoryTables(on connection: PostgreSQLConnection) throws {
        let tombstones = quoteIdentifier(StoreSchema.historyTombstonesTable)
        let sequence = quoteIdentifier(historySequenceTable)
        let statements = [
            """
            CREATE TABLE IF NOT EXISTS \(quoteIdentifier(StoreSchema.historyTable)) (
                "token" bigint PRIMARY KEY, "timestamp" double precision NOT NULL, "context_name" text, "author" text,
                "changes" bytea NOT NULL)
            """,
            // PostgreSQL has no column holding a value of any type: one column per kind of value.
            """
            CREATE TABLE IF NOT EXISTS \(tombstones) (
                "change" bigint NOT NULL, "attribute" text NOT NULL, \(tombstoneColumns.map { "\(quoteIdentifier($0.name)) \($0.type)" }.joined(separator: ", ")))
            """,
            "CREATE INDEX IF NOT EXISTS \"_objectgraph_history_tombstones_change\" ON \(tombstones) (\"change\")",
            "CREATE TABLE IF NOT EXISTS \(sequence) (\"last\" bigint NOT NULL)",
            "INSERT INTO \(sequence) (\"last\") SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM \(sequence))"
        ]
        let blocks = statements.enumerated().map { number, statement in "EXECUTE $history\(number)$\(statement)$history\(number)$;" }
        try connection.execute("DO $objectgraph$ BEGIN\n\(blocks.joined(separator: "\n"))\nEND $objectgraph$")
    }

    /// The tombstone table's value columns, by kind of value.
    private static let tombstoneColumns: [(name: String, type: String)] = [
        ("integer", "bigint"), ("real", "double precision"), ("number", "numeric"), ("text", "text"), ("flag", "boolean"),
        ("bytes", "bytea"), ("uuid", "uuid")
    ]

    /// The position in `tombstoneColumns` of the column holding `value`.
    private static func tombstoneColumn(of value: AttributeValue) -> Int {
        switch value {
        case .integer, .object, .null: 0
        case .double, .float, .date: 1
        case .decimal: 2
        case .string, .uri, .json: 3
        case .boolean: 4
        case .binary: 5
        case .uuid: 6
        }
    }

    /// The preserved values of the row `key` of `entity`, read inside the saving transaction
    /// before the row is deleted.
    func tombstone(
        of entity: EntityDescription, key: Int64, _ attributes: [AttributeDescription]
    ) throws -> [(name: String, value: AttributeValue)] {
        guard let row = try snapshots(of: entity, primaryKeys: [key])[key] else { return [] }
        return attributes.map { ($0.name, row.values[$0.index]) }
    }

    /// Writes one transaction's history as the last statement of the open transaction, and
    /// the notification of it (delivered at commit); returns its number.
    func writeHistory(_ pending: PendingHistory) throws -> Int64 {
        try pending.checkSize()
        // Seconds since 2001 by the server's clock: one clock for every process writing history.
        let now = "(EXTRACT(EPOCH FROM clock_timestamp()) - \(Int(Date.timeIntervalBetween1970AndReferenceDate)))::double precision"
        let result = try connection.execute(
            """
            WITH "next" AS (UPDATE \(quoteIdentifier(Self.historySequenceTable)) SET "last" = "last" + 1 RETURNING "last")
            INSERT INTO \(quoteIdentifier(StoreSchema.historyTable)) ("token", "timestamp", "context_name", "author", "changes")
            SELECT "last", \(now), $1, $2, $3 FROM "next"
            RETURNING "token", pg_notify($4, "token"::text)
            """,
            [
                pending.contextName.map(AttributeValue.string) ?? .null, pending.author.map(AttributeValue.string) ?? .null,
                .binary(Data(HistoryRecordCoding.encode(pending.records, model: model))), .string(notificationChannel)
            ])
        let number = try result.rows[0][0].decode(Int64.self)
        var rows: [[AttributeValue]] = []
        for (position, record) in pending.records.enumerated() {
            for (name, value) in record.tombstone where !value.isNull {
                var row = [AttributeValue](repeating: .null, count: 2 + Self.tombstoneColumns.count)
                row[0] = .integer(number * StoreSchema.changesPerTransaction + Int64(position))
                row[1] = .string(name)
                row[2 + Self.tombstoneColumn(of: value)] = value
                rows.append(row)
            }
        }
        let columns = (["change", "attribute"] + Self.tombstoneColumns.map(\.name)).map(quoteIdentifier)
        for start in stride(from: 0, to: rows.count, by: Self.rowsPerStatement) {
            let chunk = rows[start..<min(start + Self.rowsPerStatement, rows.count)]
            let tuples = chunk.indices.map { "(\(placeholders(columns.count, from: ($0 - start) * columns.count + 1)))" }
            try connection.execute(
                "INSERT INTO \(quoteIdentifier(StoreSchema.historyTombstonesTable)) (\(columns.joined(separator: ", "))) VALUES \(tuples.joined(separator: ", "))",
                chunk.flatMap { $0 })
        }
        return number
    }

    /// The stored transactions `request` may concern (its token or date bound applied in SQL;
    /// the rest of its filters are the caller's).
    func storedHistory(after request: PersistentHistoryChangeRequest) throws -> [StoredHistoryTransaction] {
        try requireHistoryTables()
        let (condition, bindings) = historyCondition(request, comparison: ">")
        let transactions = try connection.execute(
            "SELECT \"token\", \"timestamp\", \"context_name\", \"author\", \"changes\" FROM \(quoteIdentifier(StoreSchema.historyTable)) WHERE \(condition) ORDER BY \"token\"",
            bindings)
        var reader = StoredHistoryReader(model: model, location: connection.location.description)
        for cells in transactions.rows {
            try reader.add(
                number: try cells[0].decode(Int64.self), timestamp: Date(timeIntervalSinceReferenceDate: try cells[1].decode(Double.self)),
                contextName: try cells[2].decode(String?.self), author: try cells[3].decode(String?.self),
                blob: [UInt8](try cells[4].decode(Data.self)))
        }
        // Read after the transactions, not in one snapshot with them: a transaction's tombstones
        // commit with it, so every one read above has its tombstones, unless a deleteHistory
        // removed it since (then it is gone for every later reader too).
        guard let firstDeletion = reader.firstDeletion else { return reader.transactions }
        let tombstones = try connection.execute(
            "SELECT \"change\", \"attribute\", \(Self.tombstoneColumns.map { quoteIdentifier($0.name) }.joined(separator: ", ")) FROM \(quoteIdentifier(StoreSchema.historyTombstonesTable)) WHERE \"change\" >= $1",
            [.integer(firstDeletion)])
        for cells in tombstones.rows {
            guard let cell = (2..<cells.count).lazy.map({ cells[$0] }).first(where: { $0.bytes != nil }) else { continue }
            reader.addTombstone(change: try cells[0].decode(Int64.self), attribute: try cells[1].decode(String.self)) {
                try? PostgreSQLValues.value(of: cell, as: $0)
            }
        }
        return reader.transactions
    }

    /// Deletes the transactions before `request`'s bound and their tombstones; returns how many.
    func deleteHistory(_ request: PersistentHistoryChangeRequest) throws -> Int {
        try requireHistoryTables()
        let (condition, bindings) = historyCondition(request, comparison: "<")
        let result = try connection.execute(
            """
            WITH "gone" AS (DELETE FROM \(quoteIdentifier(StoreSchema.historyTable)) WHERE \(condition) RETURNING "token"),
            "tombstones" AS (
                DELETE FROM \(quoteIdentifier(StoreSchema.historyTombstonesTable))
                WHERE "change" / \(StoreSchema.changesPerTransaction) IN (SELECT "token" FROM "gone"))
            SELECT count(*) FROM "gone"
            """, bindings)
        return Int(try result.rows[0][0].decode(Int64.self))
    }

    /// The number of the newest transaction ever recorded (deleted or not), or nil.
    func lastHistoryTransaction() throws -> Int64? {
        try requireHistoryTables()
        let result = try connection.execute("SELECT \"last\" FROM \(quoteIdentifier(Self.historySequenceTable))")
        let last = try result.rows.first?[0].decode(Int64.self) ?? 0
        return last > 0 ? last : nil
    }

    /// `"token" > $1` or `"timestamp" > $1` (with `comparison`) and what it binds.
    private func historyCondition(_ request: PersistentHistoryChangeRequest, comparison: String) -> (String, [AttributeValue]) {
        switch request.bound {
        case .token(let token?): ("\"token\" \(comparison) $1", [.integer(token.transactionNumber)])
        // Every transaction.
        case .token(nil): ("TRUE", [])
        case .date(let date): ("\"timestamp\" \(comparison) $1", [.double(date.timeIntervalSinceReferenceDate)])
        }
    }

    /// Throws unless the history tables exist (made by a store that records history; never
    /// dropped, so once found they are not looked for again).
    private func requireHistoryTables() throws {
        guard !hasHistoryTables else { return }
        let found = try connection.execute(
            "SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1",
            [.string(StoreSchema.historyTable)])
        guard !found.rows.isEmpty else {
            throw ObjectGraphError(
                .invalidOperation,
                "The PostgreSQL store at \(connection.location) keeps no persistent history: set recordsPersistentHistory on its description to record it"
            )
        }
        hasHistoryTables = true
    }
}

/// The numbers of the history transactions a PostgreSQL store committed and its remote change
/// observer has not passed yet: its own saves, which are not remote changes. Kept only once the
/// store is watched for remote commits (nothing would ever take them otherwise). Shared by the
/// store's queue (which adds them after each commit and takes them when the observer reads the
/// history) and the listener (which, on an event loop, skips notifications of them).
final class PostgreSQLOwnCommits: Sendable {
    private let numbers = Locked<Set<Int64>?>(nil)

    /// Starts keeping the numbers inserted from now on.
    func startKeeping() {
        numbers.withLock { $0 = $0 ?? [] }
    }

    func insert(_ number: Int64) {
        _ = numbers.withLock { $0?.insert(number) }
    }

    func contains(_ number: Int64) -> Bool {
        numbers.withLock { $0?.contains(number) ?? false }
    }

    /// Forgets and returns the numbers up to `number`.
    func take(through number: Int64) -> Set<Int64> {
        numbers.withLock { numbers in
            let taken = numbers.map { $0.filter { $0 <= number } } ?? Set<Int64>()
            numbers?.subtract(taken)
            return taken
        }
    }
}
