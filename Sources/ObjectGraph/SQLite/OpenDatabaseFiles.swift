import Foundation

/// The database files this process has SQLite connections on, counted by file (device and inode,
/// so two spellings of one path are one file).
///
/// SQLite's file locks are POSIX record locks, which belong to the process: closing *any*
/// descriptor of a file drops every lock the process holds on it
/// (https://www.sqlite.org/howtocorrupt.html, section 2.2). Code that reads a store's files
/// outside SQLite (the lost-log check reads the `-shm` file) must therefore do it only while no
/// connection of this process has the store, and no connection may open meanwhile.
enum OpenDatabaseFiles {
    /// A file on a device, as `stat` names it.
    struct FileIdentity: Hashable {
        let device: UInt64
        let inode: UInt64

        init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    private static let connectionCounts = Locked<[FileIdentity: Int]>([:])

    /// Runs `open`, which opens a connection on the database at `path`, and counts that connection
    /// against the file `open` created or found. Serialized with `unlessOpenInThisProcess`.
    static func opening<Connection>(path: String, _ open: () throws -> Connection) rethrows -> (Connection, FileIdentity?) {
        try connectionCounts.withLock { counts in
            let connection = try open()
            let identity = FileIdentity(path: path)
            if let identity { counts[identity, default: 0] += 1 }
            return (connection, identity)
        }
    }

    /// Forgets one connection counted by `opening`.
    static func closed(_ identity: FileIdentity) {
        connectionCounts.withLock { counts in
            guard let count = counts[identity] else { return }
            counts[identity] = count > 1 ? count - 1 : nil
        }
    }

    /// The result of `body`, or nil without running it when a connection of this process has the
    /// database at `path` open. No connection opens while `body` runs.
    static func unlessOpenInThisProcess<T>(path: String, _ body: () -> T?) -> T? {
        connectionCounts.withLock { counts in
            if let identity = FileIdentity(path: path), counts[identity] != nil { return nil }
            return body()
        }
    }
}
