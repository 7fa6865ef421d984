/// Reading: fetches compile to one parameterised SELECT (cached by its SQL text, so a predicate
/// of the same shape with other values reuses the prepared statement), ordered by the requested
/// sort terms and then by `_pk`, the tie-breaker both stores share. Some read their rows in key
/// order (SQLiteReader+KeyOrderedFetch.swift).
extension SQLiteReader {
    func fetch(_ request: StoreFetchRequest) throws -> [Snapshot] {
        let table = try table(for: request.entity)
        var filter = ""
        var bindings: [AttributeValue] = []
        appendFilter(of: request, table: table, to: &filter, bindings: &bindings)
        var tail = " ORDER BY "
        for term in request.sort { tail += term.sqlOrderingTerm + ", " }
        tail += quoteIdentifier(StoreSchema.primaryKeyColumn)
        appendPaging(of: request, to: &tail, bindings: &bindings)

        let statement = try connection.cachedStatement(try fetchSQL(table: table, filter: filter, tail: tail))
        statement.reset()
        defer { statement.reset() }
        try statement.bind(bindings)
        var snapshots: [Snapshot] = []
        if let limit = request.limit { snapshots.reserveCapacity(min(limit, 1024)) }
        while try statement.step() {
            if let isAlreadyLoaded = request.isAlreadyLoaded, case let key = statement.int64(at: 0),
                case let entityIndex = try table.rowEntity(in: statement).index, isAlreadyLoaded(key, entityIndex)
            {
                snapshots.append(Snapshot(primaryKey: key, values: [], version: statement.int64(at: 1), entityIndex: entityIndex))
            } else {
                snapshots.append(try table.snapshot(from: statement))
            }
        }
        return snapshots
    }

    func count(_ request: StoreFetchRequest) throws -> Int {
        let table = try table(for: request.entity)
        var sql: String
        var bindings: [AttributeValue] = []
        if request.limit == nil && request.offset == 0 {
            sql = "SELECT count(*) FROM \(table.quotedName)"
            appendFilter(of: request, table: table, to: &sql, bindings: &bindings)
        } else {
            // LIMIT applies to rows, not to the single row count(*) returns: count a page of rows.
            sql = "SELECT count(*) FROM (SELECT 1 FROM \(table.quotedName)"
            appendFilter(of: request, table: table, to: &sql, bindings: &bindings)
            appendPaging(of: request, to: &sql, bindings: &bindings)
            sql += ")"
        }
        let statement = try connection.cachedStatement(sql)
        statement.reset()
        defer { statement.reset() }
        try statement.bind(bindings)
        _ = try statement.step()
        return Int(statement.int64(at: 0))
    }

    /// The rows with these keys: one cached `WHERE "_pk" = ?` statement for a single key (the
    /// path of lookups by object ID, kept lean); for many, one scan of the range they span when
    /// they fill most of it (`denseKeys`), else one `IN (json_each(?))` statement.
    func snapshots(of entity: EntityDescription, primaryKeys: [Int64]) throws -> [Int64: Snapshot] {
        let table = try table(for: entity)
        let statement: SQLiteStatement
        var dense: (range: ClosedRange<Int64>, wanted: [Bool])?
        switch primaryKeys.count {
        case 0:
            return [:]
        case 1:
            statement = try selectByKey(table)
            statement.reset()
            try statement.bind(.integer(primaryKeys[0]), at: 1)
        default:
            dense = Self.denseKeys(primaryKeys)
            if let range = dense?.range {
                statement = try connection.cachedStatement(table.selectByKeyRangeSQL)
                statement.reset()
                try statement.bind(.integer(range.lowerBound), at: 1)
                try statement.bind(.integer(range.upperBound), at: 2)
            } else {
                statement = try connection.cachedStatement(table.selectByKeysSQL)
                statement.reset()
                try statement.bind(.string("[" + primaryKeys.map(String.init).joined(separator: ",") + "]"), at: 1)
            }
        }
        defer { statement.reset() }
        // Sized at creation: `reserveCapacity` on a dictionary is not specialized, and cost a
        // lookup by key (one row) more than a thousand instructions.
        var found = [Int64: Snapshot](minimumCapacity: primaryKeys.count)
        let (low, wanted) = (dense?.range.lowerBound ?? 0, dense?.wanted ?? [])
        while try statement.step() {
            // A row of the scanned range that was not asked for is stepped over, not read.
            if dense != nil && !wanted[Int(statement.int64(at: 0) - low)] { continue }
            let snapshot = try table.snapshot(from: statement)
            found[snapshot.primaryKey] = snapshot
        }
        return found
    }

    /// `keys` as flags from the smallest, when they are many and at least half of the keys in
    /// the range they span: then one scan of the range in key order beats looking each key up
    /// (a descent of the table's B-tree each, at random).
    static func denseKeys(_ keys: [Int64]) -> (range: ClosedRange<Int64>, wanted: [Bool])? {
        guard keys.count >= scanMinimumSources, let low = keys.min(), let high = keys.max(), high - low < 2 * Int64(keys.count)
        else { return nil }
        return (low...high, keyFlags(keys, in: low...high))
    }

    /// A flag for each key of `range`, from its lower bound: set for the keys among `keys`.
    static func keyFlags(_ keys: [Int64], in range: ClosedRange<Int64>) -> [Bool] {
        var flags = [Bool](repeating: false, count: Int(range.upperBound - range.lowerBound) + 1)
        for key in keys where range.contains(key) { flags[Int(key - range.lowerBound)] = true }
        return flags
    }

    /// `WHERE` with the rows' entities (in a table shared by a hierarchy) and the predicate.
    private func appendFilter(
        of request: StoreFetchRequest, table: StoreTable, to sql: inout String, bindings: inout [AttributeValue]
    ) {
        var conditions: [String] = []
        if let entities = request.includesSubentities ? table.kindsFilter : table.ownFilter { conditions.append(entities) }
        if let predicate = request.predicate {
            let fragment = predicate.sqlFragment()
            conditions.append(conditions.isEmpty ? fragment.sql : "(\(fragment.sql))")
            bindings += fragment.bindings
        }
        guard !conditions.isEmpty else { return }
        sql += " WHERE " + conditions.joined(separator: " AND ")
    }

    /// `LIMIT ? OFFSET ?` when paging is asked for; a negative limit means none in SQLite.
    private func appendPaging(of request: StoreFetchRequest, to sql: inout String, bindings: inout [AttributeValue]) {
        guard request.limit != nil || request.offset > 0 else { return }
        sql += " LIMIT ? OFFSET ?"
        bindings.append(.integer(Int64(request.limit ?? -1)))
        bindings.append(.integer(Int64(request.offset)))
    }
}
