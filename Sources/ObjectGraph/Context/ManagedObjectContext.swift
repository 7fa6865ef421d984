import Dispatch
import Foundation
import Synchronization

/// A scratchpad of objects bound to one queue: it registers the objects it fetched or inserted
/// (one object per ID), tracks their changes, and saves them all in one transaction.
///
/// Use a context from its own queue: the main queue for `.mainQueue` contexts (the container's
/// `viewContext`), and through `perform`/`performAndWait` for `.privateQueue` contexts. The
/// context itself is `Sendable` so it can be handed to code that then calls `perform`; its
/// objects are not.
public final class ManagedObjectContext: @unchecked Sendable {
    // Safety of @unchecked Sendable: the state other threads reach is thread-safe by itself —
    // `mergeInbox`, `childMergeTargets` and `changeStreams` guard their contents with locks, and
    // `mergesAutomatically` is atomic; `queue` and `concurrencyType` never change. Everything else
    // is only touched by the methods of this class, which its contract confines to the context's
    // queue (as with Core Data's NSManagedObjectContext): `perform`/`performAndWait` get there,
    // `OBJECTGRAPH_CONCURRENCY_DEBUG=1` stops any public call made elsewhere, and ManagedObject
    // is not Sendable, so objects cannot leave that queue through checked code. `name`,
    // `mergePolicy`, `parent` and the coordinator are set up before the context is shared.

    /// Which queue a context is bound to.
    public enum ConcurrencyType: Sendable {
        /// The main queue, for contexts that drive user interface or the program's main flow.
        case mainQueue
        /// A private serial queue owned by the context.
        case privateQueue
    }

    /// The queue the context is bound to.
    public let concurrencyType: ConcurrencyType
    /// A name for the context, used in messages and logs, and recorded with its saves in
    /// persistent history.
    public var name: String?
    /// Who the context's saves are made for (an app extension, an importer, a user), recorded
    /// with each save and batch request in persistent history (Core Data's `transactionAuthor`).
    public var transactionAuthor: String?
    // The coordinator and the parent are read on every insert and fetch, and set up before the
    // context is shared (see the note above): no runtime exclusivity checks for them.

    /// The coordinator whose store the context fetches from and saves to (for a child context,
    /// its parent's).
    @exclusivity(unchecked) public var persistentStoreCoordinator: PersistentStoreCoordinator? {
        didSet { updateMergeRegistration() }
    }
    /// How `save()` resolves conflicts with changes saved elsewhere since this context read its
    /// objects; `.error` (the save fails, listing them) by default.
    public var mergePolicy: MergePolicy = .error
    /// Whether the context follows the delete rules of the objects deleted in an event when it
    /// processes its pending changes (`processPendingChanges()`, called at the end of each
    /// `perform` block and of a main-queue turn); `true` by default, as in Core Data. When
    /// `false`, it follows them only when it saves: until then deleted objects and their
    /// neighbours keep pointing at each other.
    public var propagatesDeletesAtEndOfEvent = true
    /// The context a child context reads through and saves into, instead of the store: its
    /// fetches and faults see the parent's unsaved state, and its `save()` hands its changes to
    /// the parent, which writes them when it saves itself. Set it before using the context.
    @exclusivity(unchecked) public var parent: ManagedObjectContext? {
        didSet {
            if let parent { persistentStoreCoordinator = parent.persistentStoreCoordinator }
            updateMergeRegistration()
        }
    }

    let queue: DispatchQueue

    // Confined to the context's queue like the objects; see ManagedObject for the exclusivity note.

    /// The live objects with permanent IDs the context knows, one per ID, held weakly: an object
    /// without changes that nothing else references is released, and its `deinit` takes it out
    /// (changed objects are held strongly by `updated`, `deleted` and `insertionOrder`). Objects
    /// inserted since the last save live in `insertionOrder` until they get their permanent ID,
    /// so a save does not move every new object from a temporary key to a permanent one.
    @exclusivity(unchecked) var registered = ObjectRegistry()
    /// Inserted objects in insertion order; entries whose `isInserted` became false are skipped.
    @exclusivity(unchecked) var insertionOrder: [ManagedObject] = []
    @exclusivity(unchecked) var insertedCount = 0
    @exclusivity(unchecked) var updated = ObjectSet()
    @exclusivity(unchecked) var deleted = ObjectSet()
    /// Objects deleted since their delete rules were last followed (see `propagateDeletes()`), in
    /// the order they were deleted.
    @exclusivity(unchecked) var pendingDeletions: [ManagedObject] = []
    /// Why following the delete rules of a deletion failed (the store could not be read); the
    /// next save throws it instead of writing an inconsistent graph.
    @exclusivity(unchecked) var deletionFailure: ObjectGraphError?
    /// Whether `automaticallyMergesChangesFromParent` is on; read by other queues.
    let mergesAutomatically = Atomic<Bool>(false)
    /// Where the context is registered for automatic merges, if it is.
    @exclusivity(unchecked) var registeredMergeSource: MergeTargets?
    /// The newest stored rows of merges held back from objects whose unsaved edits they clashed
    /// with (see `refreshObjects(updatedElsewhere:)`), applied if those edits are rolled back.
    @exclusivity(unchecked) var heldBackMerges: [ManagedObjectID: Snapshot] = [:]
    /// The values of objects as the last objects-did-change reported them, for
    /// `changedValuesForCurrentEvent()`; an object without an entry has had no change reported
    /// since it was saved or fetched.
    @exclusivity(unchecked) var reportedValues: [ObjectKey: ValueRow] = [:]
    /// Objects whose insertion an objects-did-change reported, deleted since: the next one
    /// reports them deleted.
    @exclusivity(unchecked) var deletedReportedInserts: [ManagedObjectID] = []
    /// The objects the last merge registered for the other save's inserts, held until the next
    /// merge or `reset()`: as Core Data's objects-did-change holds the merged objects, so they
    /// stay registered for the code that reacts to the merge.
    @exclusivity(unchecked) var mergedInserts: [ManagedObject] = []
    /// Saves of other contexts waiting to be merged into this one.
    let mergeInbox = MergeInbox()
    /// The child contexts that merge this context's changes automatically.
    let childMergeTargets = MergeTargets()
    /// The `AsyncStream`s of `changes(for:)`.
    let changeStreams = ChangeStreams()
    /// Whether a main-queue context has asked the main queue to process its pending changes at
    /// the end of the current turn (see `noteChangeInEvent()`).
    @exclusivity(unchecked) var endOfTurnProcessingScheduled = false
    /// The fetched results controllers following the context (see ContextResultsObserver).
    @exclusivity(unchecked) var resultsObservers: [WeakResultsObserver] = []
    /// The ID space of each entity's temporary IDs, made on first insert.
    @exclusivity(unchecked) private var temporarySpaces: [ObjectIdentifier: ObjectIDSpace] = [:]
    /// The space `temporaryIDSpace(for:)` returned last.
    @exclusivity(unchecked) private var lastTemporarySpace: ObjectIDSpace?
    /// What the context's objects refer to it through; made in `init` once `self` exists.
    @exclusivity(unchecked) private(set) var link = ContextLink.detached

