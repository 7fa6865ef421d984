/// Everything mutable about an open SQLite store's writer: the connection, its statements, the
/// primary-key counters. Owned by one `SQLiteStore` and touched only on that store's serial queue.
final class SQLiteStoreState {
    /// The prepared UPDATE for one (entity, changed stored attributes) combination.
    struct UpdateShape: Hashable {
        let entity: Int
        let changedAttributes: [Int]
        /// Whether the statement also matches the row's version (`AND "_version" = ?`).
        let checksVersion: Bool
    }

    /// An UPDATE statement and the columns it binds, in parameter order (`_pk` follows, then the
    /// expected version when the shape checks it).
    struct UpdatePlan {
        let statement: SQLiteStatement
        let columns: [StoreTable.WriteColumn]
    }

    let connection: SQLiteConnection
    let isReadOnly: Bool
    let metadata: StoreMetadataRecord
    let model: ManagedObjectModel
    /// The store's ID space of each entity, by entity index.
    let idSpaces: [ObjectIDSpace]
    /// Where each relationship lives.
    let relationshipLayout: RelationshipLayout
    /// One per entity, by entity index.
    let tables: [StoreTable]
    /// The highest primary key handed out per entity (by entity index): inserted rows and
    /// reserved keys alike. Persisted in `_objectgraph_primary_keys` by the transaction that
    /// changes it, and restored if that transaction fails.
    @exclusivity(unchecked) var primaryKeyCounters: [Int64]
    /// `PRAGMA data_version` when the counters were last known to match the file; it changes
    /// when another connection commits, which may have used keys.
    var countersDataVersion: Int64
    var updatePlans: [UpdateShape: UpdatePlan] = [:]
    /// The last plan used, checked first: saves usually update many rows the same way.
    var lastUpdatePlan: (shape: UpdateShape, plan: UpdatePlan)?
    /// Reads on the writer's connection: what batch operations read inside their transaction.
    let reader: SQLiteReader
    /// Whether saves record persistent history (the description's `recordsPersistentHistory`).
    var recordsHistory = false
    /// The history of the write transaction in progress, when history is recorded.
    var pendingHistory: PendingHistory?
    /// The numbers of the history transactions this store wrote and `RemoteChangeObserver` has
    /// not passed yet: its own saves, which are not remote changes. Kept only while an observer
    /// takes them (`keepsOwnHistoryTransactions`): nothing else would ever empty the set.
    var ownHistoryTransactions: Set<Int64> = []
    var keepsOwnHistoryTransactions = false
    private(set) var isClosed = false

    init(
        connection: SQLiteConnection, isReadOnly: Bool, metadata: StoreMetadataRecord, model: ManagedObjectModel,
        idSpaces: [ObjectIDSpace], relationshipLayout: RelationshipLayout, tables: [StoreTable],
        primaryKeyCounters: [Int64], countersDataVersion: Int64
    ) {
        self.connection = connection
        self.isReadOnly = isReadOnly
        self.metadata = metadata
        self.model = model
        self.idSpaces = idSpaces
        self.relationshipLayout = relationshipLayout
        self.tables = tables
        self.primaryKeyCounters = primaryKeyCounters
        self.countersDataVersion = countersDataVersion
        self.reader = SQLiteReader(
            connection: connection,
            schema: SQLiteStoreTables(
                path: connection.path, model: model, idSpaces: idSpaces, relationshipLayout: relationshipLayout, tables: tables))
    }

    /// The table of `entity`, which must belong to the store's model.
    func table(for entity: EntityDescription) throws -> StoreTable {
        try reader.table(for: entity)
    }

    /// Finalizes every statement and closes the connection.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        lastUpdatePlan = nil
        updatePlans.removeAll()
        for table in tables { table.releaseStatements() }
        reader.releaseStatements()
        connection.close()
    }
}

@available(*, unavailable)
extension SQLiteStoreState: Sendable {}
