import Foundation

/// A question to a store's persistent history, or an order to trim it, as Core Data's
/// `NSPersistentHistoryChangeRequest`: fetch the transactions after a token or a date (optionally
/// only some authors' or entities'), or delete those before one. Run it with
/// `PersistentStoreCoordinator.fetchHistory(_:)` or `deleteHistory(_:)`.
public struct PersistentHistoryChangeRequest: Sendable {
    enum Operation: Sendable, Equatable {
        case fetch
        case delete
    }

    package enum Bound: Sendable {
        /// Transactions after (fetch) or before (delete) this one; nil: all.
        case token(PersistentHistoryToken?)
        /// Transactions committed after (fetch) or before (delete) this moment.
        case date(Date)
    }

    let operation: Operation
    package let bound: Bound
    /// Only transactions whose context had one of these `transactionAuthor`s (fetches only).
    public var authors: Set<String>?
    /// Only the changes of these entities (sub-entities named themselves); transactions left with
    /// none are left out (fetches only).
    public var entityNames: Set<String>?

    /// Every transaction committed after `token` (every one when nil), oldest first.
    public static func fetchHistory(after token: PersistentHistoryToken?) -> Self {
        Self(operation: .fetch, bound: .token(token))
    }

    /// Every transaction committed after `date`, oldest first.
    public static func fetchHistory(after date: Date) -> Self {
        Self(operation: .fetch, bound: .date(date))
    }

    /// Deletes every transaction before `token` (the token's own is kept), or all of them when nil.
    public static func deleteHistory(before token: PersistentHistoryToken?) -> Self {
        Self(operation: .delete, bound: .token(token))
    }

    /// Deletes every transaction committed before `date`.
    public static func deleteHistory(before date: Date) -> Self {
        Self(operation: .delete, bound: .date(date))
    }
}
