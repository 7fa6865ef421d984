import Foundation

extension PersistentStoreCoordinator {
    /// Posted (object: the coordinator) after `restore(from:)` put a backup in the store's place.
    /// Objects registered in contexts still hold values read before: `reset()` or
    /// `refreshAllObjects()` the contexts that heard it. Object IDs stay valid (a backup keeps
    /// the store's identifier and keys).
    public static let didRestoreNotification = Notification.Name("ObjectGraph.PersistentStoreCoordinator.didRestore")

    /// Puts the backup at `backupURL` (a store file from `backup(to:)`, or any copy of one) in
    /// place of the attached SQLite store and reopens it. The backup is first copied beside the
    /// store and opened with the model (migrated, when an earlier version wrote it); only when
    /// that succeeded is the store closed and the copy renamed over it, so a bad backup leaves
    /// the store as it was. The backup file itself is not changed. Contexts keep working with
    /// the restored store; `didRestoreNotification` tells them their objects may be stale. A
    /// save running on another thread at that moment fails with a `.invalidOperation` error
    /// (the store it was writing closed).
    public func restore(from backupURL: URL) throws {
        try replaceStore { description in
            guard description.type == .sqlite, let url = description.url else {
                throw ObjectGraphError(
                    .invalidOperation, "Cannot restore the \(description) from \(backupURL.path): only a SQLite store file can be restored")
            }
            let path = SQLiteStoreState.fileSystemPath(url), backup = SQLiteStoreState.fileSystemPath(backupURL)
            let staging = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(
                ".restoring-\(UUID().uuidString).sqlite"
            ).path
            do {
                let source = try SQLiteConnection(path: backup, readOnly: true, busyTimeout: description.busyTimeout)
                defer { source.close() }
                try source.copy(into: staging, activity: "Cannot copy the backup \(backup) beside the store")
                var stagingDescription = description
                stagingDescription.url = URL(fileURLWithPath: staging)
                stagingDescription.isReadOnly = false
                try SQLiteStore(description: stagingDescription, model: managedObjectModel).close()
            } catch {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: staging + suffix) }
                throw error
            }
            return {
                // The closed store left no -wal or -shm; a copy from elsewhere may still have.
                for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                _ = rename(staging, path)
            }
        }
        NotificationCenter.default.post(name: Self.didRestoreNotification, object: self)
    }
}
