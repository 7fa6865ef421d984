import Foundation
import ObjectGraph
import ObjectGraphPostgres

/// ObjectGraph through its public, Core Data–style API: a container on the store file, a
/// background context used directly from this one thread, `ManagedObject`s read and written by
/// key. `id` is the entity's primary key. With `typed`, the generated `Person` class is
/// registered and W1 and W2 use its properties instead of keys. With `prepared`, W5 and W6 take
/// the shortcuts of the figures before issue 21: W5 deletes objects fetched before the timer, W6
/// looks up object IDs built before it.
final class ObjectGraphBackend: Backend {
    private let container: PersistentContainer
    private var deleteKeys: [Int64] = []
    private var lookupKeys: [Int64] = []
    /// The prepared W5: the objects to delete, and their context (objects refer to it weakly).
    private var deleteContext: ManagedObjectContext?
    private var objectsToDelete: [ManagedObject] = []
    /// The prepared W6: the object IDs to look up.
    private var lookupIDs: [ManagedObjectID] = []
    private let location: StoreLocation
    private let typed: Bool
    private let prepared: Bool

    init(location: StoreLocation, typed: Bool = false, prepared: Bool = false) throws {
        self.location = location
        self.typed = typed
        self.prepared = prepared
        container = try openContainer(model: Self.modelName(location), at: location, classes: typed ? BenchmarkClasses.all : [])
    }

    private static func modelName(_ location: StoreLocation) -> String {
        location.indexed ? "BenchmarkIndexed.json" : "Benchmark.json"
    }

    func close() throws {
        container.persistentStoreCoordinator.removePersistentStore()
    }

    func insert(_ rows: [PersonRow]) throws {
        let context = container.newBackgroundContext()
        if typed {
            for row in rows { Person(context: context).fill(from: row) }
        } else {
            for row in rows { try context.insertPerson(row) }
        }
        try context.save()
    }

    func fetchAll() throws -> Checksum {
        let context = container.newBackgroundContext()
        if typed {
            var checksum = Checksum()
            for person in try context.fetch(Person.fetchRequest()) { checksum.add(PersonRow(person)) }
            return checksum
        }
        let people = try context.fetch(FetchRequest<ManagedObject>(entityName: "Person"))
        var checksum = Checksum()
        for person in people { try checksum.add(PersonRow(person)) }
        return checksum
    }

    func queryAgeRange(_ parameters: WorkloadParameters) throws -> Checksum {
        let context = container.newBackgroundContext()
        var request = FetchRequest<ManagedObject>(entityName: "Person")
        request.predicate = try FetchPredicate(format: "age BETWEEN {\(parameters.ageRange.lowerBound), \(parameters.ageRange.upperBound)}")
        request.sortDescriptors = [FetchSortDescriptor(key: "name")]
        request.fetchLimit = parameters.queryLimit
        var total = Checksum()
        for _ in 0..<parameters.queries {
            let people = try context.fetch(request)
            var checksum = Checksum()
            for person in people { try checksum.append(PersonRow(person)) }
            total.combine(checksum)
        }
        return total
    }

    func updateAllScores() throws -> Checksum {
        let context = container.newBackgroundContext()
        let people = try context.fetch(FetchRequest<ManagedObject>(entityName: "Person"))
        var checksum = Checksum()
        for person in people {
            let row = try PersonRow(person)
            checksum.add(row)
            try person.setValue(WorkloadParameters.newScore(row.score), forKey: "score")
        }
        try context.save()
        return checksum
    }

    /// The batched fetch: one query for every key, then one per batch of `batchSize` objects;
    /// the collection keeps only the batch it is in, and the context holds unchanged objects
    /// weakly, so earlier batches are released as the loop goes.
    func iterateNames(batchSize: Int) throws -> Checksum {
        let context = container.newBackgroundContext()
        let request = FetchRequest<ManagedObject>(entityName: "Person")
        let people = try context.fetch(request, batchSize: batchSize)
        var checksum = Checksum()
        for person in people {
            guard let name = try person.value(forKey: "name", as: String.self) else {
                throw VerificationFailure(description: "Person.name of \(person.objectID) is missing")
            }
            checksum.addName(name)
        }
        return checksum
    }

