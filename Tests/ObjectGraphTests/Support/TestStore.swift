import Foundation
import ObjectGraphPostgres

@testable import ObjectGraph

/// A loaded container for one conformance test: a SQLite file in a fresh temporary directory
/// (tests run in parallel, so none share a file), an in-memory store, or a new database of the
/// tests' PostgreSQL server. The store is closed and the directory or database removed when the
/// value goes away.
final class TestStore {
    let kind: StoreKind
    /// The container under test; replaced by `reopen()` for SQLite stores.
    private(set) var container: PersistentContainer
    /// The directory holding the SQLite file, `nil` for other stores.
    let directory: URL?
    /// The PostgreSQL database of the store, `nil` for other stores.
    let database: String?
    /// Loads the store's model; called again by `reopen()`, as a restarted program would.
    private let loadModel: () throws -> ManagedObjectModel
    /// The SQLite pragmas of the store's description.
    private let pragmas: [String: String]

    /// A loaded store of `kind` for the conformance model.
    convenience init(_ kind: StoreKind) throws {
        try self.init(kind, model: ConformanceModel.load)
    }

    /// A loaded store of `kind` for the model `loadModel` loads, with `pragmas` for SQLite.
    init(_ kind: StoreKind, model loadModel: @escaping () throws -> ManagedObjectModel, pragmas: [String: String] = [:]) throws {
        self.kind = kind
        self.loadModel = loadModel
        self.pragmas = pragmas
        switch kind {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("ObjectGraphConformance-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            self.directory = directory
            self.database = nil
        case .inMemory:
            self.directory = nil
            self.database = nil
        case .postgreSQL:
            self.directory = nil
            self.database = try PostgreSQLTestServer.shared.get().createDatabase()
        }
        container = try Self.makeContainer(kind, model: try loadModel(), directory: directory, database: database, pragmas: pragmas)
        try container.loadPersistentStores()
    }

    deinit {
        container.persistentStoreCoordinator.removePersistentStore()
        if let directory { try? FileManager.default.removeItem(at: directory) }
        if let database, let server = try? PostgreSQLTestServer.shared.get() { server.dropDatabase(database) }
    }

    /// An unloaded container of `kind`; SQLite stores live in `directory`/Conformance.sqlite,
    /// PostgreSQL stores in `database` of the tests' server.
    static func makeContainer(
        _ kind: StoreKind, model: ManagedObjectModel, directory: URL?, database: String? = nil, pragmas: [String: String] = [:]
    ) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Conformance", managedObjectModel: model)
        switch kind {
        case .sqlite:
            var description = PersistentStoreDescription(url: directory!.appendingPathComponent("Conformance.sqlite"))
            description.sqlitePragmas = pragmas
            container.persistentStoreDescriptions = [description]
        case .inMemory:
            container.persistentStoreDescriptions = [.inMemory]
        case .postgreSQL:
            container.persistentStoreDescriptions = [
                PersistentStoreDescription(postgresURL: try PostgreSQLTestServer.shared.get().url(database: database!))
            ]
        }
        return container
    }

    /// Closes the store and opens the same file or database again in a new container, with a
    /// freshly loaded model: what a program sees after a restart. For in-memory stores the
    /// container stays (its data would vanish with it); callers use a new context instead.
    func reopen() throws {
        guard kind.keepsDataWhenReopened else { return }
        let model = try loadModel()
        container.persistentStoreCoordinator.removePersistentStore()
        container = try Self.makeContainer(kind, model: model, directory: directory, database: database, pragmas: pragmas)
        try container.loadPersistentStores()
    }

    /// A new private-queue context on the container.
    func newContext(name: String? = nil) -> ManagedObjectContext {
        let context = container.newBackgroundContext()
        context.name = name
        return context
    }

    /// Runs `body` on a new context's queue.
    func withNewContext<T>(_ body: (ManagedObjectContext) throws -> T) rethrows -> T {
        let context = newContext()
        return try context.performAndWait { try body(context) }
    }

    /// Inserts an `Item` with `code` and `values` in a new context and saves it: the saved item's ID.
    func savedItem(_ code: String, _ values: [String: Any?] = [:]) throws -> ManagedObjectID {
        try withNewContext { context in
            let item = try context.insertItem(code, values)
            try context.save()
            return item.objectID
        }
    }

    /// Forty items saved (codes R1…R40) and read into a new context `ours`; then the eighteenth
    /// is given `title` by another context and saved: a run of rows of which one is at another
    /// version when `ours` saves.
    func runWithOneRowChangedElsewhere(
        title: String
    ) throws -> (ids: [ManagedObjectID], ours: ManagedObjectContext, objects: [ManagedObject]) {
        let ids = try withNewContext { context in
            let items = try (1...40).map { try context.insertItem("R\($0)") }
            try context.save()
            return items.map(\.objectID)
        }
        let ours = newContext(name: "ours")
        let objects = try ours.performAndWait { try ids.map { try ours.existingObject(with: $0) } }
        try withNewContext { context in
            try context.existingObject(with: ids[17]).setValue(title, forKey: "title")
            try context.save()
        }
        return (ids, ours, objects)
    }

    /// How many objects of `entityName` the store holds, seen from a fresh context.
    func storedCount(_ entityName: String, _ format: String? = nil) throws -> Int {
        try withNewContext { context in
            var request = FetchRequest<ManagedObject>(entityName: entityName)
            if let format { request.predicate = try FetchPredicate(format: format) }
            return try context.count(for: request)
        }
    }

    /// The queries `body` runs on a SQLite store (none are observed for in-memory stores); the
    /// read transaction around a read of several statements is not counted.
    func statements(during body: () throws -> Void) throws -> [String] {
        let sqlite = try container.persistentStoreCoordinator.requireStore() as? SQLiteStore
        let log = SQLiteStatementLog()
        sqlite?.setStatementObserver { log.record($0) }
        defer { sqlite?.setStatementObserver(nil) }
        try body()
        return log.all.filter { $0 != "BEGIN DEFERRED" && $0 != "COMMIT" }
    }
}
