import Foundation

/// A value guarded by a lock: every read and write happens inside `withLock`.
///
/// Used instead of `Synchronization.Mutex` because `Mutex` on Linux locks with futexes that
/// ThreadSanitizer does not see: every access it guards is reported as a race (a six-line program
/// reproduces it with Swift 6.3), which would drown real reports. `NSLock` is a pthread mutex,
/// which ThreadSanitizer understands.
package final class Locked<Value>: @unchecked Sendable {
    // Why @unchecked Sendable is sound: `value` is private and only touched inside `withLock`,
    // between `lock()` and `unlock()` of the one lock, so accesses never overlap and each
    // happens-after the previous one.
    private let lock = NSLock()
    /// Unchecked by the runtime: the lock already makes accesses exclusive, and each checked
    /// access is a call into the runtime on every `withLock`.
    @exclusivity(unchecked) private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
