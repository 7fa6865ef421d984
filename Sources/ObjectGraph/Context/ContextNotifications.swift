import Foundation
import Synchronization

extension ManagedObjectContext {
    /// Posted (object: the context) at the start of `save()`, before anything is written.
    public static let willSaveNotification = Notification.Name("ObjectGraph.ManagedObjectContextWillSave")
    /// Posted (object: the context) after a save was committed.
    public static let didSaveNotification = Notification.Name("ObjectGraph.ManagedObjectContextDidSave")
    /// Posted (object: the context) after a merge or a child context's save changed its objects,
    /// by `processPendingChanges()` with the context's unsaved changes, and by `reset()` with the
    /// objects it let go of.
    public static let objectsDidChangeNotification = Notification.Name("ObjectGraph.ManagedObjectContextObjectsDidChange")

    /// The `userInfo` keys of the context's notifications.
    public enum NotificationKey {
        /// The whole `ContextChanges`; `ContextChanges(notification)` reads it.
        public static let changes = "changes"
        /// `Set<ManagedObjectID>` of inserted objects (not in will-save notifications; read their
        /// `ContextChanges`).
        public static let insertedObjectIDs = "insertedObjectIDs"
        /// `Set<ManagedObjectID>` of updated objects.
        public static let updatedObjectIDs = "updatedObjectIDs"
        /// `Set<ManagedObjectID>` of deleted objects.
        public static let deletedObjectIDs = "deletedObjectIDs"
        /// `Set<ManagedObjectID>` of objects a merge refreshed.
        public static let refreshedObjectIDs = "refreshedObjectIDs"
        /// `Set<ManagedObjectID>` of objects the context let go of (`reset()`).
        public static let invalidatedObjectIDs = "invalidatedObjectIDs"
        /// Present (`true`) when the context let go of every object (`reset()`), as Core Data's
        /// `NSInvalidatedAllObjectsKey`.
        public static let invalidatedAllObjects = "invalidatedAllObjects"
    }

    /// The context's change sets for `event`, as an `AsyncSequence`: each one the context reports
    /// from now on, in order, until the task iterating stops.
    ///
    /// ```swift
    /// for await changes in context.changes(for: .didSave) { print(changes.insertedObjectIDs) }
    /// ```
    public func changes(for event: ContextEvent) -> AsyncStream<ContextChanges> {
        changeStreams.stream(for: event)
    }

    /// Reports `changes` to NotificationCenter observers and to `changes(for:)` streams, and to
    /// fetched results controllers, which are told only of the updates `reportedUpdates` does
    /// not name (a save's updates that an objects-did-change reported already).
    ///
    /// A will-save notification's `userInfo` holds only the `ContextChanges` (Core Data's has
    /// none at all): its ID sets are made only if someone reads them, since a will-save comes
    /// before every save. The other notifications carry each set under its own key too.
    func post(_ changes: ContextChanges, reportedUpdates: [ManagedObjectID] = []) {
        var userInfo: [AnyHashable: Any] = [NotificationKey.changes: changes]
        if changes.event != .willSave {
            userInfo[NotificationKey.insertedObjectIDs] = changes.insertedObjectIDs
            userInfo[NotificationKey.updatedObjectIDs] = changes.updatedObjectIDs
            userInfo[NotificationKey.deletedObjectIDs] = changes.deletedObjectIDs
            userInfo[NotificationKey.refreshedObjectIDs] = changes.refreshedObjectIDs
            userInfo[NotificationKey.invalidatedObjectIDs] = changes.invalidatedObjectIDs
            if changes.invalidatesAllObjects { userInfo[NotificationKey.invalidatedAllObjects] = true }
        }
        NotificationCenter.default.post(name: changes.event.notificationName, object: self, userInfo: userInfo)
        changeStreams.yield(changes)
        // Hashed only for a controller that reads them: a large save reports many updates.
        guard !reportedUpdates.isEmpty, !resultsObservers.isEmpty else { return notifyResultsObservers(changes) }
        var unreported = changes
        unreported.updatedObjectIDs.subtract(reportedUpdates)
        notifyResultsObservers(unreported)
    }
}

/// The `AsyncStream`s iterating one context's change sets.
final class ChangeStreams: Sendable {
    private struct Subscriber {
        let event: ContextEvent
        let continuation: AsyncStream<ContextChanges>.Continuation
    }

    private let subscribers = Locked<[Int: Subscriber]>([:])
    private let nextIdentifier = Atomic<Int>(0)

    func stream(for event: ContextEvent) -> AsyncStream<ContextChanges> {
        let identifier = nextIdentifier.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream<ContextChanges>.makeStream()
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: identifier) }
        }
        subscribers.withLock { $0[identifier] = Subscriber(event: event, continuation: continuation) }
        return stream
    }

    func yield(_ changes: ContextChanges) {
        let continuations = subscribers.withLock { $0.values.filter { $0.event == changes.event }.map(\.continuation) }
        for continuation in continuations { continuation.yield(changes) }
    }
}
