import Foundation

/// An object managed by a context: an instance of an entity whose values the context tracks,
/// validates and saves.
///
/// Read and write values with `value(forKey:)`, `setValue(_:forKey:)` or the subscript; every
/// value is checked against the model, so an unknown key or a value of the wrong type throws a
/// readable error instead of crashing or being coerced. An object belongs to its context's queue
/// and is not `Sendable`: pass its `objectID` to other contexts instead.
open class ManagedObject: Hashable, CustomStringConvertible {
    /// The object's entity.
    public var entity: EntityDescription { objectID.entity }
    /// The object's identity; temporary until the object is saved.
    @exclusivity(unchecked) public internal(set) var objectID: ManagedObjectID
    /// The context that manages the object; `nil` before it is inserted, once it was removed
    /// (saved deletion, rollback of an insert, or `reset()`), and once the context is gone.
    public internal(set) var managedObjectContext: ManagedObjectContext? {
        get { contextLink.context }
        set {
            let link = newValue?.link ?? .detached
            // Leaving the context: its registrar goes, before another object can take the address.
            if link !== contextLink { contextLink.observation?.forget(self) }
            contextLink = link
        }
    }
    /// The shared link to the object's context (see `ContextLink` for why not a weak reference).
    @exclusivity(unchecked) var contextLink: ContextLink

    /// Whether `context` manages the object: its link is compared, the context not even loaded.
    @inline(__always)
    func isManaged(by context: ManagedObjectContext) -> Bool { contextLink === context.link }

    // The hot stored properties skip runtime exclusivity checks (each check is a call into the
    // runtime): an object is confined to its context's queue, and no accessor here holds an
    // access open across a call that could reenter it.

    /// Current values, one slot per attribute. Empty while the object is a fault.
    @exclusivity(unchecked) var values: ValueRow
    /// The saved values of the slots changed since the last save or fetch; empty while `values`
    /// are the saved values.
    @exclusivity(unchecked) var savedValues = SavedValues()
    /// The row version read from the store, for optimistic locking.
    @exclusivity(unchecked) var rowVersion: Int64 = 0
    /// The loaded to-many relationships and the held to-one destinations, in one word.
    @exclusivity(unchecked) var relationshipHold = HeldRelationships()
    /// The loaded to-many relationships, by position in the entity's `toManyRelationships`;
    /// `nil` while a relationship is a fault. Empty until the first is touched.
    var loadedToMany: [RelatedObjects?] {
        _read { yield relationshipHold.loadedToMany }
        set { relationshipHold.loadedToMany = newValue }
        _modify { yield &relationshipHold.loadedToMany }
    }
    /// The destinations of to-one relationships set since the last save, by position in the
    /// entity's `toOneRelationships`: held so an unsaved destination stays reachable (its value
    /// row slot holds only its ID, which changes when it is saved). Empty when none is held.
    var heldToOne: HeldDestinations {
        get { relationshipHold.heldToOne }
        set { relationshipHold.heldToOne = newValue }
    }
    /// Properties changed since the last save: attributes and to-one relationships whose values
    /// differ from `committed`, and to-many relationships that gained, lost or reordered objects.
    @exclusivity(unchecked) var changedAttributes = AttributeMask()
    // The flags come last, after the 9-byte `changedAttributes`, so they share its last word
    // (stored properties are laid out in declaration order): the object is 87 bytes, a 96-byte
    // allocation. After adding a stored property, measure it: the class metadata holds the
    // instance size as a UInt32 at byte 24 (on Linux).
    /// Whether the object was created in memory and has never been saved.
    @exclusivity(unchecked) var isNew = false
    /// Whether a save gave the object its permanent ID without registering it, because nothing
    /// else held it (see `didSave`): it is about to be released, with no registry entry to remove.
    @exclusivity(unchecked) var isLeftUnregistered = false

    /// Whether the object is new in its context and not saved yet.
    @exclusivity(unchecked) public internal(set) var isInserted = false
    /// Whether the object is scheduled for deletion at the next save.
    @exclusivity(unchecked) public internal(set) var isDeleted = false
    /// Whether no property of the object has been read or set since it was fetched (or turned
    /// back into a fault); the first access fires the fault. A fetched object already holds its
    /// row, so firing it costs nothing; a fault made from an object ID loads its row then.
    @exclusivity(unchecked) public internal(set) var isFault = false
    /// What the context has yet to report about the object, and whether a merge deleted it.
    @exclusivity(unchecked) var marks = ChangeMarks()

    /// Creates an object of `entity` with its default values and inserts it into `context`
    /// (if given), as `NSManagedObject(entity:insertInto:)` does.
    public required init(entity: EntityDescription, insertInto context: ManagedObjectContext?) {
        let space = context?.temporaryIDSpace(for: entity) ?? ObjectIDSpace(entity: entity, storeIdentifier: "")
        self.objectID = ManagedObjectID(space: space, temporaryNumber: TemporaryIDGenerator.next())
        self.contextLink = .detached
        self.values = entity.makeDefaultRow()
        self.isNew = true
        context?.insert(self)
    }

