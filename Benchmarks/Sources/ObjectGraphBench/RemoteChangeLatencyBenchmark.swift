import Foundation
import ObjectGraph
import ObjectGraphPostgres
import Synchronization

/// Issue 20's notification latency: how long after another process's save commits its change
/// is merged into a context of this process (`mergesRemoteChanges`), on SQLite (polling
/// `data_version` every interval) and on PostgreSQL (LISTEN/NOTIFY).
///
///     objectgraph-bench --remote-change-latency [SAVES] [POSTGRES_URL]
///
/// This process opens the store with `mergesRemoteChanges`, holds one `Person` in a context that
/// merges automatically, and starts a writer process (this program again, with
/// `--remote-change-latency-writer`) which changes that person's score SAVES times (default
/// 200), one save every 20 ms, and prints the monotonic clock right after each save returned
/// (so just after its commit). This process notes the clock at each `objectsDidChange` of the
/// context; transactions arrive once each and in order, so the n-th merge is the n-th save.
/// The latency is the difference: the commit-to-merge time, give or take the trip of the
/// commit's answer. SQLite runs at poll intervals of 0.1 s (the default) and 0.01 s; PostgreSQL
/// (when a URL of an empty database, or of one holding a store of the Benchmark model, is given)
/// at the default.
enum RemoteChangeLatencyBenchmark {
    /// Seconds between the writer's saves.
    static let pause = 0.02

    static func main(_ arguments: [String]) throws -> Bool {
        if arguments.first == "--remote-change-latency-writer" { return try writer(Array(arguments.dropFirst())) }
        let saves = arguments.count > 1 ? Int(arguments[1]) ?? 200 : 200
        let model = try ManagedObjectModel(contentsOf: Options.defaultModelsDirectory.appendingPathComponent("Benchmark.json"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("objectgraph-latency-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        print("Remote change latency: \(saves) saves by another process, one every \(Int(pause * 1000)) ms, commit to merged context")
        for interval in [0.1, 0.01] {
            let store = directory.appendingPathComponent("store-\(interval).sqlite")
            try measure("SQLite, polled every \(interval) s", store.path, PersistentStoreDescription(url: store), interval, saves, model)
        }
        if arguments.count > 2, let url = URL(string: arguments[2]) {
            try measure("PostgreSQL, LISTEN/NOTIFY", url.absoluteString, PersistentStoreDescription(postgresURL: url), 0.1, saves, model)
        }
        return true
    }

    /// Runs the writer against the store at `location` and prints the latencies' percentiles.
    private static func measure(
        _ name: String, _ location: String, _ base: PersistentStoreDescription, _ interval: Double, _ saves: Int, _ model: ManagedObjectModel
    ) throws {
        var description = base
        description.recordsPersistentHistory = true
        description.mergesRemoteChanges = true
        description.remoteChangePollInterval = interval
        let container = PersistentContainer(name: "Latency", managedObjectModel: model)
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        let key = Int64.random(in: 1...Int64(Int32.max))
        let person = try context.performAndWait {
            let person = try context.insertNewObject(forEntityName: "Person")
            for (name, value) in [("id", key), ("age", 0)] as [(String, Int64)] { try person.setValue(value, forKey: name) }
            for name in ["name", "email", "bio"] { try person.setValue("latency", forKey: name) }
            try person.setValue(0.0, forKey: "score")
            try person.setValue(Date(), forKey: "createdAt")
            try context.save()
            return person.objectID
        }
        let merged = Mutex<[UInt64]>([])
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.objectsDidChangeNotification, object: context, queue: nil
        ) { notification in
            let now = monotonicNanoseconds()
            guard let changes = ContextChanges(notification), changes.refreshedObjectIDs.contains(person) || changes.updatedObjectIDs.contains(person)
            else { return }
            merged.withLock { $0.append(now) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        process.arguments = ["--remote-change-latency-writer", location, "\(key)", "\(saves)"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw VerificationFailure(description: "the latency writer failed (status \(process.terminationStatus))")
        }
        let committed = String(decoding: printed, as: UTF8.self).split(separator: "\n").compactMap { UInt64($0) }
        let deadline = monotonicNanoseconds() + 10_000_000_000
        while merged.withLock({ $0.count }) < committed.count, monotonicNanoseconds() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let arrivals = merged.withLock { $0 }
        guard committed.count == saves, arrivals.count == saves else {
            throw VerificationFailure(description: "\(name): \(committed.count) saves committed, \(arrivals.count) merged; expected \(saves) of each")
        }
        let latencies = zip(arrivals, committed).map { Double(Int64(bitPattern: $0 &- $1)) / 1_000_000 }.sorted()
        func percentile(_ p: Double) -> Double { latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
        print(
            "  \(name.padding(toLength: 32, withPad: " ", startingAt: 0)) p50 \(format(percentile(0.5))) ms   p99 \(format(percentile(0.99))) ms   max \(format(latencies.last!)) ms"
        )
    }

    /// The writer process: changes the person with `id` KEY SAVES times, printing the clock
    /// after each save.
    private static func writer(_ arguments: [String]) throws -> Bool {
        guard arguments.count == 3, let key = Int64(arguments[1]), let saves = Int(arguments[2]) else {
            throw VerificationFailure(description: "usage: --remote-change-latency-writer LOCATION KEY SAVES")
        }
        let model = try ManagedObjectModel(contentsOf: Options.defaultModelsDirectory.appendingPathComponent("Benchmark.json"))
        var description =
            if arguments[0].hasPrefix("postgres"), let url = URL(string: arguments[0]) {
                PersistentStoreDescription(postgresURL: url)
            } else {
                PersistentStoreDescription(url: URL(fileURLWithPath: arguments[0]))
            }
        description.recordsPersistentHistory = true
        let container = PersistentContainer(name: "LatencyWriter", managedObjectModel: model)
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        var stamps: [UInt64] = []
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Person", predicate: try FetchPredicate(format: "id == %@", NSNumber(value: key)))
            guard let person = try context.fetch(request).first else {
                throw VerificationFailure(description: "the latency writer found no Person with id \(key)")
            }
            for number in 1...saves {
                try person.setValue(Double(number), forKey: "score")
                try context.save()
                stamps.append(monotonicNanoseconds())
                Thread.sleep(forTimeInterval: pause)
            }
        }
        print(stamps.map(String.init).joined(separator: "\n"))
        return true
    }

    /// CLOCK_MONOTONIC, one clock for every process of the machine.
    private static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    private static func format(_ milliseconds: Double) -> String {
        String(format: "%7.2f", milliseconds)
    }
}
