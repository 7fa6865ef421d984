import Foundation

@testable import ObjectGraph

/// The change sets `context` posts for `event` while `body` runs. Notifications are posted
/// synchronously on the posting queue, so every one `body` causes is in the result.
func recordChanges<T>(
    of context: ManagedObjectContext, _ event: ContextEvent = .objectsDidChange, during body: () throws -> T
) rethrows -> (result: T, changes: [ContextChanges]) {
    let received = Received()
    let observer = NotificationCenter.default.addObserver(forName: event.notificationName, object: context, queue: nil) { notification in
        received.append(ContextChanges(notification)!)
    }
    defer { NotificationCenter.default.removeObserver(observer) }
    let result = try body()
    return (result, received.all)
}