    /// The object a context makes for a stored row, as an instance of the class registered for
    /// the row's entity. Only ObjectGraph creates rows; a subclass that declares designated
    /// initialisers of its own passes this one on (`required init(row:) { super.init(row: row) }`).
    public required init(row: ManagedObjectRow) {
        self.objectID = row.objectID
        if row.isNew {
            // A new object with its entity's defaults; the context inserts it next.
            self.contextLink = .detached
            self.values = row.objectID.entity.makeDefaultRow()
            self.isNew = true
            return
        }
        self.contextLink = row.contextLink
        if let values = row.storedValues?.take() {
            self.values = values
            self.rowVersion = row.version
            self.isFault = row.asFault
        } else {
            self.values = []
            self.isFault = true
        }
    }

    deinit {
        contextLink.observation?.forget(self)
        // Registration is weak: a released object leaves its context's registry. Objects are
        // confined to their context's queue, so this runs there.
        if !objectID.isTemporaryID, !isLeftUnregistered, let context = managedObjectContext {
            context.objectWillBeReleased(objectID, Unmanaged.passUnretained(self).toOpaque())
        }
    }

    /// The values as last saved or fetched (meaningful for saved objects that are not faults).
    var committed: ValueRow { savedValues.isEmpty ? values : savedValues.savedRow(from: values) }

    /// Whether the object has changes that are not saved: inserted, deleted or updated. An object
    /// another context's deletion was merged into has none: the deletion is saved already.
    public var hasChanges: Bool { isInserted || isDeleted && !marks.contains(.deletedElsewhere) || isUpdated }

    /// Whether the object is deleted and its delete rules were followed (or it was deleted
    /// elsewhere): no neighbour points at it any more, so relationships loaded from now on leave
    /// it out, and changes of its neighbours leave it alone. Until its rules are followed a
    /// deleted object is still in the graph.
    var isOutOfGraph: Bool { isDeleted && !marks.contains(.deletionPending) }

    /// Whether a saved object has been changed since it was last saved or fetched. As in Core
    /// Data, setting a property marks it updated even when the value is the one it had (or is set
    /// back to it); `changedValues()` and `hasPersistentChangedValues` tell whether any value
    /// actually differs.
    public var isUpdated: Bool { !isInserted && !isDeleted && !changedAttributes.isEmpty }

    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The hash a `Set` or `Dictionary` of objects uses: the object's address, mixed with the
    /// table's seed by `WordHash` instead of SipHash. Every loaded to-many relationship is a set of
    /// objects, so this is on the path of every object they hold.
    public func _rawHashValue(seed: Int) -> Int {
        WordHash.hash(UInt64(UInt(bitPattern: ObjectIdentifier(self))), seed: seed)
    }

    // Lifecycle hooks, as in Core Data: override them in a subclass. They run on the context's
    // queue; the defaults do nothing.

    /// Whether objects of this class may run code of their own when they are created, saved,
    /// deleted or turned into faults: an override of `init(entity:insertInto:)`, `willSave()`,
    /// `didSave()`, `prepareForDeletion()`, `willTurnIntoFault()`, `didTurnIntoFault()`,
    /// `validateValue(_:forKey:)` or a `validateFor…()` hook. ObjectGraph skips those calls for classes that say `false`, which
    /// spares a large save a call per object and hook. It is `true` for every subclass unless the
    /// subclass says otherwise; the generator's `final` classes say `false` (they override none of
    /// them). A class that overrides one of them must not say `false`.
    open class var hasCustomLifecycle: Bool { self != ManagedObject.self }

    /// Whether new objects of this class are made through `init(row:)`, which does not hold the
    /// context as `init(entity:insertInto:)` does (a retain and a release per object, slow ones
    /// since contexts are weakly referenced): classes without lifecycle code of their own are.
    static var insertsThroughRows: Bool { self == ManagedObject.self || !hasCustomLifecycle }

    /// Whether this object's class may run code of its own when created, saved, deleted or
    /// turned into a fault (see `hasCustomLifecycle`).
    @inline(__always)
    var runsLifecycleCode: Bool {
        let objectClass = type(of: self)
        return objectClass != ManagedObject.self && objectClass.hasCustomLifecycle
    }

    /// Called once, when the object is first inserted into a context: a place to set initial
    /// values that defaults in the model cannot express.
    open func awakeFromInsert() {}

    /// Called when a fetched object's values are first used (its fault fires).
    open func awakeFromFetch() {}

    /// Called at the start of `save()` for each inserted, changed or deleted object; changes made
    /// here are saved too.
    open func willSave() {}

    /// Called after a save for each object it wrote (inserted, updated or deleted).
    open func didSave() {}

