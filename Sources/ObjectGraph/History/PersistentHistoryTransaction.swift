import Foundation

/// What one save (or batch request) committed, as the store's persistent history recorded it.
public struct PersistentHistoryTransaction: Sendable, Identifiable {
    /// The transaction's place in the history; fetch after it for what came next.
    public let token: PersistentHistoryToken
    /// When the store committed it.
    public let timestamp: Date
    /// The saving context's `name`.
    public let contextName: String?
    /// The saving context's `transactionAuthor`.
    public let author: String?
    /// Each object's change, in the order the store recorded them.
    public let changes: [PersistentHistoryChange]

    public var id: PersistentHistoryToken { token }

    /// The transaction as a did-save change set, for `ManagedObjectContext.mergeChanges(_:)`:
    /// what Core Data's `objectIDNotification()` gives.
    public var contextChanges: ContextChanges {
        func ids(_ type: PersistentHistoryChangeType) -> Set<ManagedObjectID> {
            Set(changes.filter { $0.changeType == type }.map(\.changedObjectID))
        }
        return ContextChanges(
            event: .didSave, insertedObjectIDs: ids(.insert), updatedObjectIDs: ids(.update), deletedObjectIDs: ids(.delete))
    }
}

/// Core Data's change types, with its raw values.
public enum PersistentHistoryChangeType: Int, Sendable, CaseIterable {
    case insert = 0
    case update = 1
    case delete = 2
}

/// One object's change in a history transaction.
public struct PersistentHistoryChange: Sendable {
    /// The change's number in the store, unique and increasing.
    public let changeID: Int64
    public let changedObjectID: ManagedObjectID
    public let changeType: PersistentHistoryChangeType
    /// The properties (attributes and relationships) an update changed; nil for inserts and deletes.
    public let updatedProperties: Set<String>?
    /// For a deletion, the last values of the entity's attributes marked
    /// `preservesValueInHistoryOnDeletion`, by name (nil values left out); nil otherwise.
    public let tombstone: [String: any Sendable]?
}
