import Foundation
import ObjectGraph
import PostgresNIO

/// Reading: a fetch is one SELECT of the entity's table, filtered by the predicate compiled in
/// PostgreSQL's dialect, ordered by the sort terms and then by `_pk` (the tie-breaker every store
/// shares), paged by `LIMIT`/`OFFSET`.
extension PostgreSQLReading {
    func fetch(_ request: StoreFetchRequest) throws -> [Snapshot] {
        guard !request.sort.contains(where: Self.sortsInSwift) else { return try fetchSortedInSwift(request) }
        let table = try table(for: request.entity)
        var sql = table.selectPrefix
        var bindings: [AttributeValue] = []
        appendFilter(of: request.predicate, includingSubentities: request.includesSubentities, table: table, to: &sql, bindings: &bindings)
        sql +=
            " ORDER BY "
            + (request.sort.map { $0.orderingTerm(in: dialect) } + [quoteIdentifier(StoreSchema.primaryKeyColumn)]).joined(separator: ", ")
        appendPaging(limit: request.limit, offset: request.offset, to: &sql, bindings: &bindings)
        // Decoded on the event loop as the rows arrive (see `forEachRow`): the tables are
        // shared and immutable, so the closure takes them, not `self`.
        let (schema, index, isAlreadyLoaded) = (schema, table.entity.index, request.isAlreadyLoaded)
        let snapshots = Locked<[Snapshot]>([])
        try read(sql, bindings, for: request.entity) { cells in
            let table = schema.tables[index]
            var snapshot: Snapshot
            if let isAlreadyLoaded, case let key = try cells[0].decode(Int64.self),
                case let entity = try PostgreSQLRows.rowEntity(cells, in: table), isAlreadyLoaded(key, entity.index)
            {
                snapshot = Snapshot(primaryKey: key, values: [], version: try cells[1].decode(Int64.self), entityIndex: entity.index)
            } else {
                snapshot = try PostgreSQLRows.snapshot(cells, in: table)
            }
            snapshots.withLock { $0.append(snapshot) }
        }
        return snapshots.withLock { $0 }
    }

    func count(_ request: StoreFetchRequest) throws -> Int {
        let table = try table(for: request.entity)
        var sql = "SELECT count(*) FROM \(table.quotedName)"
        var bindings: [AttributeValue] = []
        appendFilter(of: request.predicate, includingSubentities: request.includesSubentities, table: table, to: &sql, bindings: &bindings)
        if request.limit != nil || request.offset > 0 {
            // LIMIT applies to rows, not to the one row count(*) gives: count a page of rows.
            sql = "SELECT count(*) FROM (SELECT 1 FROM \(table.quotedName)"
            bindings = []
            appendFilter(
                of: request.predicate, includingSubentities: request.includesSubentities, table: table, to: &sql, bindings: &bindings)
            appendPaging(limit: request.limit, offset: request.offset, to: &sql, bindings: &bindings)
            sql += ") AS page"
        }
        return Int(try read(sql, bindings, for: request.entity).rows[0][0].decode(Int64.self))
    }

    /// The rows with these keys that exist, by key.
    func snapshots(of entity: EntityDescription, primaryKeys: [Int64]) throws -> [Int64: Snapshot] {
        let table = try table(for: entity)
        var found: [Int64: Snapshot] = [:]
        let own = table.ownFilter.map { " AND \($0)" } ?? ""
        for start in stride(from: 0, to: primaryKeys.count, by: Self.keysPerStatement) {
            let keys = primaryKeys[start..<min(start + Self.keysPerStatement, primaryKeys.count)]
            let sql = "\(table.selectPrefix) WHERE \(quoteIdentifier(StoreSchema.primaryKeyColumn)) IN (\(placeholders(keys.count)))\(own)"
            for row in try read(sql, keys.map { .integer($0) }, for: entity).rows {
                let snapshot = try PostgreSQLRows.snapshot(row, in: table)
                found[snapshot.primaryKey] = snapshot
            }
        }
        return found
    }

    /// Values fetches with aggregates: one `SELECT … GROUP BY … ORDER BY`.
    func groupedValues(_ request: StoreGroupRequest) throws -> [[AttributeValue]] {
        let table = try table(for: request.entity)
        let expressions = request.selectedExpressions(in: dialect)
        var sql = "SELECT \(expressions.joined(separator: ", ")) FROM \(table.quotedName)"
        var bindings: [AttributeValue] = []
        appendFilter(of: request.predicate, includingSubentities: request.includesSubentities, table: table, to: &sql, bindings: &bindings)
        if !request.groupBy.isEmpty {
            let keys = request.groupBy.map { BoundPredicate.sql(for: $0, in: dialect) }
            sql += " GROUP BY \(keys.joined(separator: ", ")) ORDER BY \(keys.map { "\($0) NULLS FIRST" }.joined(separator: ", "))"
        }
        return try read(sql, bindings, for: request.entity).rows.map { cells in
            return try request.columns.enumerated().map { index, column in try PostgreSQLValues.value(of: cells[index], as: column.type) }
        }
    }

