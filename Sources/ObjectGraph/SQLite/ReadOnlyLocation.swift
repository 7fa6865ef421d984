import Foundation

/// Reading a store where nothing may be written: SQLite reads a WAL-mode file through a
/// shared-memory index kept in a `-shm` file beside it, which it must create when it is missing —
/// impossible in a directory this process cannot write, where a plain read-only open fails with
/// "attempt to write a readonly database" (SQLITE_READONLY_DIRECTORY). Such a file is opened
/// with SQLite's `immutable` option instead: no `-shm`, no locks, which is safe because no one
/// can be writing it there in WAL mode (a writer would need that directory too).
enum ReadOnlyLocation {
    /// Whether the store at `path`, opened read-only, needs the `immutable` option: its
    /// directory is not writable and it has no `-shm` file. Throws when it has a `-wal` file with
    /// changes not yet copied into the database, which an immutable open would not see.
    static func mustOpenImmutable(_ path: String) throws -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        guard access(directory.isEmpty ? "." : directory, W_OK) != 0, access(path + "-shm", F_OK) != 0 else { return false }
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        if walSize > 0 {
            throw ObjectGraphError(
                .storeUnavailable,
                "Cannot open the store at \(path) read-only: its \(path)-wal file holds \(walSize) bytes of saved changes that are not in the store file yet, and SQLite needs to create \(path)-shm to read them, but the directory \(directory) is not writable; copy the store with its -wal file to a writable directory, or open it once where it can be written so the changes move into the store file"
            )
        }
        return true
    }

    /// The `file:` URI that opens `path` immutable.
    static func immutableURI(_ path: String) -> String {
        URL(fileURLWithPath: path).absoluteString + "?immutable=1"
    }
}
