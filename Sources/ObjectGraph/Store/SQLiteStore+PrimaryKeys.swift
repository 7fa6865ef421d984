/// Primary keys: handed out from an in-memory counter per entity, so an insert needs no round trip
/// to learn its key, and persisted in `_objectgraph_primary_keys` so reserved keys are never
/// handed out twice, even after they were used and deleted or never used at all.
extension SQLiteStoreState {
    /// The counters of a store being opened: per entity, the larger of the recorded counter and
    /// the largest key in its table (a row written by other means still never gets reused).
    static func loadPrimaryKeyCounters(tables: [StoreTable], on connection: SQLiteConnection) throws -> [Int64] {
        var recorded: [String: Int64] = [:]
        let statement = try connection.prepare("SELECT \"entity\", \"max_key\" FROM \(quoteIdentifier(StoreSchema.primaryKeysTable))")
        while try statement.step() {
            if let entity = statement.text(at: 0) { recorded[entity] = statement.int64(at: 1) }
        }
        return try tables.map { table in
            let maximum = try connection.prepare("SELECT MAX(\(quoteIdentifier(StoreSchema.primaryKeyColumn))) FROM \(table.quotedName)")
            _ = try maximum.step()
            return max(recorded[table.entity.name] ?? 0, maximum.int64(at: 0))
        }
    }

    /// Reloads the counters if another connection (another store object or process on the same
    /// file) has committed since they were last read. Runs inside a write transaction, so nobody
    /// can take keys between this check and the save that uses them.
    func refreshPrimaryKeyCountersIfChangedElsewhere() throws {
        let version = try Self.dataVersion(on: connection)
        if version != countersDataVersion {
            primaryKeyCounters = try Self.loadPrimaryKeyCounters(tables: tables, on: connection)
            countersDataVersion = version
        }
    }

    /// `PRAGMA data_version`: changes exactly when another connection commits to the file.
    static func dataVersion(on connection: SQLiteConnection) throws -> Int64 {
        try connection.integerPragma("data_version")
    }

    /// The next key for the entity at `entityIndex`, counted as handed out.
    func nextPrimaryKey(for entityIndex: Int) throws -> Int64 {
        let (next, overflow) = primaryKeyCounters[entityIndex].addingReportingOverflow(1)
        guard !overflow else { throw exhausted(entityIndex) }
        primaryKeyCounters[entityIndex] = next
        return next
    }

    /// Reserves `count` keys for `entity` in a transaction of its own.
    func reservePrimaryKeys(for entity: EntityDescription, count: Int) throws -> [Int64] {
        let table = try table(for: entity)
        guard count > 0 else { return [] }
        try checkWritable()
        var before = primaryKeyCounters
        do {
            return try connection.transaction {
                try refreshPrimaryKeyCountersIfChangedElsewhere()
                before = primaryKeyCounters
                let index = model.rootIndexes[entity.index]
                let first = primaryKeyCounters[index] + 1
                let (last, overflow) = primaryKeyCounters[index].addingReportingOverflow(Int64(count))
                guard !overflow else { throw exhausted(table.entity.index) }
                primaryKeyCounters[index] = last
                try persistPrimaryKeyCounters(changedFrom: before)
                return Array(first...last)
            }
        } catch {
            primaryKeyCounters = before
            throw error
        }
    }

    /// Writes the counters that differ from `before`, inside the caller's transaction.
    func persistPrimaryKeyCounters(changedFrom before: [Int64]) throws {
        let statement = try connection.cachedStatement(
            """
            INSERT INTO \(quoteIdentifier(StoreSchema.primaryKeysTable)) ("entity", "max_key") VALUES (?, ?) \
            ON CONFLICT ("entity") DO UPDATE SET "max_key" = excluded."max_key"
            """)
        for (index, counter) in primaryKeyCounters.enumerated() where counter != before[index] {
            statement.reset()
            try statement.bind(.string(tables[index].entity.name), at: 1)
            try statement.bind(.integer(counter), at: 2)
            try statement.execute()
        }
    }

    private func exhausted(_ entityIndex: Int) -> ObjectGraphError {
        let name = tables[entityIndex].entity.name
        return ObjectGraphError(
            .invalidOperation, "\(name) has used every primary key up to \(Int64.max); no more can be handed out", entityName: name)
    }

    /// Throws `.readOnly` for a store opened read-only.
    func checkWritable() throws {
        guard !isReadOnly else {
            throw ObjectGraphError(.readOnly, "The store at \(connection.path) was opened read-only; it cannot be changed")
        }
    }
}
