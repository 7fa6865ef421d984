import Foundation

/// The check, before SQLite opens a store, that its `-wal` file holds every commit it should.
/// SQLite reads a log only up to its first damaged frame and treats a missing log as empty, so a
/// store whose log was deleted or damaged opens with older data and no word, and its next save
/// overwrites what was left. Two things show such a loss:
/// - the `-shm` index (left by a program that did not close the store) records committed frames
///   not yet copied into the store that the log no longer has, or has with other salts;
/// - the log itself holds commit frames of its own generation after a frame that fails its checks.
/// A log deleted together with its `-shm` file, or damaged in its last commit only, cannot be told
/// from one that never held more: that loss stays undetected.
enum WriteAheadLogCheck {
    /// What is wrong with the store's log, or nil. A problem is confirmed by a second look a
    /// moment later, because a process writing the store can be caught between two writes.
    static func problem(storePath: String) -> String? {
        guard let first = inspect(storePath: storePath) else { return nil }
        Thread.sleep(forTimeInterval: 0.05)
        return inspect(storePath: storePath) == nil ? nil : first
    }

    private static func inspect(storePath: String) -> String? {
        let logPath = storePath + "-wal"
        let logBytes = FileManager.default.contents(atPath: logPath).map { [UInt8]($0) }
        let log = logBytes.flatMap(WriteAheadLog.init)
        if let index = SharedMemoryIndex(path: storePath + "-shm"), index.frameCount > index.copiedFrameCount {
            let pending = index.frameCount - index.copiedFrameCount
            guard let logBytes else {
                return
                    "its -wal file is missing, but the -shm file records \(pending) committed \(pending == 1 ? "frame" : "frames") of changes in it not yet copied into the store"
            }
            guard let log, log.headerIsValid, log.salt.elementsEqual(index.salt) else {
                return
                    "its -wal file (\(logBytes.count) bytes) is damaged or is not the log the -shm file records (\(index.frameCount) committed frames)"
            }
            if log.committedFrameCount < index.frameCount {
                return
                    "its -wal file holds \(log.committedFrameCount) readable committed frames of the \(index.frameCount) the -shm file records (it is damaged or was cut short)"
            }
        }
        if let log, log.commitsAfterDamage > 0 {
            return
                "its -wal file is damaged after frame \(log.committedFrameCount): \(log.commitsAfterDamage) later \(log.commitsAfterDamage == 1 ? "commit" : "commits") in it cannot be read"
        }
        if let logBytes, logBytes.count >= WriteAheadLog.headerSize + WriteAheadLog.frameHeaderSize + 512, !(log?.headerIsValid ?? false) {
            return "its -wal file (\(logBytes.count) bytes) has a damaged header, so none of the changes in it can be read"
        }
        return nil
    }
}

/// The header of a store's `-shm` file (SQLite's wal-index), in the byte order of the machine that
/// wrote it: which log it indexes (salts), how many of its frames are committed, and how many of
/// those a checkpoint has copied into the store. Nil when there is no file or no valid header.
struct SharedMemoryIndex {
    let frameCount: Int
    let copiedFrameCount: Int
    let salt: ArraySlice<UInt8>

    init?(path: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 136), data.count >= 100 else { return nil }
        let bytes = [UInt8](data)
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
