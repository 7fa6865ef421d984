import Foundation
import ObjectGraph

/// A store file opened read-only with the model it keeps (from its metadata), for the commands
/// that look at stores without changing them.
enum StoreFile {
    /// A coordinator with the store at `url` attached read-only; remove the store when done.
    static func openReadOnly(_ url: URL) throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(
            managedObjectModel: try PersistentStoreCoordinator.metadataForPersistentStore(at: url).model)
        var description = PersistentStoreDescription(url: url)
        description.isReadOnly = true
        try coordinator.addPersistentStore(with: description)
        return coordinator
    }
}
