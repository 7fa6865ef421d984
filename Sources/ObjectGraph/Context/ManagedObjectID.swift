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

    /// The entity and store of the ID, shared by every ID of that entity in that store.
    let space: ObjectIDSpace
    /// A positive primary key, or the negated number of a temporary ID. With `space`, an ID is
    /// one reference and one word: contexts keep one per registered object, and every copy of
    /// an ID retains only that one reference.
    private let rawKey: Int64

    /// `primaryKey` must be positive: stores hand out keys from 1 and refuse rows with others.
    package init(space: ObjectIDSpace, primaryKey: Int64) {
        self.space = space
        self.rawKey = primaryKey
    }

    init(space: ObjectIDSpace, temporaryNumber: UInt64) {
        self.space = space
        self.rawKey = -Int64(truncatingIfNeeded: temporaryNumber)
    }

    /// The entity of the identified object.
    public var entity: EntityDescription { space.entity }

    /// The identifier of the store that holds (or will hold) the object.
    var storeIdentifier: String { space.storeIdentifier }

    var key: Key { rawKey > 0 ? .permanent(rawKey) : .temporary(UInt64(-rawKey)) }

    /// Whether the ID is temporary: its object has not been saved yet.
    public var isTemporaryID: Bool { rawKey < 0 }

    /// The number of a temporary ID.
    var temporaryNumber: UInt64? { rawKey < 0 ? UInt64(-rawKey) : nil }

    /// The store's primary key for a permanent ID.
    package var primaryKey: Int64? { rawKey > 0 ? rawKey : nil }

    /// A URL that names the object; `PersistentStoreCoordinator.managedObjectID(forURIRepresentation:)`
    /// turns it back into this ID. Form: `x-objectgraph://STORE/Entity/pKEY` (`tKEY` when temporary).
    public func uriRepresentation() -> URL {
        // Entity names and store identifiers are plain identifiers, so no percent-encoding is needed.
        URL(string: "\(Self.uriScheme)://\(storeIdentifier)/\(entity.name)/\(keyText)")!
    }

    static let uriScheme = "x-objectgraph"

    private var keyText: String { rawKey > 0 ? "p\(rawKey)" : "t\(-rawKey)" }

    /// `Entity/pKEY`, for messages.
    package var shortDescription: String { "\(entity.name)/\(keyText)\(isTemporaryID ? " (unsaved)" : "")" }

    public var description: String { uriRepresentation().absoluteString }

    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        lhs.rawKey == rhs.rawKey
            && (lhs.space === rhs.space
                || (lhs.space.entity === rhs.space.entity && lhs.space.storeIdentifier == rhs.space.storeIdentifier))
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(hashWord)
    }

    /// The hash a `Set` or `Dictionary` of IDs uses: the one word, mixed with the table's seed by
    /// `WordHash` instead of SipHash. A context hashes an ID for every object it registers or
    /// forgets outside its dense tables, a save for every ID it reports.
    public func _rawHashValue(seed: Int) -> Int {
        WordHash.hash(UInt64(bitPattern: hashWord), seed: seed)
    }

    /// One word mixing key and entity number (keys repeat across entities: each table counts
    /// from 1).
    private var hashWord: Int64 { rawKey ^ (Int64(entity.index) << 48) }
}

/// An entity in a store: what an object ID shares with every other ID of the same entity and
/// store. Stores make one per entity when they open; contexts make one per entity for the
/// temporary IDs of new objects.
package final class ObjectIDSpace: Sendable {
    package let entity: EntityDescription
    /// The store's identifier; empty for temporary IDs not yet tied to a store.
    let storeIdentifier: String
    /// The class a context makes the entity's objects for this store's rows as: read once per
    /// fetched row, so it sits here, next to the entity every row already reaches.
    let objectClass: ManagedObject.Type
    /// `ConcurrencyDebug.isEnabled`, kept where every object reaches it with one load: objects
    /// check it on every access, and reading the global costs a call each time.
    let checksQueue: Bool

    init(entity: EntityDescription, storeIdentifier: String, objectClass: ManagedObject.Type = ManagedObject.self) {
        self.entity = entity
        self.storeIdentifier = storeIdentifier
        self.objectClass = objectClass
        checksQueue = ConcurrencyDebug.isEnabled
    }

    /// One space per entity of `model`, indexed like `model.entities`, with the model's
    /// registered classes (which opening a store seals, as making a coordinator does).
    package static func spaces(for model: ManagedObjectModel, storeIdentifier: String) -> [ObjectIDSpace] {
        let classes = model.classRegistry.seal()
        return model.entities.map { ObjectIDSpace(entity: $0, storeIdentifier: storeIdentifier, objectClass: classes[$0.index]) }
    }
}
