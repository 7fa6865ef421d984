import Foundation

/// How to open a store: where, what kind, and with which settings.
public struct PersistentStoreDescription: Sendable, CustomStringConvertible {
    /// The kind of store. ObjectGraph itself knows `.sqlite` and `.inMemory`; other products add
    /// theirs (`ObjectGraphPostgres` adds `.postgreSQL`), as Core Data's store types are open.
    public struct StoreType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A SQLite database file.
        public static let sqlite = StoreType(rawValue: "sqlite")
        /// A store that lives in memory only, with the same semantics as SQLite; for tests.
        public static let inMemory = StoreType(rawValue: "inMemory")
    }

    /// The store file's location. A SQLite store at `/dev/null` keeps nothing: it is opened as
    /// an in-memory store, as Core Data's tests use it. For an in-memory store, a SQLite store
    /// file to start from (`nil`: empty): its objects are copied into memory, migrated to the
    /// model first if an earlier version wrote it; the file is never changed.
    public var url: URL?
    /// The kind of store.
    public var type: StoreType
    /// Opens the store for reading only: saves fail with a `.readOnly` error. A SQLite file in a
    /// directory the program cannot write (read-only media, a seed store in a folder owned by
    /// another user) opens too, as SQLite's `immutable` file, unless its `-wal` file holds
    /// changes not yet in the store file (an error says so).
    public var isReadOnly: Bool = false
    /// Whether a store written by an earlier version of the model is migrated to the current
    /// one when it opens (`true` by default, as with Core Data's persistent container). When
    /// `false`, such a store is refused with `.modelMismatch`.
    public var shouldMigrateStoreAutomatically: Bool = true
    /// Whether that migration may be inferred from the two models (lightweight migration:
    /// entities, attributes and relationships matched by name or `renamingIdentifier`). `true`
    /// by default; when `false`, a store that needs migrating is refused with `.modelMismatch`.
    public var shouldInferMappingModelAutomatically: Bool = true
    /// Swift code to run in the migration steps between model versions (see `MigrationStage`).
    public var migrationStages: [MigrationStage] = []
    /// Explicit mappings for migration steps, where inference needs telling (see `MappingModel`).
    public var mappingModels: [MappingModel] = []
    /// Backups the store takes by itself after saves (see `AutomaticBackups`); `nil`, the
    /// default, takes none.
    public var automaticBackups: AutomaticBackups?
    /// Whether every save and batch request records a transaction in the store's persistent
    /// history (Core Data's `NSPersistentHistoryTrackingKey`): who saved, when, and what each
    /// object's change was, fetched with `PersistentStoreCoordinator.fetchHistory(_:)`. `false` by
    /// default. The SQLite and PostgreSQL stores write it in the saving transaction itself.
    public var recordsPersistentHistory: Bool = false
    /// Whether saves that other processes — or other coordinators in this one — make to the same
    /// store (a SQLite file, a PostgreSQL database) reach this coordinator's contexts as their
    /// own saves do: each one's history transaction is merged into the contexts that merge
    /// automatically (`automaticallyMergesChangesFromParent`), and
    /// `PersistentStoreCoordinator.remoteChangeNotification` is posted. Needs
    /// `recordsPersistentHistory`, here and on the stores that write (a save that records no
    /// history is not delivered); `false` by default.
    ///
    /// A SQLite store looks for others' commits every `remoteChangePollInterval`. A PostgreSQL
    /// store opens a second connection that LISTENs for the notification every save recording
    /// history sends at its commit; when that connection is lost, it connects again after
    /// `remoteChangePollInterval`, then at doubling intervals up to 5 s.
    ///
    /// Delivery: each transaction of another store is delivered once, in commit order, as long
    /// as the history after the last one delivered is not deleted before it is read (trim only
    /// what every process has seen). Nothing committed while the PostgreSQL listener was cut off
    /// is lost: once it listens again, the history after the last delivered transaction is read.
    /// A history read that fails is tried again after `remoteChangePollInterval`. A save arrives
    /// within about one interval of its commit on SQLite; on PostgreSQL, as soon as its
    /// notification and one history read allow.
    public var mergesRemoteChanges: Bool = false
    /// How often a SQLite store that `mergesRemoteChanges` looks for commits by others (one
    /// `PRAGMA data_version` query each time); on PostgreSQL, how soon a failed history read or a
    /// lost listening connection is tried again, and how long the coordinator's cached rows are
    /// trusted without news from the listener. 0.1 s by default.
    public var remoteChangePollInterval: TimeInterval = 0.1
    /// When loading a SQLite store runs the quick integrity check and refuses a store that fails
    /// it (see `IntegrityCheckOnLoad`); by default, for files up to 32 MiB.
    public var integrityCheckOnLoad: IntegrityCheckOnLoad = .automatic
    /// Whether loading a damaged SQLite store (one SQLite or the integrity check finds damaged,
    /// or whose `-wal` file lost commits) salvages it instead of failing: the damaged files are
    /// moved aside as `<name>.damaged-<UTC time>.sqlite` (with their `-wal` and `-shm`), every
    /// readable row is recovered into a new store at the description's URL
    /// (`PersistentStoreCoordinator.recover(damaged:into:model:progress:)`), which is then loaded,
    /// and `PersistentStoreCoordinator.recoveredDamagedStore` says what was recovered (a warning
    /// is logged too). When nothing can be recovered, loading fails as before and no file is
    /// moved. `false` by default; never for a read-only store.
    public var recoversDamagedStore: Bool = false
    /// Whether a store is copied before it migrates, beside it as
    /// `<name>.before-migration-v<version>.sqlite` (a consistent copy of the store as the older
    /// version wrote it, made by SQLite's `VACUUM INTO`). `false` by default: the migration is one
    /// transaction and leaves the store as it was when it fails.
    public var backsUpStoreBeforeMigrating: Bool = false
    /// Told how far a migration has come after each table it copies, on the thread opening the
    /// store.
    public var migrationProgressHandler: (@Sendable (MigrationProgress) -> Void)?
    /// A Foundation `Progress` a migration keeps up to date as it copies (its units are rows),
    /// for code that follows progress that way.
    public var migrationProgress: Progress?
    /// How long a SQLite store waits for another connection's lock (another process writing the
    /// same file, say) before failing with a `.busy` error, in seconds: writes waiting to begin, and
    /// reads in the rare moments a lock stops them too.
    public var busyTimeout: TimeInterval = 5
    /// SQLite pragmas applied after opening, by name (`["cache_size": "-20000"]`). They override
    /// the defaults `journal_mode=WAL` and `synchronous=NORMAL`.
    public var sqlitePragmas: [String: String] = [:]
    /// The identifier a store created by this description gets instead of a new UUID: a copy
    /// of another store (`objectgraph copy`) takes the original's, so object URIs stay the same.
    package var identifierOfNewStore: String?
    /// Opens a store of a kind this module does not know, set by the product that adds the kind
    /// (see `PersistentStoreOpener`); `nil` for SQLite and in-memory stores.
    package var storeOpener: PersistentStoreOpener?

    /// A description of a SQLite store at `url`. A `postgres://` URL is recognised, and opening it
    /// says to use the ObjectGraphPostgres product's `PersistentStoreDescription(postgresURL:)`.
    public init(url: URL) {
        self.url = url
        self.type = ["postgres", "postgresql"].contains(url.scheme?.lowercased()) ? StoreType(rawValue: "postgresql") : .sqlite
    }

    /// A description of a store of `type`; `url` is required for SQLite stores.
    public init(type: StoreType, url: URL? = nil) {
        self.type = type
        self.url = url
    }

    /// A description of an in-memory store.
    public static var inMemory: PersistentStoreDescription { PersistentStoreDescription(type: .inMemory) }

    public var description: String {
        if let storeOpener { return storeOpener.describe(self) }
        switch type {
        case .sqlite: return "SQLite store at \(url?.path ?? "<no URL>")"
        case .inMemory: return "in-memory store"
        default: return "\(type.rawValue) store at \(url.map(Self.withoutPassword) ?? "<no URL>")"
        }
    }

    /// `url` without the password it may hold, for messages.
    package static func withoutPassword(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), components.password != nil else {
            return url.absoluteString
        }
        components.password = nil
        return components.string ?? url.absoluteString
    }
}
