import Foundation

/// A store that keeps its rows in memory, with the same semantics as `SQLiteStore`: the same
/// constraints, the same ordering, the same predicate results. Built for tests; gone when closed.
final class InMemoryStore: PersistentStore {
    let identifier: String
    let idSpaces: [ObjectIDSpace]
    let model: ManagedObjectModel
    let storeDescription: PersistentStoreDescription
    let relationshipLayout: RelationshipLayout
    let state: Locked<State>

    /// One entity's rows and the indexes that enforce its uniqueness constraints.
    struct Table {
        var rows: [Int64: Snapshot] = [:]
        var maxKey: Int64 = 0
        /// Per uniqueness constraint: the constrained values of each row, to its primary key.
        var uniqueIndexes: [[StoredValuesKey: Int64]]
    }

    /// The pairs of one join table, with the positions of its ordered side(s).
    struct JoinRows {
        struct Pair: Hashable {
            let source: Int64
            let destination: Int64
        }
        var pairs: Set<Pair> = []
        var positions: [Pair: Int] = [:]
        var inversePositions: [Pair: Int] = [:]
    }

    struct State {
        var tables: [Table]
        /// By join table name.
        var joins: [String: JoinRows] = [:]
        /// The position columns of ordered to-manys kept through foreign keys: by entity index
        /// and column name, each row's position by primary key.
        var positions: [PositionKey: [Int64: Int]] = [:]
        var isClosed = false
        /// Persistent history, when the description records it: the committed transactions,
        /// the one being written, and the last number handed out (never reused).
        var history: [StoredHistoryTransaction] = []
        var pendingHistory: PendingHistory?
        var lastHistoryTransaction: Int64 = 0
    }

    struct PositionKey: Hashable {
        let entityIndex: Int
        let column: String
    }

    init(description: PersistentStoreDescription, model: ManagedObjectModel) throws {
        self.model = model
        self.storeDescription = description
        let tables = model.entities.map { Table(uniqueIndexes: Array(repeating: [:], count: $0.uniquenessConstraints.count)) }
        self.state = Locked(State(tables: tables))
        // A store file given as the description's URL is where the store starts from.
        let seedURL = description.type == .inMemory ? description.url : nil
        let seed = try seedURL.map { try Self.seed(from: $0, description: description, model: model) }
        self.identifier = seed?.identifier ?? UUID().uuidString
        self.idSpaces = ObjectIDSpace.spaces(for: model, storeIdentifier: identifier)
        self.relationshipLayout = RelationshipLayout(model: model)
        if let seed { _ = try save(seed.request(idSpaces)) }
    }

    func save(_ request: SaveRequest) throws -> [Int64] {
        try transaction { state in try apply(request, to: &state) }
    }

    func save(inParts parts: (_ apply: (SaveRequest) throws -> Void) throws -> Void) throws {
        try transaction { state in try parts { _ = try apply($0, to: &state) } }
    }

    /// Runs `body` as one transaction: all of its changes or (when it throws) none, its history
    /// recorded as one history transaction.
    private func transaction<T>(_ body: (inout State) throws -> T) throws -> T {
        try state.withLock { state in
            try Self.checkOpen(state)
            let before = state
            do {
                if storeDescription.recordsPersistentHistory { state.pendingHistory = PendingHistory() }
                let result = try body(&state)
                commitHistory(&state)
                return result
            } catch {
                state = before
                throw error
            }
        }
    }

    func fetch(_ request: StoreFetchRequest) throws -> [Snapshot] {
        try state.withLock { state in
            try Self.checkOpen(state)
            return try rows(request, in: state)
        }
    }

    /// The rows `request` asks for, in its order, as the SQLite store's SELECT returns them.
    private func rows(_ request: StoreFetchRequest, in state: State) throws -> [Snapshot] {
        let entities = request.includesSubentities ? model.kinds(of: request.entity) : [request.entity]
        let current = state
        let idSpaces = idSpaces
        let model = model
        let resolve = BoundPredicate.RowResolver(
            row: { objectID in objectID.primaryKey.flatMap { current.tables[objectID.entity.index].rows[$0]?.values } },
            members: { [self] objectID, relationship in
                guard let key = objectID.primaryKey else { return [] }
                return (try? related(relationship, of: objectID.entity, sources: [key], in: current))?[key] ?? []
            })
        var rows = entities.flatMap { entity in
            current.tables[entity.index].rows.values.filter {
                request.predicate?.evaluate(
                    $0.values, entity: entity, objectID: ManagedObjectID(space: idSpaces[entity.index], primaryKey: $0.primaryKey),
                    resolve: resolve) ?? true
            }
        }
        try request.predicate?.throwIfAMatchGaveUp()
        func sortedRow(_ row: Snapshot) -> SortedRow {
            SortedRow(
                values: row.values, entity: model.entities[row.entityIndex],
                objectID: ManagedObjectID(space: idSpaces[row.entityIndex], primaryKey: row.primaryKey))
        }
        rows.sort { a, b in
            switch compareRows(sortedRow(a), sortedRow(b), by: request.sort, resolve: resolve) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: a.primaryKey < b.primaryKey
            }
        }
        let start = min(request.offset, rows.count)
        let end = request.limit.map { min(start + $0, rows.count) } ?? rows.count
        return Array(rows[start..<end])
    }

    /// Groups are computed by the context from the rows, with the same result as SQL's.
    func groupedValues(_ request: StoreGroupRequest) throws -> [[AttributeValue]]? { nil }

    func execute(_ request: StoreBatchRequest) throws -> [ManagedObjectID] {
        try transaction { state in
            try request.run(model: model, spaces: idSpaces, read: { try rows($0, in: state) }, apply: { try apply($0, to: &state) })
        }
    }

    func count(_ request: StoreFetchRequest) throws -> Int {
        try fetch(request).count
    }

    func snapshots(of entity: EntityDescription, primaryKeys: [Int64]) throws -> [Int64: Snapshot] {
        try state.withLock { state in
            try Self.checkOpen(state)
            let rows = state.tables[entity.index].rows
            var found: [Int64: Snapshot] = [:]
            for key in primaryKeys { found[key] = rows[key] }
            return found
        }
    }

    func relatedObjectIDs(
        of relationship: RelationshipDescription, in entity: EntityDescription, sources: [Int64]
    ) throws -> [Int64: [ManagedObjectID]] {
        try state.withLock { state in
            try Self.checkOpen(state)
            return try related(relationship, of: entity, sources: Set(sources), in: state)
        }
    }

    func relatedSnapshots(
        of relationship: RelationshipDescription, in entity: EntityDescription, sources: [Int64]
    ) throws -> [Int64: [Snapshot]] {
        try state.withLock { state in
            try Self.checkOpen(state)
            let related = try related(relationship, of: entity, sources: Set(sources), in: state)
            return related.mapValues { $0.compactMap { state.tables[$0.entity.index].rows[$0.primaryKey!] } }
        }
    }

    func reservePrimaryKeys(for entity: EntityDescription, count: Int) throws -> [Int64] {
        try state.withLock { state in
            try Self.checkOpen(state)
            let root = model.rootIndexes[entity.index]
            let first = state.tables[root].maxKey + 1
            state.tables[root].maxKey += Int64(count)
            return Array(first..<first + Int64(count))
        }
    }

    func close() {
        state.withLock { state in
            state.tables = []
            state.isClosed = true
        }
    }

    static func checkOpen(_ state: State) throws {
        if state.isClosed { throw ObjectGraphError(.invalidOperation, "the in-memory store is closed") }
    }
}
