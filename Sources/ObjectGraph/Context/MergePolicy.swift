/// How a context's `save()` resolves a conflict with changes saved elsewhere (by another context
/// or process) since it read its objects — Core Data's merge policies.
///
/// Every row carries a version, bumped by each save that changes it. A save expects each row it
/// updates or deletes to be at the version the context read; a row changed since (or deleted) is
/// a conflict, and so is an inserted object that breaks a uniqueness constraint against a stored
/// row.
public enum MergePolicy: Sendable, Equatable, CustomStringConvertible {
    /// The save fails with a `.mergeConflict` error listing each conflict; nothing is written.
    /// The default.
    case error
    /// Property by property, the store's changes win: properties changed both here and
    /// elsewhere take the stored value; properties only this context changed keep its value.
    /// An inserted object that duplicates a stored one by a uniqueness constraint becomes that
    /// stored object, unchanged.
    case mergeByPropertyStoreTrump
    /// Property by property, this context's changes win: properties it changed keep its values,
    /// the others take the stored values. An inserted object that duplicates a stored one by a
    /// uniqueness constraint becomes that stored object with the inserted values (an upsert).
    case mergeByPropertyObjectTrump
    /// The objects as this context has them are written whole, over whatever was saved
    /// elsewhere. Uniqueness conflicts are resolved as `.mergeByPropertyObjectTrump` does.
    case overwrite
    /// This context's conflicting changes are dropped: its objects take the stored state.
    /// Uniqueness conflicts are resolved as `.mergeByPropertyStoreTrump` does.
    case rollback
    /// A policy of the program's own, as a subclass of Core Data's `NSMergePolicy`: the resolver
    /// sees the conflicts first and may change the context's objects (or throw to fail the save
    /// with its own error), then its `basePolicy` resolves what is left.
    case custom(any ConflictResolver)

    /// The built-in policy that finally resolves conflicts: the policy itself, or a custom
    /// policy's base.
    var basePolicy: MergePolicy {
        guard case .custom(let resolver) = self else { return self }
        // A base is never custom itself: a resolver naming another custom policy gets its base.
        return resolver.basePolicy.basePolicy
    }

    public static func == (lhs: MergePolicy, rhs: MergePolicy) -> Bool {
        switch (lhs, rhs) {
        case (.error, .error), (.mergeByPropertyStoreTrump, .mergeByPropertyStoreTrump),
            (.mergeByPropertyObjectTrump, .mergeByPropertyObjectTrump), (.overwrite, .overwrite), (.rollback, .rollback):
            true
        case (.custom(let a), .custom(let b)): a === b
        default: false
        }
    }

    public var description: String {
        switch self {
        case .error: ".error"
        case .mergeByPropertyStoreTrump: ".mergeByPropertyStoreTrump"
        case .mergeByPropertyObjectTrump: ".mergeByPropertyObjectTrump"
        case .overwrite: ".overwrite"
        case .rollback: ".rollback"
        case .custom(let resolver): ".custom(\(type(of: resolver)), base \(resolver.basePolicy.basePolicy))"
        }
    }
}

/// The program's own conflict resolution, used as `MergePolicy.custom(_:)`: Core Data's way of
/// subclassing `NSMergePolicy` and overriding `resolve(optimisticLockingConflicts:)` and
/// `resolve(constraintConflicts:)`.
///
/// ```swift
/// final class KeepLongerTitle: ConflictResolver {
///     let basePolicy = MergePolicy.mergeByPropertyObjectTrump
///     func resolve(_ conflicts: [MergeConflict], in context: ManagedObjectContext) throws {
///         for conflict in conflicts {
///             let ours = conflict.ourValue(forKey: "title") as? String ?? ""
///             let theirs = conflict.theirValue(forKey: "title") as? String ?? ""
///             if theirs.count > ours.count { try context.registeredObject(for: conflict.objectID)?.setValue(theirs, forKey: "title") }
///         }
///     }
/// }
/// context.mergePolicy = .custom(KeepLongerTitle())
/// ```
public protocol ConflictResolver: AnyObject, Sendable {
    /// The built-in policy that resolves the conflicts after `resolve(_:in:)`, as the merge
    /// type a subclass of `NSMergePolicy` passes to `super`. With `.error` the save fails with
    /// the conflicts unless `resolve(_:in:)` throws its own error first.
    var basePolicy: MergePolicy { get }

    /// Called on the context's queue with the conflicts a save met, before `basePolicy` resolves
    /// them: change the context's objects here (what you set counts as this context's change).
    /// Throw to fail the save with your error; nothing is written.
    func resolve(_ conflicts: [MergeConflict], in context: ManagedObjectContext) throws
}

/// One conflict a save found: an object changed or deleted elsewhere since this context read
/// it, or an inserted object whose uniqueness-constrained values another stored object has.
public struct MergeConflict: Sendable, CustomStringConvertible {
    /// What kind of conflict it is.
    public enum Kind: Sendable, Equatable {
        /// The stored row was changed since the context read it.
        case changedInStore
        /// The stored row was deleted since the context read it.
        case deletedInStore
        /// The inserted object has the values of the uniqueness constraint on `keys` that a
        /// stored object (`conflictingObjectID`) already has.
        case uniqueness(keys: [String])
    }

