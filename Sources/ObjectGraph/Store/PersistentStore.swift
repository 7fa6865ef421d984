import Foundation

/// The one seam between contexts and storage. A store never sees a `ManagedObject`: it receives
/// save requests of value rows and answers fetches with snapshots. `SQLiteStore` and
/// `InMemoryStore` implement it with the same semantics, proven by one shared test suite.
///
/// Every method may be called from any thread; a store serialises its own work (the SQLite store
/// on its background serial queue). Methods are synchronous and return when the work is done.
package protocol PersistentStore: AnyObject, Sendable {
    /// A UUID string fixed when the store was created; part of every object ID's URI.
    var identifier: String { get }
    /// The ID space of each entity, indexed like the model's entities: every object ID of the
    /// store refers to one of these.
    var idSpaces: [ObjectIDSpace] { get }
    /// The model the store was opened with.
    var model: ManagedObjectModel { get }
    /// How the store was opened.
    var storeDescription: PersistentStoreDescription { get }

    /// Applies every change in one transaction: all of it or nothing. Order: deletes, updates,
    /// inserts, then relationship memberships and positions. Keys for inserted rows with
    /// temporary IDs are assigned first, so rows may refer to each other whatever their order.
    /// Returns those keys, in insert order. Errors name the row's object ID and, when known, the
    /// property.
    func save(_ request: SaveRequest) throws -> [Int64]

    /// Applies the save requests `parts` hands to `apply` in one transaction: all of them, or
    /// none when `parts` or a request throws. For writes too large to hold as one request (a
    /// copy of a whole store, a page at a time). `parts` may be called again when the store
    /// makes the transaction again (the PostgreSQL store, after the server refused a statement
    /// of many rows), so it must hand the same requests each time.
    func save(inParts parts: (_ apply: (SaveRequest) throws -> Void) throws -> Void) throws

    /// The rows of `request.entity` matching the request, in its order.
    func fetch(_ request: StoreFetchRequest) throws -> [Snapshot]

    /// How many rows of `request.entity` match (limit and offset applied).
    func count(_ request: StoreFetchRequest) throws -> Int

    /// The rows with these primary keys that exist, keyed by primary key.
    func snapshots(of entity: EntityDescription, primaryKeys: [Int64]) throws -> [Int64: Snapshot]

    /// The destinations of the to-many `relationship` of `entity` for each source key, in the
    /// relationship's order (by position when ordered, else by key). Sources with no
    /// destinations are left out.
    func relatedObjectIDs(
        of relationship: RelationshipDescription, in entity: EntityDescription, sources: [Int64]
    ) throws -> [Int64: [ManagedObjectID]]

    /// The destinations of the to-many `relationship` of `entity` for each source key, with their
    /// rows, in the relationship's order. Sources with no destinations are left out.
    func relatedSnapshots(
        of relationship: RelationshipDescription, in entity: EntityDescription, sources: [Int64]
    ) throws -> [Int64: [Snapshot]]

    /// The groups of a values fetch computed by the store itself (SQL's GROUP BY), ordered by
    /// their keys, or `nil` when the store leaves it to the caller (the in-memory store, whose
    /// rows the caller computes from with the same result).
    func groupedValues(_ request: StoreGroupRequest) throws -> [[AttributeValue]]?

    /// Carries out a batch operation in one transaction, straight on the rows; returns the IDs
    /// of the objects it inserted, updated or deleted.
    func execute(_ request: StoreBatchRequest) throws -> [ManagedObjectID]

    /// Reserves `count` unused primary keys for `entity`; they are never handed out again.
    func reservePrimaryKeys(for entity: EntityDescription, count: Int) throws -> [Int64]

    /// Every problem an integrity check finds (see `IntegrityReport`); `quick` skips the slowest
    /// checks where a store has them.
    func integrityProblems(quick: Bool) throws -> [IntegrityReport.Problem]

    /// Writes a consistent copy of the store into a new SQLite file at `url`, while it stays in use.
    func backup(to url: URL) throws

    /// Writes the store as SQL text into a new file at `url` (see `SQLiteDump`).
    func dump(to url: URL) throws

    /// The persistent history transactions `request` (a fetch) selects, oldest first.
    func fetchHistory(_ request: PersistentHistoryChangeRequest) throws -> [PersistentHistoryTransaction]

    /// Deletes the history transactions `request` (a delete) selects; returns how many.
    func deleteHistory(_ request: PersistentHistoryChangeRequest) throws -> Int

    /// The token of the newest history transaction, or nil when none was recorded.
    func currentHistoryToken() throws -> PersistentHistoryToken?

    /// Releases the store's resources. Further calls throw.
    func close()

    /// A number that changes whenever the stored data may have changed since it was last asked:
    /// by this store's own saves, or by anyone else writing the same storage (another
    /// coordinator's store on the same file, another process). The coordinator's row cache
    /// compares it before trusting the rows it keeps. Cheap, and never waits for a save.
    func dataGeneration() -> UInt64
}