    /// A context bound to a queue of `concurrencyType`, not yet connected to a coordinator.
    public init(concurrencyType: ConcurrencyType) {
        self.concurrencyType = concurrencyType
        switch concurrencyType {
        case .mainQueue:
            queue = .main
        case .privateQueue:
            queue = DispatchQueue(label: "ObjectGraph.ManagedObjectContext")
            QueueOwnership.mark(queue, for: ObjectIdentifier(self))
        }
        link = ContextLink(self)
        if concurrencyType == .mainQueue { link.observation = ObjectObservation() }
    }

    /// The space for temporary IDs of `entity`'s new objects in this context.
    func temporaryIDSpace(for entity: EntityDescription) -> ObjectIDSpace {
        // Inserts come in runs of one entity: the last space answers most calls without hashing.
        if let space = lastTemporarySpace, space.entity === entity { return space }
        let space = temporarySpaces[ObjectIdentifier(entity)] ?? ObjectIDSpace(entity: entity, storeIdentifier: "")
        temporarySpaces[ObjectIdentifier(entity)] = space
        lastTemporarySpace = space
        return space
    }

    /// The model of the context's coordinator.
    var model: ManagedObjectModel? { persistentStoreCoordinator?.managedObjectModel }

    /// Whether the caller is already running on the context's queue.
    var isOnQueue: Bool {
        switch concurrencyType {
        case .mainQueue: QueueOwnership.isOnMainQueue
        case .privateQueue: QueueOwnership.isOnPrivateQueue(of: ObjectIdentifier(self))
        }
    }

    /// Runs `block` on the context's queue and returns at once.
    /// Its changes are reported (`processPendingChanges()`) when it ends, as Core Data does.
    public func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async {
            self.processPendingMerges()
            block()
            self.processPendingChanges()
        }
    }

    /// Runs `block` on the context's queue and returns its result when it has finished;
    /// rethrows what it throws. Safe to call from the context's own queue.
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        if isOnQueue {
            processPendingMerges()
            return try block()
        }
        return try QueueOwnership.passingHeldQueues { held in
            try queue.sync {
                try QueueOwnership.holding(held) {
                    processPendingMerges()
                    return try block()
                }
            }
        }
    }

    /// Runs `block` on the context's queue and returns its result: the way to use a context from
    /// Swift concurrency (`let count = try await context.perform { try context.count(for: r) }`).
    /// Its changes are reported (`processPendingChanges()`) when it ends, as Core Data does.
    public func perform<T: Sendable>(_ block: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                self.processPendingMerges()
                let result = Result { try block() }
                self.processPendingChanges()
                continuation.resume(with: result)
            }
        }
    }

    /// The store objects are saved to, or an error when the context has none.
    func requireStore() throws -> any PersistentStore {
        if let parent { return ParentContextStore(parent: parent, child: self, root: try parent.requireStore()) }
        guard let coordinator = persistentStoreCoordinator else {
            throw ObjectGraphError(.invalidOperation, "the context\(nameForMessages) has no persistent store coordinator")
        }
        return try coordinator.requireStore()
    }

    var nameForMessages: String { name.map { " '\($0)'" } ?? "" }

    /// The coordinator's cache of stored rows, for contexts that read the store itself; a child
    /// context reads its parent's current state, which the cache must not mix with stored rows.
    var sharedRowCache: RowCache? { parent == nil ? persistentStoreCoordinator?.rowCache : nil }

    /// The registered object with `objectID`, if it is alive.
    @inline(__always)
    func liveObject(_ objectID: ManagedObjectID) -> ManagedObject? {
        registered[objectID]?.takeUnretainedValue()
    }

    /// Registers `object` under its permanent ID; the caller holds it strongly.
    @inline(__always)
    func register(_ object: ManagedObject) {
        registered[object.objectID] = .passUnretained(object)
    }

    /// Called by a registered object's `deinit`: forgets it, if it is still the one registered.
    /// Compares addresses only: the object is being deinitialised and must not be retained.
    func objectWillBeReleased(_ objectID: ManagedObjectID, _ address: UnsafeMutableRawPointer) {
        // One hash lookup in the common case; another object under the same ID is put back.
        guard let entry = registered.removeValue(forKey: objectID) else { return }
        if entry.toOpaque() != address { registered[objectID] = entry }
    }
}
