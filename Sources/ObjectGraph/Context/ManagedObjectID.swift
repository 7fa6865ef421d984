import Foundation

/// The identity of an object: which store, which entity, which row. Safe to pass between
/// contexts and threads; resolve it in a context with `object(with:)` or `existingObject(with:)`.
///
/// A newly inserted object has a temporary ID until it is saved (or until
/// `obtainPermanentIDs(for:)`); afterwards its ID is permanent and survives reopening the store.
public struct ManagedObjectID: Sendable, Hashable, CustomStringConvertible {
    enum Key: Hashable, Sendable {
        case permanent(Int64)
        case temporary(UInt64)
    }

    /// The entity of the identified object.
    public let entity: EntityDescription
    /// The store that holds (or will hold) the object; shared by every ID of that store.
    let store: StoreIdentity
    /// A positive primary key, or the negated number of a temporary ID. One word, so IDs stay
    /// small and hash fast: contexts keep one per registered object.
    private let rawKey: Int64

    /// `primaryKey` must be positive: stores hand out keys from 1 and refuse rows with others.
    init(entity: EntityDescription, store: StoreIdentity, primaryKey: Int64) {
        self.entity = entity
        self.store = store
        self.rawKey = primaryKey
    }

    init(entity: EntityDescription, store: StoreIdentity, temporaryNumber: UInt64) {
        self.entity = entity
        self.store = store
        self.rawKey = -Int64(truncatingIfNeeded: temporaryNumber)
    }

    init(entity: EntityDescription, storeIdentifier: String, key: Key) {
        switch key {
        case .permanent(let primaryKey): self.init(entity: entity, store: StoreIdentity(storeIdentifier), primaryKey: primaryKey)
        case .temporary(let number): self.init(entity: entity, store: StoreIdentity(storeIdentifier), temporaryNumber: number)
        }
    }

    init(entity: EntityDescription, storeIdentifier: String, primaryKey: Int64) {
        self.init(entity: entity, storeIdentifier: storeIdentifier, key: .permanent(primaryKey))
    }

    /// The identifier of the store that holds (or will hold) the object.
    var storeIdentifier: String { store.identifier }

    var key: Key { rawKey > 0 ? .permanent(rawKey) : .temporary(UInt64(-rawKey)) }

    /// Whether the ID is temporary: its object has not been saved yet.
    public var isTemporaryID: Bool { rawKey < 0 }

    /// The store's primary key for a permanent ID.
    var primaryKey: Int64? { rawKey > 0 ? rawKey : nil }

    /// A URL that names the object; `PersistentStoreCoordinator.managedObjectID(forURIRepresentation:)`
    /// turns it back into this ID. Form: `x-objectgraph://STORE/Entity/pKEY` (`tKEY` when temporary).
    public func uriRepresentation() -> URL {
        // Entity names and store identifiers are plain identifiers, so no percent-encoding is needed.
        URL(string: "\(Self.uriScheme)://\(storeIdentifier)/\(entity.name)/\(keyText)")!
    }

    static let uriScheme = "x-objectgraph"

    private var keyText: String { rawKey > 0 ? "p\(rawKey)" : "t\(-rawKey)" }

    /// `Entity/pKEY`, for messages.
    var shortDescription: String { "\(entity.name)/\(keyText)\(isTemporaryID ? " (unsaved)" : "")" }

    public var description: String { uriRepresentation().absoluteString }

    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        lhs.rawKey == rhs.rawKey && lhs.entity === rhs.entity
            && (lhs.store === rhs.store || lhs.store.identifier == rhs.store.identifier)
    }

    public func hash(into hasher: inout Hasher) {
        // One word mixing key and entity number: hashing it is what registering each fetched
        // object costs, and keys repeat across entities (each table counts from 1).
        hasher.combine(rawKey ^ (Int64(entity.index) << 48))
    }
}

/// A store's identifier, held once and shared by reference by every object ID of the store, so
/// IDs compare by pointer in the common case and carry one word instead of a string.
final class StoreIdentity: Sendable {
    let identifier: String

    init(_ identifier: String) {
        self.identifier = identifier
    }

    /// The store of objects not yet assigned to one.
    static let unassigned = StoreIdentity("")
}