extension PersistentStore {
    /// For stores no one else can write: their own saves already empty the row cache.
    package func dataGeneration() -> UInt64 { 0 }

    /// For stores whose transactions are one request each (a parent context): the parts joined
    /// into one request.
    package func save(inParts parts: (_ apply: (SaveRequest) throws -> Void) throws -> Void) throws {
        var joined = SaveRequest()
        try parts { part in
            // Delete versions (0: unknown) and committed values are given for every delete or
            // update of a request, or for none.
            joined.deleteVersions = Self.joinedPerRow(
                joined.deleteVersions, of: joined.deletes.count, part.deleteVersions, of: part.deletes.count, filler: 0)
            joined.committedValues = Self.joinedPerRow(
                joined.committedValues, of: joined.updates.count, part.committedValues, of: part.updates.count, filler: nil)
            joined.inserts += part.inserts
            joined.updates += part.updates
            joined.deletes += part.deletes
            joined.relationshipChanges += part.relationshipChanges
            joined.contextName = joined.contextName ?? part.contextName
            joined.author = joined.author ?? part.author
        }
        _ = try save(joined)
    }

    /// Two requests' values given per row (`first` for `firstRows` rows, `second` for
    /// `secondRows`), each either one per row or empty for none, joined: empty when both are,
    /// else one per row with `filler` where none was given.
    private static func joinedPerRow<Value>(
        _ first: [Value], of firstRows: Int, _ second: [Value], of secondRows: Int, filler: Value
    ) -> [Value] {
        guard !first.isEmpty || !second.isEmpty else { return [] }
        return (first.isEmpty ? Array(repeating: filler, count: firstRows) : first)
            + (second.isEmpty ? Array(repeating: filler, count: secondRows) : second)
    }
}

/// A stored row: the primary key, one value per attribute of the entity (transient attributes
/// hold their defaults), and the row version that optimistic locking will compare.
package struct Snapshot: Sendable {
    package let primaryKey: Int64
    package var values: ValueRow
    package var version: Int64
    /// The position of the row's entity in the model: the fetched entity or one of its sub-entities.
    package let entityIndex: Int

    /// The version every store gives a row it inserts; each update adds 1. It is 2, not 1,
    /// because SQLite writes the integers 0 and 1 in no bytes of a record and 2 to 127 in one:
    /// a row starting at 1 would grow by a byte on its first update, and SQLite then rewrites
    /// the row's cell instead of overwriting it in place (about 1,000 more instructions a row
    /// when every row of a table is updated once). Stores agree on it because a context gives
    /// its inserted objects this version without reading their rows back.
    package static let firstVersion: Int64 = 2

    package init(primaryKey: Int64, values: ValueRow, version: Int64, entityIndex: Int) {
        self.primaryKey = primaryKey
        self.values = values
        self.version = version
        self.entityIndex = entityIndex
    }
}

