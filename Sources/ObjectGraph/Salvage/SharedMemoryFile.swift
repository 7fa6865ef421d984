import Foundation

/// A store's `-shm` file (SQLite's wal-index), opened for reading through one descriptor: whether
/// another process has the store open, and the index's header. Open it only while no connection
/// of this process has the store (see `OpenDatabaseFiles`): closing it drops this process's locks.
final class SharedMemoryFile {
    private let descriptor: Int32

    /// Nil when there is no such file or it cannot be read.
    init?(path: String) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
    }

    deinit {
        close(descriptor)
    }

    /// Whether a connection in another process has the store open: every connection holds a
    /// shared lock on the index's "dead man switch" byte while it has the file mapped
    /// (`UNIX_SHM_DMS`, byte 128, in SQLite's os_unix.c).
    var isOpenElsewhere: Bool {
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 128
        lock.l_len = 1
        // A lock that cannot be tested is taken as held: the check is then skipped, not wrong.
        guard fcntl(descriptor, F_GETLK, &lock) == 0 else { return true }
        return lock.l_type != Int16(F_UNLCK)
    }

    /// The index's header, nil when the file holds no valid one.
    var index: SharedMemoryIndex? {
        var bytes = [UInt8](repeating: 0, count: 136)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 136, 0) }
        return count >= 100 ? SharedMemoryIndex(header: bytes) : nil
    }
}

/// The header of a store's `-shm` file, in the byte order of the machine that wrote it: which log
/// it indexes (salts), how many of its frames are committed, and how many of those a checkpoint
/// has copied into the store.
struct SharedMemoryIndex {
    let frameCount: Int
    let copiedFrameCount: Int
    let salt: ArraySlice<UInt8>

    /// Nil when `bytes` (the file's first 136) hold no valid header.
    init?(header bytes: [UInt8]) {
        // Two copies of the header, written in turn: equal when no writer was between them.
        guard bytes[0..<48] == bytes[48..<96], bytes[12] == 1, Self.native(bytes, 0) == 3_007_000 else { return nil }
        frameCount = Int(Self.native(bytes, 16))
        copiedFrameCount = Int(Self.native(bytes, 96))
        salt = bytes[32..<40]
    }

    /// The little-endian 32-bit word at `offset` (the machines Swift on Linux runs on are).
    private static func native(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}