    /// Keeps the wanted ids: the deletes go from the key to the object as a user writes them,
    /// inside the timer (no objects fetched before it). Prepared: fetches the objects now.
    func prepareDelete(ids: [Int64]) throws {
        guard prepared else {
            deleteKeys = ids
            return
        }
        let context = container.newBackgroundContext()
        objectsToDelete = try context.existingObjects(ofEntity: "Person", primaryKeys: ids)
        deleteContext = context
    }

    func deletePrepared() throws -> Int {
        guard let context = deleteContext else {
            let context = container.newBackgroundContext()
            for id in deleteKeys { context.delete(try context.object(ofEntity: "Person", primaryKey: id)) }
            try context.save()
            return deleteKeys.count
        }
        for object in objectsToDelete { context.delete(object) }
        try context.save()
        defer { objectsToDelete = [] }
        return objectsToDelete.count
    }

    /// Keeps the wanted ids: the lookups go from the key to the object as a user writes them,
    /// inside the timer (no object IDs prepared). Prepared: builds the object IDs now.
    func prepareLookups(ids: [Int64]) throws {
        if prepared {
            lookupIDs = try container.newBackgroundContext().objectIDs(forEntity: "Person", primaryKeys: ids)
        } else {
            lookupKeys = ids
        }
    }

    func lookUpPrepared() throws -> Checksum {
        let context = container.newBackgroundContext()
        var checksum = Checksum()
        if prepared {
            for id in lookupIDs { try checksum.append(PersonRow(context.existingObject(with: id))) }
        } else {
            for id in lookupKeys {
                try checksum.append(PersonRow(context.existingObject(ofEntity: "Person", primaryKey: id)))
            }
        }
        return checksum
    }
}

/// A container on `location`'s store file (or its PostgreSQL database, when it names one) with
/// the model file `model` of the models folder, and `classes` registered for their entities; with `OBJECTGRAPH_BENCH_HISTORY=1` in the environment,
/// the store records persistent history (what it costs is the measure).
func openContainer(model: String, at location: StoreLocation, classes: [any EntityClass.Type] = []) throws -> PersistentContainer {
    let model = try ManagedObjectModel(contentsOf: location.modelsDirectory.appendingPathComponent(model))
    try model.register(classes)
    let container = PersistentContainer(name: "Bench", managedObjectModel: model)
    var description: PersistentStoreDescription
    if let postgresURL = location.postgresURL {
        description = PersistentStoreDescription(postgresURL: postgresURL)
    } else {
        // The defaults are the contract's settings (WAL, synchronous=NORMAL); say so anyway.
        description = PersistentStoreDescription(url: location.url)
        description.sqlitePragmas = ["journal_mode": "WAL", "synchronous": "NORMAL"]
    }
    description.recordsPersistentHistory = ProcessInfo.processInfo.environment["OBJECTGRAPH_BENCH_HISTORY"] == "1"
    container.persistentStoreDescriptions = [description]
    try container.loadPersistentStores()
    return container
}

extension ManagedObjectContext {
    /// Inserts a `Person` holding `row`, through the public key-value API (W1, C1, C2).
    func insertPerson(_ row: PersonRow) throws {
        var person = try insertNewObject(forEntityName: "Person")
        try row.write(into: &person)
    }
}

extension PersonRow {
    /// Reads every attribute of `person` through the public typed key-value API; a missing or
    /// mistyped value fails the run.
    init(_ person: ManagedObject) throws {
        func required<T>(_ key: String, _ value: T?) throws -> T {
            guard let value else {
                throw VerificationFailure(description: "Person.\(key) of \(person.objectID) is missing")
            }
            return value
        }
        self.init(
            id: try required("id", person.value(forKey: "id", as: Int64.self)),
            name: try required("name", person.value(forKey: "name", as: String.self)),
            email: try required("email", person.value(forKey: "email", as: String.self)),
            age: try required("age", person.value(forKey: "age", as: Int64.self)),
            score: try required("score", person.value(forKey: "score", as: Double.self)),
            createdAt: try required("createdAt", person.value(forKey: "createdAt", as: Date.self)).timeIntervalSinceReferenceDate,
            bio: try person.value(forKey: "bio", as: String.self)
        )
    }
}