    /// Keys per `IN` list: well below PostgreSQL's 65,535 parameters.
    static var keysPerStatement: Int { 1_000 }

    /// `$1, $2, …, $count`.
    func placeholders(_ count: Int, from first: Int = 1) -> String {
        (first..<first + count).map { dialect.placeholder($0) }.joined(separator: ", ")
    }

    /// Runs a read; a failure says what was being read.
    func read(_ sql: String, _ bindings: [AttributeValue], for entity: EntityDescription) throws -> PostgreSQLConnection.Result {
        try reporting(sql, bindings, for: entity) { try connection.execute(sql, $0) }
    }

    /// Runs a read handing each row to `onRow` as it arrives (`PostgreSQLConnection.forEachRow`);
    /// a failure says what was being read.
    func read(
        _ sql: String, _ bindings: [AttributeValue], for entity: EntityDescription,
        onRow: @escaping @Sendable (PostgreSQLRow) throws -> Void
    ) throws {
        try reporting(sql, bindings, for: entity) { try connection.forEachRow(sql, data: try PostgreSQLValues.data($0), onRow) }
    }

    /// The result of `body`, given `bindings` once checked; a failure says what was being read.
    private func reporting<T>(
        _ sql: String, _ bindings: [AttributeValue], for entity: EntityDescription, _ body: ([AttributeValue]) throws -> T
    ) throws -> T {
        try PostgreSQLTextWithNUL.check(bindings, fetching: entity)
        do {
            return try body(bindings)
        } catch let failure as PostgreSQLFailure where failure.sqlState == Self.invalidRegularExpression {
            throw ObjectGraphError(
                .predicateSyntax,
                "Cannot read \(entity.name) objects: PostgreSQL refuses a MATCHES pattern of the predicate (\(failure.message)); the PostgreSQL store runs PostgreSQL's regular expressions (ARE), whose syntax is not ICU's: inline options other than a leading (?i), lookbehind, possessive quantifiers and some escapes differ",
                entityName: entity.name)
        } catch let failure as PostgreSQLFailure {
            throw failure.error("Cannot read \(entity.name) objects", entityName: entity.name)
        }
    }

    /// The SQLSTATE of a regular expression PostgreSQL cannot compile.
    private static var invalidRegularExpression: String { "2201B" }

    /// Whether a sort term orders as Foundation's localized comparisons do, which no PostgreSQL
    /// collation reproduces: such fetches are sorted here, in Swift.
    private static func sortsInSwift(_ sort: BoundSort) -> Bool {
        sort.comparison != .binary && sort.comparison != .caseInsensitive
    }

    /// A fetch with a localized sort term: every matching row, ordered by `compareRows` (the
    /// order of the other stores) and then by key, paged here. Terms through relationships are
    /// refused with such a term, never answered in another order.
    private func fetchSortedInSwift(_ request: StoreFetchRequest) throws -> [Snapshot] {
        if let term = request.sort.first(where: { !$0.readsOwnRowOnly }) {
            throw ObjectGraphError(
                .invalidOperation,
                "The PostgreSQL store cannot sort by a key path through relationships together with the \(term.comparison) comparison yet",
                entityName: request.entity.name)
        }
        var unsorted = request
        (unsorted.sort, unsorted.limit, unsorted.offset, unsorted.isAlreadyLoaded) = ([], nil, 0, nil)
        let rows = try fetch(unsorted).sorted { a, b in
            switch compareRows(a.values, b.values, by: request.sort) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: a.primaryKey < b.primaryKey
            }
        }
        let page = rows.dropFirst(request.offset)
        return Array(request.limit.map { page.prefix($0) } ?? page)
    }

    /// `WHERE` with the rows' entities (in a table shared by a hierarchy) and the predicate, its
    /// parameters numbered after `bindings`.
    private func appendFilter(
        of predicate: BoundPredicate?, includingSubentities: Bool, table: StoreTable, to sql: inout String,
        bindings: inout [AttributeValue]
    ) {
        var conditions: [String] = []
        if let entities = includingSubentities ? table.kindsFilter : table.ownFilter { conditions.append(entities) }
        if let predicate {
            let fragment = predicate.sqlFragment(in: dialect, firstParameter: bindings.count + 1)
            conditions.append("(\(fragment.sql))")
            bindings += fragment.bindings
        }
        guard !conditions.isEmpty else { return }
        sql += " WHERE " + conditions.joined(separator: " AND ")
    }

    /// `LIMIT $n OFFSET $m` when paging is asked for; a NULL limit is none.
    private func appendPaging(limit: Int?, offset: Int, to sql: inout String, bindings: inout [AttributeValue]) {
        guard limit != nil || offset > 0 else { return }
        sql += " LIMIT \(dialect.placeholder(bindings.count + 1)) OFFSET \(dialect.placeholder(bindings.count + 2))"
        bindings.append(limit.map { .integer(Int64($0)) } ?? .null)
        bindings.append(.integer(Int64(offset)))
    }
}
