/// The persistent history's tables and numbering, shared by the SQLite and PostgreSQL stores
/// (the in-memory store numbers its changes alike).
extension StoreSchema {
    /// A row per history transaction: its number (the token), timestamp, context name, author
    /// and its changes in one blob (`HistoryRecordCoding`).
    package static let historyTable = "_objectgraph_history"
    /// The preserved values of deleted objects: change ID, attribute name, value.
    package static let historyTombstonesTable = "_objectgraph_history_tombstones"
    /// Change IDs of one transaction: `number × changesPerTransaction + position`.
    package static let changesPerTransaction: Int64 = 1_000_000_000
}
