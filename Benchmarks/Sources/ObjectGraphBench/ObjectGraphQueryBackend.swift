import Foundation
import ObjectGraph

/// The query workloads on `Person` through ObjectGraph's public API: predicates in its format
/// language, a values fetch with grouping and aggregates, and batch requests straight to the
/// store. The store is the one ObjectGraph's W1 path builds (the W and M workloads use it too).
final class ObjectGraphQueryBackend: QueryBackend {
    let container: PersistentContainer

    init(location: StoreLocation) throws {
        container = try openContainer(model: location.indexed ? "BenchmarkIndexed.json" : "Benchmark.json", at: location)
    }

    func close() throws {
        container.persistentStoreCoordinator.removePersistentStore()
    }

    /// One request, fetched `queries` times on one context (as W3 does).
    func fetchEqualAgeSortedByName(_ parameters: WorkloadParameters) throws -> Checksum {
        let context = container.newBackgroundContext()
        let request = FetchRequest<ManagedObject>(
            entityName: "Person", predicate: try FetchPredicate(format: "age == %d", parameters.equalAge),
            sortDescriptors: [FetchSortDescriptor(key: "name")])
        var total = Checksum()
        for _ in 0..<parameters.queries {
            var checksum = Checksum()
            for person in try context.fetch(request) { checksum.appendName(try name(of: person)) }
            total.combine(checksum)
        }
        return total
    }

    func searchNames(_ parameters: WorkloadParameters) throws -> Checksum {
        let context = container.newBackgroundContext()
        let request = FetchRequest<ManagedObject>(
            entityName: "Person", predicate: try FetchPredicate(format: "name CONTAINS[cd] %@", parameters.nameNeedle))
        var total = Checksum()
        for _ in 0..<parameters.searches {
            var checksum = Checksum()
            for person in try context.fetch(request) { checksum.addName(try name(of: person)) }
            total.combine(checksum)
        }
        return total
    }

    func averageScoreByAge(_ parameters: WorkloadParameters) throws -> [[AgeGroup]] {
        let context = container.newBackgroundContext()
        var request = FetchRequest<FetchedValues>(entityName: "Person")
        request.propertiesToFetch = [.attribute("age"), .count(as: "n"), .aggregate(.average, of: "score", as: "meanScore")]
        request.propertiesToGroupBy = ["age"]
        request.sortDescriptors = [FetchSortDescriptor(key: "age")]
        var results: [[AgeGroup]] = []
        for _ in 0..<parameters.aggregates {
            results.append(try context.fetch(request).map { row in
                guard let age = row["age"] as? Int64, let count = row.value("n", as: Int.self),
                      let mean = row.value("meanScore", as: Double.self)
                else { throw VerificationFailure(description: "Q4: an incomplete result row \(row)") }
                return AgeGroup(age: age, count: count, meanScore: mean)
            })
        }
        return results
    }

    func batchUpdateScores(_ parameters: WorkloadParameters) throws -> Int {
        let context = container.newBackgroundContext()
        let request = BatchUpdateRequest(
            entityName: "Person", predicate: try FetchPredicate(format: "age < %d", parameters.batchAgeLimit),
            propertiesToUpdate: ["score": parameters.batchScore])
        return try context.execute(request).count
    }

    func batchDelete(_ parameters: WorkloadParameters) throws -> Int {
        let context = container.newBackgroundContext()
        let request = BatchDeleteRequest(entityName: "Person", predicate: try FetchPredicate(format: "age < %d", parameters.batchAgeLimit))
        return try context.execute(request).count
    }

    /// A batch insert filled by a closure: the store writes the rows as the closure makes them.
    func batchInsert(_ people: PersonPool) throws -> Int {
        let context = container.newBackgroundContext()
        let request = BatchInsertRequest(entityName: "Person", count: people.count) { index, values in
            try people.row(index).write(into: &values)
        }
        return try context.execute(request).count
    }

    private func name(of person: ManagedObject) throws -> String {
        guard let name = try person.value(forKey: "name", as: String.self) else {
            throw VerificationFailure(description: "Person.name of \(person.objectID) is missing")
        }
        return name
    }
}
