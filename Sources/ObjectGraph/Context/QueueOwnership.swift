import Dispatch
import Foundation

/// Which context queues the current thread is running on — asked before waiting for a queue,
/// since waiting for a queue the thread already holds deadlocks.
///
/// Dispatch answers for the queue of the block running now (queue-specific values). A thread
/// that waits with `performAndWait` for another context's queue still holds the queues it came
/// from, though: a child context used from the main queue asks its main-queue parent for rows,
/// and waiting for the main queue there would deadlock. So `performAndWait` hands the queues the
/// thread holds to the block it runs, in a thread-local list.
enum QueueOwnership {
    /// Set on every private context queue: the ID of the context owning it.
    static let privateQueueKey = DispatchSpecificKey<ObjectIdentifier>()
    /// Set on the main queue, so work on it is recognised by queue rather than by thread:
    /// `Thread.isMainThread` is not reliable on Linux, where the main queue may be drained by
    /// another thread (as under the Swift Testing runner or `dispatchMain()`).
    private static let mainQueueKey = DispatchSpecificKey<Bool>()
    private static let markMainQueue: Void = DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
    /// Stands for the main queue in the held lists.
    private static let mainQueueMarker = ObjectIdentifier(MainQueueMarker.self)
    private enum MainQueueMarker {}

    /// Marks a private context's queue as the context's.
    static func mark(_ queue: DispatchQueue, for context: ObjectIdentifier) {
        queue.setSpecific(key: privateQueueKey, value: context)
    }

    /// Whether the current thread runs on the main queue (or on the main thread outside any
    /// queue block, a program's synchronous top level: waiting for the main queue from there
    /// would deadlock too).
    static var isOnMainQueue: Bool {
        markMainQueue
        return DispatchQueue.getSpecific(key: mainQueueKey) == true || Thread.isMainThread || threadHeld.contains(mainQueueMarker)
    }

    /// Whether the current thread runs on the queue of the private context `context`.
    static func isOnPrivateQueue(of context: ObjectIdentifier) -> Bool {
        DispatchQueue.getSpecific(key: privateQueueKey) == context || threadHeld.contains(context)
    }

    /// Runs `body`, which waits for another queue, telling the block that runs there which
    /// queues this thread holds now.
    static func passingHeldQueues<T>(_ body: (_ held: [ObjectIdentifier]) throws -> T) rethrows -> T {
        var held = threadHeld
        if let context = DispatchQueue.getSpecific(key: privateQueueKey) { held.append(context) }
        if isOnMainQueue { held.append(mainQueueMarker) }
        return try body(held)
    }

    /// Runs `body` with `held` recorded as held by the current thread.
    static func holding<T>(_ held: [ObjectIdentifier], _ body: () throws -> T) rethrows -> T {
        guard !held.isEmpty else { return try body() }
        let previous = pthread_getspecific(threadKey)
        let list = Unmanaged.passRetained(HeldList(held))
        pthread_setspecific(threadKey, list.toOpaque())
        defer {
            pthread_setspecific(threadKey, previous)
            list.release()
        }
        return try body()
    }

    private final class HeldList {
        let contexts: [ObjectIdentifier]
        init(_ contexts: [ObjectIdentifier]) { self.contexts = contexts }
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    private static var threadHeld: [ObjectIdentifier] {
        guard let list = pthread_getspecific(threadKey) else { return [] }
        return Unmanaged<HeldList>.fromOpaque(list).takeUnretainedValue().contexts
    }
}
