import Foundation
import Logging

/// Backups a store takes by itself after saves (`PersistentStoreDescription.automaticBackups`):
/// one every `everySaves` saves or `interval` seconds (whichever comes first; either may be
/// `nil`), into `directory`, the newest `keep` kept. Each is an online backup
/// (`PersistentStoreCoordinator.backup(to:)`), taken on a background queue so no save waits for
/// it; a backup that fails is logged and the next one tried at the next turn.
public struct AutomaticBackups: Sendable {
    /// Where the backups go, named `<store>-<UTC date and time>.sqlite`.
    public var directory: URL
    /// How many to keep; older ones are deleted.
    public var keep: Int
    /// Take one after this many saves, if set.
    public var everySaves: Int?
    /// Take one when this many seconds have passed since the last, at the next save, if set.
    public var interval: TimeInterval?

    /// Backups into `directory`, the newest `keep` kept, every `everySaves` saves and/or every
    /// `interval` seconds.
    public init(directory: URL, keep: Int, everySaves: Int? = nil, interval: TimeInterval? = nil) {
        self.directory = directory
        self.keep = keep
        self.everySaves = everySaves
        self.interval = interval
    }
}

/// The schedule of one coordinator's automatic backups: counts saves, decides when a backup is
/// due, and takes it on its own serial queue.
final class BackupSchedule: Sendable {
    private struct State {
        var savesSinceBackup = 0
        var lastBackup = ProcessInfo.processInfo.systemUptime
    }

    let settings: AutomaticBackups
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "ObjectGraph.AutomaticBackups", qos: .utility)

    init(_ settings: AutomaticBackups) {
        self.settings = settings
    }

    /// Counts a save; when a backup is due, takes it (in the background) with `backup`.
    func noteSave(_ backup: @escaping @Sendable (URL) throws -> Void, storeName: String) {
        let settings = settings
        let due = state.withLock { state -> Bool in
            state.savesSinceBackup += 1
            let bySaves = settings.everySaves.map { state.savesSinceBackup >= $0 } ?? false
            let byTime = settings.interval.map { ProcessInfo.processInfo.systemUptime - state.lastBackup >= $0 } ?? false
            guard bySaves || byTime else { return false }
            state.savesSinceBackup = 0
            state.lastBackup = ProcessInfo.processInfo.systemUptime
            return true
        }
        guard due else { return }
        queue.async {
            do {
                try FileManager.default.createDirectory(at: settings.directory, withIntermediateDirectories: true)
                let stamp = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)).replacingOccurrences(
                    of: ":", with: "-")
                try backup(settings.directory.appendingPathComponent("\(storeName)-\(stamp).sqlite"))
                try Self.prune(settings, storeName: storeName)
            } catch {
                Logger(label: "ObjectGraph.Backups").error("automatic backup into \(settings.directory.path) failed: \(error)")
            }
        }
    }

    /// Waits until the backups due so far are taken (for tests and for shutting down).
    func waitUntilIdle() {
        queue.sync {}
    }

    /// Deletes all but the newest `keep` backups of the store (their names sort by time).
    private static func prune(_ settings: AutomaticBackups, storeName: String) throws {
        let backups = try FileManager.default.contentsOfDirectory(atPath: settings.directory.path)
            .filter { $0.hasPrefix(storeName + "-") && $0.hasSuffix(".sqlite") }.sorted()
        for name in backups.dropLast(max(settings.keep, 1)) {
            try FileManager.default.removeItem(at: settings.directory.appendingPathComponent(name))
        }
    }
}
