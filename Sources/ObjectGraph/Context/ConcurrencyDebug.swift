import Foundation

/// The concurrency debug switch, in the spirit of Core Data's `-com.apple.CoreData.ConcurrencyDebug 1`:
/// with `OBJECTGRAPH_CONCURRENCY_DEBUG=1` in the environment, any use of a context or of its
/// objects from outside the context's queue stops the program with a message naming the context
/// and the call, instead of corrupting memory some time later.
enum ConcurrencyDebug {
    /// Read once, at the first check.
    static let isEnabled: Bool = {
        guard let value = ProcessInfo.processInfo.environment["OBJECTGRAPH_CONCURRENCY_DEBUG"] else { return false }
        return !["", "0", "false", "no"].contains(value.lowercased())
    }()

    /// Stops the program: `call` ran on `context` outside its queue.
    static func violation(_ call: String, on context: ManagedObjectContext) -> Never {
        let queue = context.concurrencyType == .mainQueue ? "the main queue" : "its private queue"
        let thread = Thread.isMainThread ? "the main thread" : "thread \(Unmanaged.passUnretained(Thread.current).toOpaque())"
        let message = """
            ObjectGraph concurrency violation: \(call) was called on context\(context.nameForMessages) \
            (\(queue)) from \(thread), outside the context's queue. Use the context and its objects only \
            inside context.perform { } or context.performAndWait { } (for the view context: on the main queue).

            """
        FileHandle.standardError.write(Data(message.utf8))
        fatalError(message)
    }
}

extension ManagedObjectContext {
    /// With the concurrency debug switch on, stops the program when called off the context's queue.
    @inline(__always)
    func checkQueue(_ call: @autoclosure () -> String) {
        if ConcurrencyDebug.isEnabled && !isOnQueue { ConcurrencyDebug.violation(call(), on: self) }
    }
}

extension ManagedObject {
    /// With the concurrency debug switch on, stops the program when the object is used off its
    /// context's queue.
    @inline(__always)
    func checkQueue(_ call: @autoclosure () -> String) {
        if objectID.space.checksQueue, let context = managedObjectContext, !context.isOnQueue {
            ConcurrencyDebug.violation("\(call()) of \(objectID.shortDescription)", on: context)
        }
    }
}
