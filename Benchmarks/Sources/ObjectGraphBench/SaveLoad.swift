import Dispatch
import Foundation
import ObjectGraph
import Synchronization

/// The load of the backup benchmark: `BackupUnderLoadBenchmark.writers` background contexts, each
/// on a thread of its own, saving back to back until stopped. Each save inserts one new `Person`
/// and changes the score of two existing ones, from a block of the table no other writer touches
/// (so no save fails on another's change). Every save's start and end are recorded.
final class SaveLoad: Sendable {
    struct Save: Sendable {
        var start: ContinuousClock.Instant
        var end: ContinuousClock.Instant
        var seconds: Double { (end - start).seconds }
    }

    private let container: PersistentContainer
    private let pool: PersonPool
    private let rowCount: Int
    private let state = SharedRunState()
    private let saves = Mutex<[Save]>([])
    private let finished = DispatchGroup()

    init(container: PersistentContainer, pool: PersonPool, rowCount: Int) {
        self.container = container
        self.pool = pool
        self.rowCount = rowCount
    }

    func start() {
        for writer in 0..<BackupUnderLoadBenchmark.writers {
            let context = container.newBackgroundContext()
            finished.enter()
            // Threads of their own rather than Dispatch's pool, so the main thread's backups never
            // wait for a free worker thread on 2 cores.
            Thread { [self] in
                defer { finished.leave() }
                do { try write(writer, on: context) } catch { state.fail(error) }
            }.start()
        }
    }

    /// Stops the writers and returns every save they made; throws the first error one hit.
    func stop() throws -> [Save] {
        state.finish()
        finished.wait()
        try state.check()
        return saves.withLock { $0 }
    }

    private func write(_ writer: Int, on context: ManagedObjectContext) throws {
        let writers = BackupUnderLoadBenchmark.writers
        let targetCount = BackupUnderLoadBenchmark.targetsPerWriter
        try context.performAndWait {
            // The writer's block starts a quarter of the table further than the previous one's, so
            // the changes land on pages all over the file, as an app's would.
            let first = writer * (rowCount / writers) + 1
            let request = FetchRequest<ManagedObject>(
                entityName: "Person", predicate: try FetchPredicate(format: "id >= %d AND id < %d", first, first + targetCount),
                sortDescriptors: [FetchSortDescriptor(key: "id")])
            let targets = try context.fetch(request)
            guard targets.count == targetCount else {
                throw VerificationFailure(description: "writer \(writer) found \(targets.count) of its \(targetCount) objects")
            }
            let clock = ContinuousClock()
            var made: [Save] = []
            var number = 0
            while !state.isFinished {
                // Pool row N + k has id N + k + 1: past the table, and distinct across writers.
                try context.insertPerson(pool.row(rowCount + number * writers + writer))
                for target in [targets[(2 * number) % targetCount], targets[(2 * number + 1) % targetCount]] {
                    let score = try target.value(forKey: "score", as: Double.self) ?? 0
                    try target.setValue(WorkloadParameters.newScore(score), forKey: "score")
                }
                let start = clock.now
                try context.save()
                made.append(Save(start: start, end: clock.now))
                number += 1
            }
            saves.withLock { $0 += made }
        }
    }
}