/// One save's worth of changes, as value rows.
package struct SaveRequest: Sendable {
    package struct Insert: Sendable {
        /// The object's ID: temporary, or permanent if obtained in advance.
        package let objectID: ManagedObjectID
        /// One value per attribute of the entity.
        package let values: ValueRow
    }
    package struct Update: Sendable {
        package let objectID: ManagedObjectID
        /// The attributes (indexes into the entity's `attributes`) whose values changed.
        package let changedAttributes: [Int]
        /// One value per attribute of the entity.
        package let values: ValueRow
        /// The row version the change was made against: the store refuses the update (a
        /// `VersionConflicts` error) when the row now has another version or is gone. `nil`
        /// writes without checking.
        package var expectedVersion: Int64? {
            get { checkedVersion == 0 ? nil : checkedVersion }
            set { checkedVersion = newValue ?? 0 }
        }
        /// `expectedVersion`, 0 for none (versions count from 1): an `Int64?` would pad each
        /// update by 8 bytes, 0.8 MB in a save of 100,000 changed objects.
        private var checkedVersion: Int64

        package init(objectID: ManagedObjectID, changedAttributes: [Int], values: ValueRow, expectedVersion: Int64? = nil) {
            self.objectID = objectID
            self.changedAttributes = changedAttributes
            self.values = values
            self.checkedVersion = expectedVersion ?? 0
        }
    }

    package var inserts: Inserts = []
    package var updates: [Update] = []
    /// The values each update was made against, in the order of `updates` (`nil` where not
    /// known), for a child context's save: the parent holds its object to them when its own copy
    /// moved on since the child read it, so the parent's save still finds the conflict. Empty
    /// for saves to a store (kept apart from `updates` so that those take 8 bytes less each).
    package var committedValues: [ValueRow?] = []
    /// The saving context's `name` and `transactionAuthor`, for persistent history.
    package var contextName: String?
    package var author: String?
    package var deletes: [ManagedObjectID] = []
    /// The row version each deletion was decided against, in the order of `deletes` (0 where
    /// unknown), or empty when none is known: a row that now has another version is a conflict.
    /// Deleting a row that is already gone is not.
    package var deleteVersions: [Int64] = []
    /// Changes of to-many relationships, applied once every row is written.
    package var relationshipChanges: [RelationshipChange] = []

    package var isEmpty: Bool { inserts.isEmpty && updates.isEmpty && deletes.isEmpty && relationshipChanges.isEmpty }
}

/// The rows a save found changed by someone else since the saving context read them
/// (optimistic locking): each with the row as it is now, or `nil` when it was deleted. Thrown by
/// a store's `save` after checking every row; nothing was written.
package struct VersionConflicts: Error {
    package var rows: [(objectID: ManagedObjectID, current: Snapshot?)] = []

    package init() {}
}

/// What one object's to-many relationship gained and lost since it was loaded or last saved.
/// Stores write what their layout needs from it: join-table pairs, positions. (A to-many kept
/// through its inverse's foreign key changes through the inverse's rows.)
package struct RelationshipChange: Sendable {
    package let objectID: ManagedObjectID
    /// A to-many relationship of `objectID.entity`.
    package let relationship: RelationshipDescription
    package var added: [ManagedObjectID]
    package var removed: [ManagedObjectID]
    /// Every destination in order, when the relationship is ordered.
    package var order: [ManagedObjectID]?
}

/// What a store needs to answer a fetch: an entity, an optional bound predicate, a sort order,
/// and paging. Rows come back in sort order, ties broken by primary key.
package struct StoreFetchRequest: Sendable {
    package let entity: EntityDescription
    package var predicate: BoundPredicate?
    package var sort: [BoundSort] = []
    package var limit: Int?
    package var offset: Int = 0
    /// Whether rows of the entity's sub-entities are included.
    package var includesSubentities = true
    /// Rows the caller already holds in memory, by primary key and entity index: a store may
    /// return them without values (an empty `values` row), skipping the cost of decoding what
    /// would be thrown away.
    package var isAlreadyLoaded: (@Sendable (Int64, Int) -> Bool)?
}

/// A values fetch with counts or aggregates, every plain value grouped: what SQL's GROUP BY
/// computes. Columns are in result order; each has the type its values are read as.
package struct StoreGroupRequest: Sendable {
    package enum Column: Sendable {
        case value(BoundPredicate.Operand)
        case count
        case aggregate(AggregateFunction, BoundPredicate.Operand)
    }
    package let entity: EntityDescription
    package let predicate: BoundPredicate?
    package let includesSubentities: Bool
    package let columns: [(column: Column, type: AttributeType)]
    package let groupBy: [BoundPredicate.Operand]
}
