import CSQLite
import Foundation

/// Persistent history in a SQLite store: a row per transaction, its changes in one compact blob
/// (`HistoryRecordCoding`), and the tombstone values of deletions in a table of their own; written
/// in the saving transaction itself (`SQLiteStoreState.save`), so history and data can never
/// disagree. Transaction numbers come from AUTOINCREMENT, so they are never reused, even after
/// every transaction was deleted; a change's ID is its transaction's number × 10⁹ + its position.
extension SQLiteStoreState {
    /// Creates the history tables if they are not there yet (turning history on for a store that
    /// had it off is just this).
    static func createHistoryTables(on connection: SQLiteConnection) throws {
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS \(quoteIdentifier(StoreSchema.historyTable)) (
                "token" INTEGER PRIMARY KEY AUTOINCREMENT, "timestamp" REAL NOT NULL, "context_name" TEXT, "author" TEXT,
                "changes" BLOB NOT NULL) STRICT
            """)
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS \(quoteIdentifier(StoreSchema.historyTombstonesTable)) (
                "change" INTEGER NOT NULL, "attribute" TEXT NOT NULL, "value" ANY) STRICT
            """)
        try connection.execute(
            "CREATE INDEX IF NOT EXISTS \"_objectgraph_history_tombstones_change\" ON \(quoteIdentifier(StoreSchema.historyTombstonesTable)) (\"change\")"
        )
    }

    /// The preserved values of the row `key` of `entity`, read inside the saving transaction
    /// before the row is deleted.
    func tombstone(
        of entity: EntityDescription, key: Int64, _ attributes: [AttributeDescription]
    ) throws -> [(name: String, value: AttributeValue)] {
        let columns = attributes.map { quoteIdentifier($0.columnName) }.joined(separator: ", ")
        let statement = try connection.cachedStatement(
            "SELECT \(columns) FROM \(quoteIdentifier(model.root(of: entity).name)) WHERE \(quoteIdentifier(StoreSchema.primaryKeyColumn)) = ?"
        )
        statement.reset()
        try statement.bind(.integer(key), at: 1)
        guard try statement.step() else { return [] }
        return try attributes.enumerated().map { column, attribute in
            (attribute.name, attribute.isPrimaryKey ? .integer(key) : try statement.value(at: Int32(column), as: attribute.type))
        }
    }

    /// Writes one transaction's history inside the open write transaction.
    func writeHistory(_ pending: PendingHistory) throws {
        try pending.checkSize()
        let transaction = try connection.cachedStatement(
            "INSERT INTO \(quoteIdentifier(StoreSchema.historyTable)) (\"timestamp\", \"context_name\", \"author\", \"changes\") VALUES (?, ?, ?, ?)"
        )
        transaction.reset()
        try transaction.bind([
            .double(Date().timeIntervalSinceReferenceDate), pending.contextName.map(AttributeValue.string) ?? .null,
            pending.author.map(AttributeValue.string) ?? .null, .binary(Data(HistoryRecordCoding.encode(pending.records, model: model)))
        ])
        try transaction.execute()
        let token = sqlite3_last_insert_rowid(connection.handle)
        // Numbers are never reused (AUTOINCREMENT), so one from a rolled-back save names nothing.
        if keepsOwnHistoryTransactions { ownHistoryTransactions.insert(token) }
        let tombstone = try connection.cachedStatement(
            "INSERT INTO \(quoteIdentifier(StoreSchema.historyTombstonesTable)) (\"change\", \"attribute\", \"value\") VALUES (?, ?, ?)")
        for (position, record) in pending.records.enumerated() {
            for (name, value) in record.tombstone where !value.isNull {
                tombstone.reset()
                try tombstone.bind([.integer(token * StoreSchema.changesPerTransaction + Int64(position)), .string(name), value])
                try tombstone.execute()
            }
        }
    }

    /// The stored transactions `request` may concern (its token or date bound applied in SQL;
    /// the rest of its filters are the caller's), read in one snapshot.
    func storedHistory(after request: PersistentHistoryChangeRequest) throws -> [StoredHistoryTransaction] {
        try requireHistoryTables()
        return try connection.readTransaction {
            let (condition, bound) = historyCondition(request, comparison: ">")
            let transactions = try connection.prepare(
                "SELECT \"token\", \"timestamp\", \"context_name\", \"author\", \"changes\" FROM \(quoteIdentifier(StoreSchema.historyTable)) WHERE \(condition) ORDER BY \"token\""
            )
            try transactions.bind([bound])
            var reader = StoredHistoryReader(model: model, location: connection.path)
            while try transactions.step() {
                // A value that is not a blob reads as an empty one, which the reader calls damaged.
                let blob = if case .binary(let data) = try transactions.value(at: 4, as: .binary) { [UInt8](data) } else { [UInt8]() }
                try reader.add(
                    number: transactions.int64(at: 0),
                    timestamp: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(transactions.handle, 1)),
                    contextName: transactions.text(at: 2), author: transactions.text(at: 3), blob: blob)
            }
            guard let firstDeletion = reader.firstDeletion else { return reader.transactions }
            let tombstones = try connection.prepare(
                "SELECT \"change\", \"attribute\", \"value\" FROM \(quoteIdentifier(StoreSchema.historyTombstonesTable)) WHERE \"change\" >= ?"
            )
            try tombstones.bind([.integer(firstDeletion)])
            while try tombstones.step() {
                guard let name = tombstones.text(at: 1) else { continue }
                reader.addTombstone(change: tombstones.int64(at: 0), attribute: name) { try? tombstones.value(at: 2, as: $0) }
            }
            return reader.transactions
        }
    }

    /// Deletes the transactions before `request`'s bound; returns how many.
    func deleteHistory(_ request: PersistentHistoryChangeRequest) throws -> Int {
        try requireHistoryTables()
        return try connection.transaction {
            let (condition, bound) = historyCondition(request, comparison: "<")
            let tombstones = try connection.prepare(
                """
                DELETE FROM \(quoteIdentifier(StoreSchema.historyTombstonesTable))
                WHERE "change" / \(StoreSchema.changesPerTransaction) IN (SELECT "token" FROM \(quoteIdentifier(StoreSchema.historyTable)) WHERE \(condition))
                """)
            try tombstones.bind([bound])
            try tombstones.execute()
            let transactions = try connection.prepare("DELETE FROM \(quoteIdentifier(StoreSchema.historyTable)) WHERE \(condition)")
            try transactions.bind([bound])
            try transactions.execute()
            return Int(sqlite3_changes(connection.handle))
        }
    }

    /// The number of the newest transaction ever recorded (deleted or not), or nil.
    func lastHistoryTransaction() throws -> Int64? {
        try requireHistoryTables()
        let statement = try connection.prepare("SELECT \"seq\" FROM sqlite_sequence WHERE \"name\" = ?")
        try statement.bind([.string(StoreSchema.historyTable)])
        return try statement.step() ? statement.int64(at: 0) : nil
    }

    /// `"token" > ?` or `"timestamp" > ?` (with `comparison`), and the bound's value.
    private func historyCondition(_ request: PersistentHistoryChangeRequest, comparison: String) -> (String, AttributeValue) {
        switch request.bound {
        case .token(let token?): ("\"token\" \(comparison) ?", .integer(token.transactionNumber))
        // Every transaction.
        case .token(nil): ("\"token\" IS NOT ?", .null)
        case .date(let date): ("\"timestamp\" \(comparison) ?", .double(date.timeIntervalSinceReferenceDate))
        }
    }

    private func requireHistoryTables() throws {
        let probe = try connection.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?")
        try probe.bind([.string(StoreSchema.historyTable)])
        guard try probe.step() else {
            throw ObjectGraphError(
                .invalidOperation,
                "The store at \(connection.path) keeps no persistent history: set recordsPersistentHistory on its description to record it")
        }
    }
}
