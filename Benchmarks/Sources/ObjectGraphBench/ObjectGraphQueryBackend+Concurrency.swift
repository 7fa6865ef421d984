import Dispatch
import Foundation
import ObjectGraph

/// The concurrency workloads through ObjectGraph's public API: background contexts, `perform`
/// and `performAndWait`, `save`, `fetch`. The store is ObjectGraph's W1 store (indexed for C1),
/// opened as for the query workloads.
extension ObjectGraphQueryBackend: ConcurrencyBackend {
    func fetchLatencies(_ parameters: WorkloadParameters, newRows: [PersonRow]) throws -> FetchLatencies {
        var request = FetchRequest<ManagedObject>(entityName: "Person", predicate: try FetchPredicate(format: "age == %d", parameters.equalAge))
        request.fetchLimit = parameters.smallFetchLimit
        let reader = container.newBackgroundContext()
        func fetch() throws -> Checksum {
            var rows = Checksum()
            for person in try reader.fetch(request) { try rows.append(PersonRow(person)) }
            return rows
        }
        let idle = try reader.performAndWait { () throws -> (latencies: [Double], rows: Checksum?) in
            var first: Checksum?
            let latencies = try measureFetches(count: parameters.latencySamples, first: &first, fetch)
            return (latencies, first)
        }

        // Another background context inserts the rows, then saves them in one transaction; the
        // fetches run from just before its save() to its end.
        let writer = container.newBackgroundContext()
        let saving = DispatchSemaphore(value: 0)
        let saved = DispatchSemaphore(value: 0)
        let shared = SharedRunState()
        writer.perform {
            do {
                for row in newRows { try writer.insertPerson(row) }
                saving.signal()
                try writer.save()
                shared.finish()
                writer.reset()
            } catch {
                saving.signal()
                shared.fail(error)
            }
            saved.signal()
        }
        saving.wait()
        let during = try reader.performAndWait { () throws -> [Double] in
            var first = idle.rows
            return try measureFetches(while: { !shared.isFinished }, first: &first, fetch)
        }
        saved.wait()
        try shared.check()
        return FetchLatencies(idle: idle.latencies, during: during, rows: idle.rows ?? Checksum())
    }

    func concurrentSmallSaves(_ parameters: WorkloadParameters, newRows: [PersonRow]) throws -> Int {
        let perWriter = parameters.writerTransactions
        let contexts = (0..<parameters.concurrentWriters).map { _ in container.newBackgroundContext() }
        let shared = SharedRunState()
        DispatchQueue.concurrentPerform(iterations: contexts.count) { writer in
            let context = contexts[writer]
            do {
                try context.performAndWait { () throws in
                    // The objects this writer changes, one per transaction, in id order.
                    let first = writer * perWriter + 1
                    let request = FetchRequest<ManagedObject>(
                        entityName: "Person", predicate: try FetchPredicate(format: "id >= %d AND id <= %d", first, first + perWriter - 1),
                        sortDescriptors: [FetchSortDescriptor(key: "id")])
                    let targets = try context.fetch(request)
                    guard targets.count == perWriter else {
                        throw VerificationFailure(description: "writer \(writer) found \(targets.count) of its \(perWriter) objects")
                    }
                    for (number, target) in targets.enumerated() {
                        try context.insertPerson(newRows[writer * perWriter + number])
                        let score = try target.value(forKey: "score", as: Double.self) ?? 0
                        try target.setValue(WorkloadParameters.newScore(score), forKey: "score")
                        try context.save()
                    }
                }
            } catch {
                shared.fail(error)
            }
        }
        try shared.check()
        return contexts.count * perWriter
    }
}
