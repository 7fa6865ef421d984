import Foundation

/// Connects contexts to a store: opens it for a model and routes every fetch and save to it.
///
/// A coordinator holds one store (SQLite or in-memory). It is `Sendable` and shared by all the
/// contexts of a container.
public final class PersistentStoreCoordinator: Sendable {
    /// The model every store of this coordinator is opened with.
    public let managedObjectModel: ManagedObjectModel
    private let store = Locked<(any PersistentStore)?>(nil)
    private let validationRules = Locked(ValidationRules())
    /// The attached store's automatic backups, when its description asks for them.
    private let backupSchedule = Locked<BackupSchedule?>(nil)
    private let damagedStoreRecovery = Locked<DamagedStoreRecovery?>(nil)
    /// What brings others' saves to the store, when the description `mergesRemoteChanges`.
    private let remoteChanges = Locked<RemoteChangeObserver?>(nil)
    /// Rows recently fetched by any context of this coordinator.
    let rowCache = RowCache()
    /// The contexts without a parent that merge every save made through this coordinator.
    let mergeTargets = MergeTargets()
    /// The class of each entity's objects, by entity index: the model's registered classes,
    /// sealed when the coordinator was made.
    let objectClasses: [ManagedObject.Type]

    /// A coordinator for `model`, with no store yet. Classes registered with the model
    /// (`ManagedObjectModel.register(_:)`) are fixed from now on.
    public init(managedObjectModel model: ManagedObjectModel) {
        self.managedObjectModel = model
        self.objectClasses = model.classRegistry.seal()
    }

    /// Opens the store that `description` names and attaches it.
    ///
    /// Throws a readable error when the store cannot be opened: the file is not a database,
    /// the location is a directory or not writable, or the store was created by another model.
    public func addPersistentStore(with description: PersistentStoreDescription) throws {
        try store.withLock { current in
            if current != nil {
                throw ObjectGraphError(
                    .invalidOperation,
                    "this coordinator already has a store; one store per coordinator is supported (\(description) was not added)")
            }
            let opened: any PersistentStore
            do {
                opened = try Self.openCheckedStore(description, model: managedObjectModel)
            } catch let error as ObjectGraphError
                where error.kind == .corruptStore && description.recoversDamagedStore && !description.isReadOnly
                && description.type == .sqlite
            {
                let recovery = try DamagedStoreRecovery.salvage(description, model: managedObjectModel, cause: error)
                opened = try Self.openCheckedStore(description, model: managedObjectModel)
                damagedStoreRecovery.withLock { $0 = recovery }
            }
            if description.mergesRemoteChanges {
                guard let source = opened as? any RemoteChangeSource, description.recordsPersistentHistory else {
                    opened.close()
                    throw ObjectGraphError(
                        .invalidOperation,
                        "mergesRemoteChanges needs a SQLite or PostgreSQL store that records persistent history (set recordsPersistentHistory): others' saves are read from it"
                    )
                }
                do {
                    let observer = try RemoteChangeObserver(
                        store: source, coordinator: self, interval: description.remoteChangePollInterval)
                    remoteChanges.withLock { $0 = observer }
                } catch {
                    opened.close()
                    throw error
                }
            }
            current = opened
            backupSchedule.withLock { $0 = description.automaticBackups.map(BackupSchedule.init) }
            // The cache must not outlive a change someone else made to the store's data.
            rowCache.watch { opened.dataGeneration() }
        }
    }

    /// What loading did with a damaged store, when the description's `recoversDamagedStore` made
    /// it salvage one; `nil` otherwise.
    public var recoveredDamagedStore: DamagedStoreRecovery? {
        damagedStoreRecovery.withLock { $0 }
    }

    /// Posted (object: the coordinator, on a queue of ObjectGraph's) after another process's or
    /// coordinator's save to the store's file or database was handed to the contexts that merge
    /// automatically, when the description `mergesRemoteChanges`; `userInfo[historyTokenKey]` is
    /// the save's `PersistentHistoryToken`. Core Data's `NSPersistentStoreRemoteChange`.
    public static let remoteChangeNotification = Notification.Name("ObjectGraph.PersistentStoreCoordinator.remoteChange")
    /// The `userInfo` key of a remote change's history token.
    public static let historyTokenKey = "historyToken"

