import Foundation

/// The whole stack in one object: a model, a coordinator, its store, a main-queue
/// `viewContext`, and background contexts on demand — as `NSPersistentContainer`.
///
/// ```swift
/// let container = PersistentContainer(name: "Library", managedObjectModel: model)
/// try container.loadPersistentStores()
/// let context = container.viewContext
/// ```
public final class PersistentContainer: Sendable {
    /// The container's name; the default store file is `<name>.sqlite`.
    public let name: String
    /// The model of every store and context of the container.
    public let managedObjectModel: ManagedObjectModel
    /// The coordinator shared by the container's contexts.
    public let persistentStoreCoordinator: PersistentStoreCoordinator
    /// The main-queue context, for the program's main flow.
    public let viewContext: ManagedObjectContext
    private let descriptions: Locked<[PersistentStoreDescription]>

    /// A container named `name` for `model`. Its store description defaults to a SQLite file
    /// named `<name>.sqlite` in `defaultDirectoryURL()`; change `persistentStoreDescriptions`
    /// before loading to use another file or an in-memory store.
    public init(name: String, managedObjectModel model: ManagedObjectModel) {
        self.name = name
        self.managedObjectModel = model
        self.persistentStoreCoordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let defaultURL = Self.defaultDirectoryURL().appendingPathComponent("\(name).sqlite")
        self.descriptions = Locked([PersistentStoreDescription(url: defaultURL)])
        self.viewContext = ManagedObjectContext(concurrencyType: .mainQueue)
        viewContext.name = "viewContext"
        viewContext.persistentStoreCoordinator = persistentStoreCoordinator
    }

    /// A container named `name` for the model of the same name, found in the program's bundles
    /// as `ManagedObjectModel(named:)` finds it: Core Data's `NSPersistentContainer(name:)`.
    /// Throws `.invalidModel` when there is no such model or it is invalid.
    public convenience init(name: String) throws {
        self.init(name: name, managedObjectModel: try ManagedObjectModel(named: name))
    }

    /// A container named `name` for `model`: `init(name:managedObjectModel:)` in short.
    public convenience init(name: String, model: ManagedObjectModel) {
        self.init(name: name, managedObjectModel: model)
    }

    /// The stores `loadPersistentStores` opens (one is supported).
    public var persistentStoreDescriptions: [PersistentStoreDescription] {
        get { descriptions.withLock { $0 } }
        set { descriptions.withLock { $0 = newValue } }
    }

    /// Where stores live by default: `$XDG_DATA_HOME` (or `~/.local/share`), as Linux expects.
    public static func defaultDirectoryURL() -> URL {
        if let dataHome = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], !dataHome.isEmpty {
            return URL(fileURLWithPath: dataHome, isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share", isDirectory: true)
    }

    /// Opens the described stores, calling `completionHandler` once per description with the
    /// error that prevented opening it, or `nil`.
    public func loadPersistentStores(completionHandler: (PersistentStoreDescription, (any Error)?) -> Void) {
        for description in persistentStoreDescriptions {
            do {
                try persistentStoreCoordinator.addPersistentStore(with: description)
                completionHandler(description, nil)
            } catch {
                completionHandler(description, error)
            }
        }
    }

    /// Opens the described stores; throws the first error.
    public func loadPersistentStores() throws {
        for description in persistentStoreDescriptions {
            try persistentStoreCoordinator.addPersistentStore(with: description)
        }
    }

    /// Opens the described stores without blocking the caller's thread; throws the first error.
    public func loadPersistentStores() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try self.loadPersistentStores() })
            }
        }
    }

    /// Closes the container's store, for tests and tools that are done with it: waits for the
    /// automatic backups due so far, then detaches the store and closes it (SQLite checkpoints
    /// its write-ahead log and releases the file), so the file can be copied, moved or opened
    /// elsewhere. The container's contexts can no longer fetch or save until
    /// `loadPersistentStores()` opens the store again. Closing a closed container does nothing.
    public func close() {
        persistentStoreCoordinator.waitForPendingBackups()
        persistentStoreCoordinator.removePersistentStore()
    }

    /// A new private-queue context connected to the container's store.
    public func newBackgroundContext() -> ManagedObjectContext {
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        return context
    }

    /// Runs `block` on a new private-queue context's queue and returns at once.
    public func performBackgroundTask(_ block: @escaping @Sendable (ManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }

    /// Runs `block` on a new private-queue context's queue and returns its result.
    public func performBackgroundTask<T: Sendable>(_ block: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T {
        let context = newBackgroundContext()
        return try await context.perform { try block(context) }
    }
}
