/// A connection that reads (fetches, counts, rows by key, relationships, groups) with the
/// statements it has prepared. The writer reads through one over its own connection (batch
/// operations read inside their transaction); the store's `SQLiteReaderPool` hands out others,
/// so fetches run beside a save and beside each other.
final class SQLiteReader: @unchecked Sendable {
    // Why @unchecked Sendable is sound: a reader's connection and statements (not thread-safe)
    // are used by one thread at a time. A pool reader is handed to one caller at a time by
    // `SQLiteReaderPool`, under its lock, which also makes each use happen-after the previous
    // one; the writer's reader lives in the writer's state, used only on the store's queue.
    // The shared `schema` is safe to read from any thread (see `SQLiteStoreTables`).

    let connection: SQLiteConnection
    let schema: SQLiteStoreTables
    /// The lookup by primary key of each table, by entity index, prepared on first use: the
    /// path of faults fired from object IDs, kept free of SQL building and cache lookups.
    private var selectByKeyStatements: [SQLiteStatement?]
    /// Which statement observer of the pool this reader's connection has (see
    /// `SQLiteReaderPool.setStatementObserver`).
    var observerGeneration = 0
    /// Each to-many membership query prepared so far, by relationship, entity and whether it
    /// takes a key list: a cascade runs one per deleted object, kept free of SQL building and
    /// cache lookups by text.
    var membershipStatements: [MembershipQuery: SQLiteStatement] = [:]
    /// Each fetch's key-ordered form, or `nil` where its plan does not call for one, by its plain
    /// SQL (see SQLiteReader+KeyOrderedFetch).
    var keyOrderedForms: [String: String?] = [:]
    /// How many pages the connection's cache holds, read on first use.
    var cachedPageCachePages: Int64?

    struct MembershipQuery: Hashable {
        let relationship: Int
        let entity: Int
        let takesKeyList: Bool
    }

    init(connection: SQLiteConnection, schema: SQLiteStoreTables) {
        self.connection = connection
        self.schema = schema
        self.selectByKeyStatements = Array(repeating: nil, count: schema.tables.count)
    }

    var model: ManagedObjectModel { schema.model }
    var idSpaces: [ObjectIDSpace] { schema.idSpaces }
    var relationshipLayout: RelationshipLayout { schema.relationshipLayout }
    var tables: [StoreTable] { schema.tables }

    func table(for entity: EntityDescription) throws -> StoreTable {
        try schema.table(for: entity)
    }

    /// `SELECT … WHERE "_pk" = ?` on `table`.
    func selectByKey(_ table: StoreTable) throws -> SQLiteStatement {
        try StoreTable.prepared(&selectByKeyStatements[table.entity.index], table.selectByKeySQL, on: connection)
    }

    /// Drops the statements, so closing the connection finalizes everything at once.
    func releaseStatements() {
        selectByKeyStatements = Array(repeating: nil, count: selectByKeyStatements.count)
        membershipStatements = [:]
    }

    /// Drops the statements and closes the connection (a pool reader's; the writer closes its own).
    func close() {
        releaseStatements()
        connection.close()
    }
}
