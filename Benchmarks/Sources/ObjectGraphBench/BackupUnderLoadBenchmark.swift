import Dispatch
import Foundation
import ObjectGraph
import Synchronization

/// Issue 17's backup under load: a store of N `Person` rows, four contexts saving small
/// transactions continuously, and meanwhile `backup(to:)` taken K times. The claim under test is
/// that no save is blocked longer than one backup step: the backup copies every page in one
/// `sqlite3_backup_step` on a read-only connection of its own, and in WAL mode a reader never
/// holds up a writer, so saves should not wait for it at all.
///
///     objectgraph-bench --backup-under-load [N] [K] [BACKUP_DIR]
///
/// BACKUP_DIR (default: beside the store, in the temporary folder) puts the backups on another
/// file system (e.g. /dev/shm), to see how much of the backup's effect on saves is its writes
/// competing with the store's for the disk.
///
/// The time line, after the writers have warmed up for a second and one warm-up backup: K times
/// a backup, a stretch as long as it right after it (where the WAL checkpoints the backup's read
/// transaction held back catch up), then a quiet stretch as long again. Saves are classed by the
/// stretch they fall in, so each class is measured over the same total time.
enum BackupUnderLoadBenchmark {
    static let writers = 4
    /// Objects each writer changes, cycling through them, two per save.
    static let targetsPerWriter = 1_000

    static func main(_ arguments: [String]) throws -> Bool {
        let count = arguments.count > 1 ? Int(arguments[1]) ?? 200_000 : 200_000
        let backups = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
        guard count >= writers * targetsPerWriter, backups > 0 else {
            throw VerificationFailure(description: "--backup-under-load needs N ≥ \(writers * targetsPerWriter) and K > 0")
        }
        let name = "objectgraph-backup-bench-\(UUID().uuidString)"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        let backupDirectory = arguments.count > 3 ? URL(fileURLWithPath: arguments[3]).appendingPathComponent(name) : directory
        for folder in [directory, backupDirectory] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        defer {
            for folder in [directory, backupDirectory] { try? FileManager.default.removeItem(at: folder) }
        }
        return try run(count: count, backups: backups, in: directory, backupsIn: backupDirectory)
    }

    private static func run(count: Int, backups: Int, in directory: URL, backupsIn backupDirectory: URL) throws -> Bool {
        let model = try ManagedObjectModel(contentsOf: Options.defaultModelsDirectory.appendingPathComponent("Benchmark.json"))
        let store = directory.appendingPathComponent("store.sqlite")
        let container = try open(store, model: model)
        let pool = PersonPool(count: count, seed: Dataset.defaultSeed)
        let filler = container.newBackgroundContext()
        try filler.performAndWait {
            _ = try filler.execute(BatchInsertRequest(entityName: "Person", count: count) { index, values in
                try pool.row(index).write(into: &values)
            })
        }

        print("Backup under load: \(count) Person rows, \(writers) contexts saving continuously (each save inserts 1 row and changes the score of 2), \(backups) backups + 1 warm-up")
        let load = SaveLoad(container: container, pool: pool, rowCount: count)
        load.start()
        let clock = ContinuousClock()
        var timeline = SaveTimeline()
        Thread.sleep(forTimeInterval: 1)
        let warmUp = try backUp(container, to: backupDirectory.appendingPathComponent("backup-0.sqlite"))
        Thread.sleep(forTimeInterval: 2 * warmUp.seconds)
        for number in 1...backups {
            let backupStart = clock.now
            let stretch = try backUp(container, to: backupDirectory.appendingPathComponent("backup-\(number).sqlite")).seconds
            timeline.backups.append(backupStart..<clock.now)
            let afterStart = clock.now
            Thread.sleep(forTimeInterval: stretch)
            timeline.after.append(afterStart..<clock.now)
            let quietStart = clock.now
            Thread.sleep(forTimeInterval: stretch)
            timeline.quiet.append(quietStart..<clock.now)
        }
        let saves = try load.stop()
        container.persistentStoreCoordinator.removePersistentStore()

        let verified = try verify(store: store, backups: (0...backups).map { backupDirectory.appendingPathComponent("backup-\($0).sqlite") },
                                  model: model, rowCount: count, saves: saves.count)
        report(timeline.classify(saves), backups: timeline.backups.map { ($0.upperBound - $0.lowerBound).seconds }, verified: verified)
        return verified.failures.isEmpty
    }

    /// The contract's file settings: WAL, synchronous=NORMAL.
    static func open(_ url: URL, model: ManagedObjectModel) throws -> PersistentContainer {
        let container = PersistentContainer(name: "BackupUnderLoad", managedObjectModel: model)
        var description = PersistentStoreDescription(url: url)
        description.sqlitePragmas = ["journal_mode": "WAL", "synchronous": "NORMAL"]
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }

    /// One timed backup: all of `backup(to:)`, whose work is a single backup step.
    private static func backUp(_ container: PersistentContainer, to url: URL) throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        try container.persistentStoreCoordinator.backup(to: url)
        return clock.now - start
    }

    /// What the run checked after the measurement.
    struct Verification {
        var failures: [String] = []
        var backupRows: [Int] = []
        var backupMegabytes: [Double] = []
    }

    /// Every backup opens, passes `checkIntegrity()` and holds between N rows and the final count,
    /// no fewer than the backup before it; the store holds N rows plus one per save that returned.
    private static func verify(store: URL, backups: [URL], model: ManagedObjectModel, rowCount: Int, saves: Int) throws -> Verification {
        var verification = Verification()
        let finalCount = rowCount + saves
        let stored = try rows(in: store, model: model, failures: &verification.failures, name: "the store")
        if stored != finalCount {
            verification.failures.append("the store holds \(stored) rows, expected \(rowCount) + \(saves) saves = \(finalCount)")
        }
        for (number, backup) in backups.enumerated() {
            let size = ((try? FileManager.default.attributesOfItem(atPath: backup.path))?[.size] as? Int) ?? 0
            verification.backupMegabytes.append(Double(size) / 1_048_576)
            let rows = try rows(in: backup, model: model, failures: &verification.failures, name: "backup \(number)")
            if rows < max(rowCount, verification.backupRows.last ?? 0) || rows > finalCount {
                verification.failures.append("backup \(number) holds \(rows) rows, outside \(max(rowCount, verification.backupRows.last ?? 0))…\(finalCount)")
            }
            verification.backupRows.append(rows)
        }
        return verification
    }

    /// Opens a store, records any problem `checkIntegrity()` finds, and counts its `Person` rows.
    private static func rows(in url: URL, model: ManagedObjectModel, failures: inout [String], name: String) throws -> Int {
        let container = try open(url, model: model)
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let report = try container.persistentStoreCoordinator.checkIntegrity()
        if !report.isSound { failures.append("\(name) fails the integrity check: \(report)") }
        let context = container.newBackgroundContext()
        return try context.performAndWait { try context.count(for: FetchRequest<ManagedObject>(entityName: "Person")) }
    }

    private static func report(_ classes: SaveClasses, backups seconds: [Double], verified: Verification) {
        print("| stretch | seconds | saves | saves/s | p50 ms | p99 ms | max ms |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for (name, figures) in [("without backup", classes.quiet), ("during backup", classes.during), ("right after backup", classes.after)] {
            print(String(format: "| %@ | %.3f | %d | %.0f | %.2f | %.2f | %.2f |", name, figures.seconds, figures.latencies.count,
                         figures.savesPerSecond, figures.percentile(0.5) * 1000, figures.percentile(0.99) * 1000, figures.maximum * 1000))
        }
        let sorted = seconds.sorted()
        let median = sorted[sorted.count / 2]
        print(String(format: "backup (one step each, %d counted): median %.3f s, min %.3f s, max %.3f s; %.1f MB; %d to %d rows",
                     sorted.count, median, sorted.first!, sorted.last!, verified.backupMegabytes.last ?? 0,
                     verified.backupRows.first ?? 0, verified.backupRows.last ?? 0))
        let quiet = classes.quiet, during = classes.during
        print(String(format: "during / without backup: p50 %.2f×, p99 %.2f×, max %.2f×, saves/s %.2f×",
                     during.percentile(0.5) / quiet.percentile(0.5), during.percentile(0.99) / quiet.percentile(0.99),
                     during.maximum / quiet.maximum, during.savesPerSecond / quiet.savesPerSecond))
        // Each save against the step of the backup it overlapped: a backup's length varies
        // with the WAL it must read through, so the shortest step of the run is no yardstick.
        if let worst = classes.largestShare {
            print(String(format: "claim \"no save is blocked longer than one backup step\": %@; the save taking the largest share of its backup's step took %.1f ms of a %.1f ms step (%.0f%%); longest save during a backup %.1f ms, without %.1f ms",
                         worst.share < 1 ? "holds" : "does not hold", worst.seconds * 1000, worst.backupSeconds * 1000, worst.share * 100,
                         during.maximum * 1000, quiet.maximum * 1000))
        }
        let placed = classes.longestDuring.map { String(format: "%.1f ms from %+.0f ms of a %.0f ms backup", $0.seconds * 1000, $0.startOffset * 1000, $0.backupSeconds * 1000) }
        print("longest saves during backups: " + placed.joined(separator: "; ") + String(
            format: "; %d of %d saves during backups took longer than the longest without", during.latencies.filter { $0 > quiet.maximum }.count, during.latencies.count))
        if verified.failures.isEmpty {
            print("all \(verified.backupRows.count) backups (warm-up included) open and pass checkIntegrity(); the store holds every save")
        } else {
            for failure in verified.failures { print("FAILED: \(failure)") }
        }
    }
}