    /// The description of the attached store, or `nil` before one is added.
    public var persistentStoreDescription: PersistentStoreDescription? {
        store.withLock { $0?.storeDescription }
    }

    /// The identifier of the attached store: part of every object ID's URI.
    public var persistentStoreIdentifier: String? {
        store.withLock { $0?.identifier }
    }

    /// Checks the attached store: SQLite's own check of the file (`integrity_check`, or the
    /// faster `quick_check` when `quick`) — on PostgreSQL, the tables, columns and functions the
    /// store needs instead — its metadata against the model, every relationship pointing at an
    /// object that exists, every row of a shared table naming an entity the table holds. Returns
    /// what it found; the store is not changed.
    public func checkIntegrity(quick: Bool = false) throws -> IntegrityReport {
        IntegrityReport(problems: try requireStore().integrityProblems(quick: quick))
    }

    /// Writes a consistent copy of the attached SQLite store into a new file at `url` (SQLite's
    /// backup API, on a connection of its own), while contexts keep reading and saving: the copy
    /// is one snapshot, opens as a store, and passes the integrity check. Throws when `url`
    /// exists already, or for an in-memory store.
    public func backup(to url: URL) throws {
        try requireStore().backup(to: url)
    }

    /// Writes the attached SQLite store as SQL text into a new file at `url`: its schema as the
    /// file holds it, every row as an `INSERT` (values exact: the same bytes load back), the
    /// metadata with the model, in one transaction; read as one snapshot while the store stays in
    /// use. Throws when `url` exists already, or for an in-memory store.
    public func dump(to url: URL) throws {
        try requireStore().dump(to: url)
    }

    /// Makes a new SQLite store file at `storeURL` from a dump written by `dump(to:)`; a dump that
    /// fails half-way leaves no file. Throws when `storeURL` exists already, or when what loads is
    /// not an ObjectGraph store.
    public static func loadStore(fromDump dumpURL: URL, into storeURL: URL) throws {
        try SQLiteStoreState.load(dumpAt: SQLiteStoreState.fileSystemPath(dumpURL), into: SQLiteStoreState.fileSystemPath(storeURL))
    }

    /// Replaces the attached store's file: `prepare` (given the store's description) readies the
    /// new file and returns the step that moves it into place; then the store is closed, the
    /// step run and the store opened again, all while no other call can reach the store.
    func replaceStore(_ prepare: (PersistentStoreDescription) throws -> () -> Void) throws {
        try store.withLock { current in
            guard let old = current else { throw ObjectGraphError(.invalidOperation, "no persistent store is loaded") }
            let moveIntoPlace = try prepare(old.storeDescription)
            rowCache.watch(nil)
            old.close()
            moveIntoPlace()
            let reopened = try Self.openStore(old.storeDescription, model: managedObjectModel)
            current = reopened
            rowCache.removeAll()
            rowCache.watch { reopened.dataGeneration() }
        }
    }

    /// Counts a save of a context of this coordinator, for the automatic backups.
    func noteSave() {
        guard let schedule = backupSchedule.withLock({ $0 }),
            let name = persistentStoreDescription?.url?.deletingPathExtension().lastPathComponent
        else { return }
        schedule.noteSave({ [weak self] url in try self?.backup(to: url) }, storeName: name)
    }

    /// Waits until the automatic backups due so far are written (see
    /// `PersistentStoreDescription.automaticBackups`); returns at once when there are none.
    public func waitForPendingBackups() {
        backupSchedule.withLock { $0 }?.waitUntilIdle()
    }

    /// Closes and detaches the store. Contexts using this coordinator can no longer fetch or save.
    public func removePersistentStore() {
        rowCache.watch(nil)
        // Stopped outside the lock: a look under way may be posting to code that calls back here.
        let observer = remoteChanges.withLock { observer in
            defer { observer = nil }
            return observer
        }
        observer?.stop()
        let removed = store.withLock { current in
            defer { current = nil }
            return current
        }
        removed?.close()
    }

