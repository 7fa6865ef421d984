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
    /// A store that a connection has open, in this process or another, is not checked: its log is
    /// live, and reading its `-shm` file here would drop this process's locks on it (see
    /// `OpenDatabaseFiles`).
    static func problem(storePath: String) -> String? {
        OpenDatabaseFiles.unlessOpenInThisProcess(path: storePath) {
            guard let first = inspectUnlessOpenElsewhere(storePath: storePath) else { return nil }
            Thread.sleep(forTimeInterval: 0.05)
            return inspectUnlessOpenElsewhere(storePath: storePath) == nil ? nil : first
        }
    }

    /// What `inspect` finds, or nil when another process has the store open before or after the
    /// look (a process that opens, writes and closes it in between is seen by the second look).
    private static func inspectUnlessOpenElsewhere(storePath: String) -> String? {
        let sharedMemory = SharedMemoryFile(path: storePath + "-shm")
        guard sharedMemory?.isOpenElsewhere != true else { return nil }
        let problem = inspect(storePath: storePath, index: sharedMemory?.index)
        return sharedMemory?.isOpenElsewhere == true ? nil : problem
    }

    private static func inspect(storePath: String, index: SharedMemoryIndex?) -> String? {
        let logPath = storePath + "-wal"
        let logBytes = FileManager.default.contents(atPath: logPath).map { [UInt8]($0) }
        let log = logBytes.flatMap(WriteAheadLog.init)
        if let index, index.frameCount > index.copiedFrameCount {
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
