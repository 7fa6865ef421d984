import Foundation

/// What changed in a context, by object ID: carried by the will-save, did-save and
/// objects-did-change notifications (NotificationCenter and `AsyncSequence` alike), and merged
/// into other contexts with `mergeChanges(_:)`.
///
/// Object IDs, not objects: a change set crosses queues, and objects belong to one context.
/// After a did-save, inserted objects have their permanent IDs.
public struct ContextChanges: Sendable, Equatable, CustomStringConvertible {
    /// Which event produced the change set.
    public let event: ContextEvent
    /// Objects inserted (saved as new, or new in the context).
    public var insertedObjectIDs: Set<ManagedObjectID>
    /// Objects whose values or relationships changed.
    public var updatedObjectIDs: Set<ManagedObjectID>
    /// Objects deleted.
    public var deletedObjectIDs: Set<ManagedObjectID>
    /// Objects whose values a merge brought up to date with changes made elsewhere (only in
    /// objects-did-change notifications that follow a merge).
    public var refreshedObjectIDs: Set<ManagedObjectID>

    /// A change set for `event`.
    public init(
        event: ContextEvent, insertedObjectIDs: Set<ManagedObjectID> = [], updatedObjectIDs: Set<ManagedObjectID> = [],
        deletedObjectIDs: Set<ManagedObjectID> = [], refreshedObjectIDs: Set<ManagedObjectID> = []
    ) {
        self.event = event
        self.insertedObjectIDs = insertedObjectIDs
        self.updatedObjectIDs = updatedObjectIDs
        self.deletedObjectIDs = deletedObjectIDs
        self.refreshedObjectIDs = refreshedObjectIDs
    }

    /// The change set a notification posted by a context carries, or `nil` for any other
    /// notification.
    public init?(_ notification: Notification) {
        guard let changes = notification.userInfo?[ManagedObjectContext.NotificationKey.changes] as? ContextChanges else { return nil }
        self = changes
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        insertedObjectIDs.isEmpty && updatedObjectIDs.isEmpty && deletedObjectIDs.isEmpty && refreshedObjectIDs.isEmpty
    }

    public var description: String {
        "\(event): \(insertedObjectIDs.count) inserted, \(updatedObjectIDs.count) updated, \(deletedObjectIDs.count) deleted, \(refreshedObjectIDs.count) refreshed"
    }
}

/// The moments at which a context reports its changes.
public enum ContextEvent: String, Sendable, CaseIterable {
    /// A save is about to write; the change set lists what it will write (inserted objects still
    /// have their temporary IDs).
    case willSave
    /// A save was committed (to the store, or to the parent context of a child).
    case didSave
    /// The context's objects changed without the context's own code changing them: a merge of
    /// another context's save, or a child context's save pushed into it.
    case objectsDidChange

    /// The NotificationCenter name of the event's notification.
    public var notificationName: Notification.Name {
        switch self {
        case .willSave: ManagedObjectContext.willSaveNotification
        case .didSave: ManagedObjectContext.didSaveNotification
        case .objectsDidChange: ManagedObjectContext.objectsDidChangeNotification
        }
    }
}