    /// The object ID a URI from `ManagedObjectID.uriRepresentation()` names, or `nil` when the
    /// URI is malformed, names an unknown entity, or belongs to another store.
    public func managedObjectID(forURIRepresentation uri: URL) -> ManagedObjectID? {
        guard uri.scheme == ManagedObjectID.uriScheme else { return nil }
        let parts = uri.path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == 2, let entity = managedObjectModel.entity(named: String(parts[0])),
            let kind = parts[1].first
        else { return nil }
        let storeIdentifier = uri.host ?? ""
        let number = parts[1].dropFirst()
        switch kind {
        case "p":
            guard let primaryKey = Int64(number), primaryKey > 0,
                let store = try? requireStore(), storeIdentifier == store.identifier
            else { return nil }
            return ManagedObjectID(space: store.idSpaces[entity.index], primaryKey: primaryKey)
        case "t":
            guard let temporary = UInt64(number), temporary > 0, temporary <= UInt64(Int64.max) else { return nil }
            return ManagedObjectID(space: ObjectIDSpace(entity: entity, storeIdentifier: storeIdentifier), temporaryNumber: temporary)
        default:
            return nil
        }
    }

    /// Adds a custom validation rule for the objects of `entityName` and its sub-entities: every
    /// `save()` runs it for each inserted, updated and deleted object of those entities, after
    /// the model's own rules, and refuses the save if it throws (all failures are reported in one
    /// `.validation` error). Throws `.unknownEntity` for a name the model does not have.
    public func addValidationRule(forEntityName entityName: String, _ rule: @escaping ValidationRule) throws {
        let entity = try managedObjectModel.requireEntity(entityName)
        validationRules.withLock { $0.add(rule, for: entity) }
    }

    /// The custom validation rules registered so far, taken once per save.
    var customValidationRules: ValidationRules {
        validationRules.withLock { $0 }
    }

    /// The attached store, or an error explaining that none is loaded.
    package func requireStore() throws -> any PersistentStore {
        guard let current = store.withLock({ $0 }) else {
            throw ObjectGraphError(
                .invalidOperation,
                "no persistent store is loaded; call loadPersistentStores() on the container (or addPersistentStore(with:) on the coordinator) first"
            )
        }
        return current
    }

    /// Opens the store, then runs SQLite's quick check of the file if the description asks for it
    /// on a file of this size, closing the store again if it finds damage. (What rows mean —
    /// dangling references, say — is `checkIntegrity()`'s to report: it is no reason to refuse
    /// the data.)
    private static func openCheckedStore(_ description: PersistentStoreDescription, model: ManagedObjectModel) throws -> any PersistentStore
    {
        let opened = try openStore(description, model: model)
        guard let sqlite = opened as? SQLiteStore, let path = description.url.map(SQLiteStoreState.fileSystemPath) else { return opened }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        guard description.integrityCheckOnLoad.applies(toFileOfSize: size) else { return opened }
        let problems = try sqlite.fileProblems(quick: true)
        guard problems.isEmpty else {
            opened.close()
            throw ObjectGraphError(
                .corruptStore,
                "The \(description) failed its integrity check when loading, so it was not opened (\(DamagedStoreRecovery.hint(for: path))):\n"
                    + IntegrityReport(problems: problems).description)
        }
        return opened
    }

    private static func openStore(_ description: PersistentStoreDescription, model: ManagedObjectModel) throws -> any PersistentStore {
        if let opener = description.storeOpener { return try opener.open(description, model) }
        switch description.type {
        // Core Data's idiom for a throwaway store in tests: a SQLite store at /dev/null keeps
        // nothing, so it is the in-memory store (same semantics, proven by the same tests).
        case .sqlite where description.url?.standardizedFileURL.path == "/dev/null":
            return try InMemoryStore(description: description, model: model)
        case .sqlite: return try SQLiteStore(description: description, model: model)
        case .inMemory: return try InMemoryStore(description: description, model: model)
        default:
            throw ObjectGraphError(
                .storeUnavailable,
                "No store of type '\(description.type.rawValue)' is known: \(description) needs the product that adds that kind of store (a postgres:// URL needs ObjectGraphPostgres and PersistentStoreDescription(postgresURL:))"
            )
        }
    }
}
