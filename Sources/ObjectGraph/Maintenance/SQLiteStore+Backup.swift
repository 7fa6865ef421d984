import CSQLite
import Foundation

/// Online backup of a SQLite store through SQLite's backup API.
extension SQLiteStore {
    /// Copies the store, as one consistent snapshot, into a new file at `url`, while contexts
    /// keep reading and saving: the copy runs on a read-only connection of its own, in one read
    /// transaction, so in WAL mode no writer waits for it and no commit made meanwhile is half in
    /// the copy.
    func backup(to url: URL) throws {
        let target = SQLiteStoreState.fileSystemPath(url)
        let activity = "Cannot back up the store at \(storeDescription.url?.path ?? "?") to \(target)"
        guard !FileManager.default.fileExists(atPath: target) else {
            throw ObjectGraphError(.invalidOperation, "\(activity): that file exists already; back up to a new file")
        }
        guard let sourcePath = storeDescription.url.map(SQLiteStoreState.fileSystemPath) else {
            throw ObjectGraphError(.invalidOperation, "\(activity): the store has no file")
        }
        let source = try SQLiteConnection(path: sourcePath, readOnly: true, busyTimeout: storeDescription.busyTimeout)
        defer { source.close() }
        let destination = try SQLiteConnection(path: target, readOnly: false, busyTimeout: storeDescription.busyTimeout)
        var copied = false
        defer {
            destination.close()
            if !copied { try? FileManager.default.removeItem(atPath: target) }
        }
        guard let backup = sqlite3_backup_init(destination.handle, "main", source.handle, "main") else {
            throw SQLiteFailure(code: sqlite3_errcode(destination.handle), connection: destination.handle, sql: nil).error(activity)
        }
        // All pages in one step: one read transaction, so the copy is one snapshot and is never
        // restarted by the commits made meanwhile.
        var code = sqlite3_backup_step(backup, -1)
        let deadline = ProcessInfo.processInfo.systemUptime + storeDescription.busyTimeout
        while code == SQLITE_BUSY || code == SQLITE_LOCKED, ProcessInfo.processInfo.systemUptime < deadline {
            Thread.sleep(forTimeInterval: 0.005)
            code = sqlite3_backup_step(backup, -1)
        }
        let finished = sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE, finished == SQLITE_OK else {
            throw SQLiteFailure(code: code == SQLITE_DONE ? finished : code, connection: destination.handle, sql: nil).error(activity)
        }
        copied = true
    }
}
