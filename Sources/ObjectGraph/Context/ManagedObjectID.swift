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
    /// The identifier of the store that holds (or will hold) the object.
    let storeIdentifier: String
    let key: Key

    init(entity: EntityDescription, storeIdentifier: String, key: Key) {
        self.entity = entity
        self.storeIdentifier = storeIdentifier
        self.key = key
    }

    init(entity: EntityDescription, storeIdentifier: String, primaryKey: Int64) {
        self.init(entity: entity, storeIdentifier: storeIdentifier, key: .permanent(primaryKey))
    }

    /// Whether the ID is temporary: its object has not been saved yet.
    public var isTemporaryID: Bool {
        if case .temporary = key { return true }
        return false
    }

    /// The store's primary key for a permanent ID.
    var primaryKey: Int64? {
        if case .permanent(let primaryKey) = key { return primaryKey }
        return nil
    }

    /// A URL that names the object; `PersistentStoreCoordinator.managedObjectID(forURIRepresentation:)`
    /// turns it back into this ID. Form: `x-objectgraph://STORE/Entity/pKEY` (`tKEY` when temporary).
    public func uriRepresentation() -> URL {
        let last: String
        switch key {
        case .permanent(let primaryKey): last = "p\(primaryKey)"
        case .temporary(let number): last = "t\(number)"
        }
        // Entity names and store identifiers are plain identifiers, so no percent-encoding is needed.
        return URL(string: "\(Self.uriScheme)://\(storeIdentifier)/\(entity.name)/\(last)")!
    }

    static let uriScheme = "x-objectgraph"

    /// `Entity/pKEY`, for messages.
    var shortDescription: String {
        switch key {
        case .permanent(let primaryKey): "\(entity.name)/p\(primaryKey)"
        case .temporary(let number): "\(entity.name)/t\(number) (unsaved)"
        }
    }

    public var description: String { uriRepresentation().absoluteString }

    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        lhs.key == rhs.key && lhs.entity === rhs.entity && lhs.storeIdentifier == rhs.storeIdentifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(ObjectIdentifier(entity))
    }
}