    /// What kind of conflict it is.
    public let kind: Kind
    /// The object of this context that conflicts.
    public let objectID: ManagedObjectID
    /// For a uniqueness conflict, the stored object holding the same values.
    public let conflictingObjectID: ManagedObjectID?
    /// The properties (attributes and to-one relationships) that this context or the other save
    /// changed and whose values now differ, or that both changed (even to the same value).
    public let keys: [String]
    /// The row version the context read (0 for an inserted object). A row is at version 2 when
    /// it is inserted, and each save that writes it adds 1.
    public let objectVersion: Int64
    /// The row version in the store now, or `nil` when the row is gone.
    public let storeVersion: Int64?
    let ours: ValueRow
    let theirs: ValueRow?
    let original: ValueRow

    init(
        kind: Kind, objectID: ManagedObjectID, conflictingObjectID: ManagedObjectID? = nil, ours: ValueRow, theirs: Snapshot?,
        original: ValueRow, objectVersion: Int64
    ) {
        self.kind = kind
        self.objectID = objectID
        self.conflictingObjectID = conflictingObjectID
        self.ours = ours
        self.theirs = theirs?.values
        self.original = original
        self.objectVersion = objectVersion
        self.storeVersion = theirs?.version
        let entity = objectID.entity
        keys = (0..<entity.rowWidth).filter { slot in
            let theirValue = theirs?.values[slot] ?? .null
            let changedHere = !ours[slot].isStoredEqual(to: original[slot])
            let changedThere = !theirValue.isStoredEqual(to: original[slot])
            // Changed on both sides is a clash even when the values agree: two increments of one
            // counter both write 1.
            return ((changedHere && changedThere) || (changedHere || changedThere) && !ours[slot].isStoredEqual(to: theirValue))
                && (slot >= entity.attributes.count || !entity.attributes[slot].isTransient)
        }.map(entity.propertyName(atSlot:))
    }

    /// The entity of the conflicting object.
    public var entityName: String { objectID.entity.name }

    /// This context's values of the object's persistent properties (attributes, and to-ones as
    /// object IDs), by name: Core Data's `objectSnapshot`.
    public var objectSnapshot: [String: Any?] { snapshot(of: ours) }
    /// The values when this context read the object (Core Data's `cachedSnapshot`); `nil` for an
    /// inserted object, which was never read.
    public var cachedSnapshot: [String: Any?]? {
        if case .uniqueness = kind { return nil }
        return snapshot(of: original)
    }
    /// The values in the store now (Core Data's `persistedSnapshot`); `nil` when the row was
    /// deleted.
    public var persistedSnapshot: [String: Any?]? { theirs.map(snapshot(of:)) }
    /// The row version in the store now; 0 when the row is gone (Core Data's `newVersionNumber`).
    public var newVersionNumber: Int64 { storeVersion ?? 0 }
    /// The row version this context read; 0 for an inserted object (Core Data's `oldVersionNumber`).
    public var oldVersionNumber: Int64 { objectVersion }

    private func snapshot(of row: ValueRow) -> [String: Any?] {
        let entity = objectID.entity
        var result: [String: Any?] = [:]
        for slot in 0..<entity.rowWidth where slot >= entity.attributes.count || !entity.attributes[slot].isTransient {
            let name = entity.propertyName(atSlot: slot)
            result[name] = Self.value(of: name, in: row, entity)
        }
        return result
    }

    /// This context's value of `key` (an attribute's value, or a to-one's `ManagedObjectID`).
    public func ourValue(forKey key: String) -> Any? { Self.value(of: key, in: ours, objectID.entity) }
    /// The stored value of `key` now; `nil` too when the row was deleted.
    public func theirValue(forKey key: String) -> Any? { theirs.flatMap { Self.value(of: key, in: $0, objectID.entity) } }
    /// The value of `key` when this context read the object.
    public func originalValue(forKey key: String) -> Any? { Self.value(of: key, in: original, objectID.entity) }

    public var description: String {
        let entity = objectID.entity
        let subject = objectID.shortDescription
        switch kind {
        case .deletedInStore:
            return "\(subject) was deleted elsewhere after this context read it"
        case .uniqueness(let keys):
            return
                "\(subject) has the same \(keys.joined(separator: ", ")) as the stored \(conflictingObjectID?.shortDescription ?? "object")"
                + " (\(keys.map { "\($0) = \(ours[entity.slotOrEnd($0)].debugText)" }.joined(separator: ", ")); uniqueness constraint on \(keys.joined(separator: ", ")))"
        case .changedInStore:
            let details = keys.map { key in
                let slot = entity.slotOrEnd(key)
                return
                    "\(key): ours \(ours[slot].debugText), theirs \((theirs?[slot] ?? .null).debugText), original \(original[slot].debugText)"
            }
            return "\(subject) was changed elsewhere (version \(objectVersion) → \(storeVersion.map(String.init) ?? "gone"))"
                + (details.isEmpty ? "" : ": " + details.joined(separator: "; "))
        }
    }

    private static func value(of key: String, in row: ValueRow, _ entity: EntityDescription) -> Any? {
        let slot = entity.slotOrEnd(key)
        guard slot < row.count else { return nil }
        if slot < entity.attributes.count { return row[slot].bridgedValue(as: entity.attributeTypes[slot]) }
        if case .object(let objectID) = row[slot] { return objectID }
        return nil
    }
}
