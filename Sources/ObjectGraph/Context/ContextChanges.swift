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
    public var insertedObjectIDs: Set<ManagedObjectID> {
        get { inserted.set }
        set { inserted = ObjectIDCollection(newValue) }
    }
    /// Objects whose values or relationships changed. In the objects-did-change that follows a
    /// merge: the objects the other save updated that this context does not hold (those it holds
    /// are in `refreshedObjectIDs`).
    public var updatedObjectIDs: Set<ManagedObjectID> {
        get { updated.set }
        set { updated = ObjectIDCollection(newValue) }
    }
    /// Objects deleted.
    public var deletedObjectIDs: Set<ManagedObjectID> {
        get { deleted.set }
        set { deleted = ObjectIDCollection(newValue) }
    }
    /// Objects whose values a merge brought up to date with changes made elsewhere (only in
    /// objects-did-change notifications that follow a merge).
    public var refreshedObjectIDs: Set<ManagedObjectID> {
        get { refreshed.set }
        set { refreshed = ObjectIDCollection(newValue) }
    }
    /// Objects the context let go of, so that they must not be used any more (only in the
    /// objects-did-change notification `reset()` posts, as Core Data's invalidated objects).
    public var invalidatedObjectIDs: Set<ManagedObjectID> {
        get { invalidated.set }
        set { invalidated = ObjectIDCollection(newValue) }
    }
    /// Whether the context let go of every object it had (`reset()`): Core Data's
    /// `NSInvalidatedAllObjectsKey`. `invalidatedObjectIDs` lists those that had permanent IDs.
    public var invalidatesAllObjects = false

    private var inserted: ObjectIDCollection
    private var updated: ObjectIDCollection
    private var deleted: ObjectIDCollection
    private var refreshed: ObjectIDCollection
    private var invalidated = ObjectIDCollection([])

    /// A change set for `event`.
    public init(
        event: ContextEvent, insertedObjectIDs: Set<ManagedObjectID> = [], updatedObjectIDs: Set<ManagedObjectID> = [],
        deletedObjectIDs: Set<ManagedObjectID> = [], refreshedObjectIDs: Set<ManagedObjectID> = []
    ) {
        self.event = event
        inserted = ObjectIDCollection(insertedObjectIDs)
        updated = ObjectIDCollection(updatedObjectIDs)
        deleted = ObjectIDCollection(deletedObjectIDs)
        refreshed = ObjectIDCollection(refreshedObjectIDs)
    }

    /// A change set of distinct IDs gathered in arrays; each becomes a set when first read.
    init(event: ContextEvent, inserted: [ManagedObjectID], updated: [ManagedObjectID], deleted: [ManagedObjectID]) {
        self.event = event
        self.inserted = ObjectIDCollection(distinct: inserted)
        self.updated = ObjectIDCollection(distinct: updated)
        self.deleted = ObjectIDCollection(distinct: deleted)
        refreshed = ObjectIDCollection([])
    }

    /// The change set a notification posted by a context carries, or `nil` for any other
    /// notification.
    public init?(_ notification: Notification) {
        guard let changes = notification.userInfo?[ManagedObjectContext.NotificationKey.changes] as? ContextChanges else { return nil }
        self = changes
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        inserted.count == 0 && updated.count == 0 && deleted.count == 0 && refreshed.count == 0 && invalidated.count == 0
            && !invalidatesAllObjects
    }

    public var description: String {
        "\(event): \(inserted.count) inserted, \(updated.count) updated, \(deleted.count) deleted, \(refreshed.count) refreshed"
            + (invalidatesAllObjects || invalidated.count > 0 ? ", \(invalidated.count) invalidated" : "")
    }

    public static func == (lhs: ContextChanges, rhs: ContextChanges) -> Bool {
        lhs.event == rhs.event && lhs.insertedObjectIDs == rhs.insertedObjectIDs && lhs.updatedObjectIDs == rhs.updatedObjectIDs
            && lhs.deletedObjectIDs == rhs.deletedObjectIDs && lhs.refreshedObjectIDs == rhs.refreshedObjectIDs
            && lhs.invalidatedObjectIDs == rhs.invalidatedObjectIDs && lhs.invalidatesAllObjects == rhs.invalidatesAllObjects
    }
}

/// Object IDs as a save gathers them, in an array, made into a set the first time someone asks:
/// every save reports its changes, but hashing a large save's IDs into sets is worth doing only
/// for an observer that reads them.
final class ObjectIDCollection: Sendable {
    private let ids: [ManagedObjectID]
    private let madeSet: Locked<Set<ManagedObjectID>?>

    /// IDs that are distinct already (each from one object).
    init(distinct ids: [ManagedObjectID]) {
        self.ids = ids
        madeSet = Locked(nil)
    }

    init(_ set: Set<ManagedObjectID>) {
        ids = []
        madeSet = Locked(set)
    }

    /// How many IDs there are.
    var count: Int { ids.isEmpty ? madeSet.withLock { $0?.count ?? 0 } : ids.count }

    /// The IDs as a set.
    var set: Set<ManagedObjectID> {
        madeSet.withLock { set in
            if let set { return set }
            let made = Set(ids)
            set = made
            return made
        }
    }
}

/// The moments at which a context reports its changes.
public enum ContextEvent: String, Sendable, CaseIterable {
    /// A save is about to write; the change set lists what it will write (inserted objects still
    /// have their temporary IDs).
    case willSave
    /// A save was committed (to the store, or to the parent context of a child).
    case didSave
    /// The context's objects changed without the context's own code changing them (a merge of
    /// another context's save, or a child context's save pushed into it),
    /// `processPendingChanges()` reported the context's unsaved changes, or `reset()` let go of
    /// every object.
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