    /// Called once for each deleted object when its context follows its delete rules — at the
    /// end of the event of the deletion, or at the save (see
    /// `ManagedObjectContext.propagatesDeletesAtEndOfEvent`) — before the rules run: the object
    /// is deleted (`isDeleted`) and its relationships, and its neighbours' relationships to it,
    /// still hold their values. Objects a cascade deletes get the call too, as does an object
    /// inserted since the last save and deleted. Objects deleted here are deleted in the same
    /// pass.
    open func prepareForDeletion() {}

    /// Called before the object is turned into a fault (`refresh(_:mergeChanges: false)`,
    /// `refreshAllObjects()`), while its values are still readable: a place to release what
    /// was computed from them.
    open func willTurnIntoFault() {}

    /// Called after the object was turned into a fault: its values are released until next used.
    open func didTurnIntoFault() {}

    /// Checks the new object as `save()` will before inserting it, and throws `.validation`
    /// listing every failure: the model's rules for every property (required values, ranges,
    /// lengths, patterns, relationship counts) and `validateValue(_:forKey:)` for each persistent
    /// property. Call it to check an object before saving; override it in a subclass to add
    /// checks of your own, calling `super` as in Core Data. An error you throw reaches the caller
    /// as a `ValidationFailure` whose `underlyingError` is your error.
    ///
    /// During a save the model's rules are checked for every object whatever its class does, so
    /// `super` then only runs the per-key validators.
    open func validateForInsert() throws { try validate(for: .insert) }

    /// Checks the changes of a saved object as `save()` will before writing them: the model's
    /// rules and `validateValue(_:forKey:)` for each changed property. See `validateForInsert()`.
    open func validateForUpdate() throws { try validate(for: .update) }

    /// Checks that the object may be deleted as `save()` will: no `deny` relationship may still
    /// hold objects. See `validateForInsert()`.
    open func validateForDelete() throws { try validate(for: .delete) }

    /// Core Data's per-key validation: checks `value` for the property `key` and throws to refuse
    /// it; a validator may also replace `value` with an acceptable one (the caller then uses the
    /// new value). The default checks the model's rules for the property. Override it in a
    /// subclass for rules of your own, switching on `key` and calling `super` for the others:
    /// `validateForInsert()` and `validateForUpdate()` (and so `save()`) call it for each
    /// property they check.
    open func validateValue(_ value: inout Any?, forKey key: String) throws {
        try validateModelRules(value, forKey: key)
    }

    open var description: String {
        guard !isFault else { return "<\(entity.name) \(objectID.shortDescription): fault>" }
        let fields = entity.attributes.map { "\($0.name)=\(values[$0.index].debugText)" }
        return "<\(entity.name) \(objectID.shortDescription): \(fields.joined(separator: ", "))>"
    }
}

/// A stored row a context turns into an object, or a new object's defaults: what
/// `ManagedObject.init(row:)` receives. Only ObjectGraph makes them.
public struct ManagedObjectRow {
    let objectID: ManagedObjectID
    /// The row's values, which the object moves out; `nil` for a fault that loads them on first
    /// access.
    let storedValues: MovableValues?
    /// The row's version, with `storedValues`.
    let version: Int64
    /// The link to the context making the object. Unowned: a row lives only for the initialiser
    /// call the context makes, so a retain and a release per object would buy nothing. (The
    /// context itself is not passed: contexts are weakly referenced, which makes each retain of
    /// one a slow operation on its side table.)
    unowned(unsafe) let contextLink: ContextLink
    /// Whether an object with values starts as a fault.
    let asFault: Bool
    /// Whether the object is new: it starts with its entity's default values, outside any context.
    let isNew: Bool

    init(objectID: ManagedObjectID, storedValues: MovableValues?, version: Int64, context: ManagedObjectContext, asFault: Bool) {
        self.objectID = objectID
        self.storedValues = storedValues
        self.version = version
        contextLink = context.link
        self.asFault = asFault
        isNew = false
    }

    /// A new object of `space`'s entity, with a temporary ID, about to be inserted into `context`.
    init(newObjectIn space: ObjectIDSpace, for context: ManagedObjectContext) {
        objectID = ManagedObjectID(space: space, temporaryNumber: TemporaryIDGenerator.next())
        storedValues = nil
        version = 0
        contextLink = context.link
        asFault = false
        isNew = true
    }
}

/// A row's values in the frame of the context making an object for them, which the object's
/// initialiser moves out instead of copying: a copy retains the array, and for the rows of a large
/// fetch that is a memory access that misses the processor's caches. A row makes one object; were
/// its initialiser run twice, the second object would find the values taken and start as a fault.
struct MovableValues {
    let values: UnsafeMutablePointer<ValueRow>
    let isTaken: UnsafeMutablePointer<Bool>

    /// The values, once; `nil` after that.
    func take() -> ValueRow? {
        guard !isTaken.pointee else { return nil }
        isTaken.pointee = true
        defer { values.initialize(to: ValueRow()) }
        return values.move()
    }
}

/// The objects of a context are confined to its queue; they must not cross threads.
@available(*, unavailable)
extension ManagedObject: @unchecked Sendable {}
