/// What an object holds of its relationships, in one word: its loaded to-many relationships
/// and its held to-one destinations (`ManagedObject.loadedToMany` and `heldToOne`).
///
/// Most objects hold neither, or only the destination of their entity's single to-one (a book's
/// author); both are kept inline. An object that holds more gets a box with both. One word
/// instead of the seventeen bytes of the two keeps an object within a 96-byte allocation.
struct HeldRelationships {
    private enum Storage {
        case none
        /// The one to-one of the entity, held empty (`HeldDestinations(count: 1)`).
        case emptyToOne
        /// The destination of the entity's one to-one.
        case toOne(ManagedObject)
        case boxed(Box)

        /// The inline form of the single to-one holding `destination` (or held empty).
        static func holding(_ destination: ManagedObject?) -> Storage {
            destination.map(Storage.toOne) ?? .emptyToOne
        }
    }

    private final class Box {
        @exclusivity(unchecked) var loadedToMany: [RelatedObjects?] = []
        @exclusivity(unchecked) var heldToOne: HeldDestinations = []
    }

    private var storage = Storage.none

    var loadedToMany: [RelatedObjects?] {
        // Read in place (`_read`), not copied out: a loaded to-many is read several times for each
        // change of it.
        _read {
            if case .boxed(let box) = storage { yield box.loadedToMany } else { yield[] }
        }
        set {
            if case .boxed(let box) = storage {
                box.loadedToMany = newValue
            } else if !newValue.isEmpty {
                box().loadedToMany = newValue
            }
        }
        _modify { yield &box().loadedToMany }
    }

    var heldToOne: HeldDestinations {
        get {
            switch storage {
            case .none: []
            case .emptyToOne: HeldDestinations(single: nil)
            case .toOne(let destination): HeldDestinations(single: destination)
            case .boxed(let box): box.heldToOne
            }
        }
        set {
            if case .boxed(let box) = storage {
                box.heldToOne = newValue
            } else if newValue.isEmpty {
                storage = .none
            } else if newValue.count == 1 {
                storage = .holding(newValue[0])
            } else {
                box().heldToOne = newValue
            }
        }
    }

    /// Whether a to-one is held (`!heldToOne.isEmpty`), answered without copying the holds.
    var holdsToOne: Bool {
        @inline(__always) get {
            switch storage {
            case .none: false
            case .emptyToOne, .toOne: true
            case .boxed(let box): !box.heldToOne.isEmpty
            }
        }
    }

    /// Whether nothing is held and no to-many is loaded, with one look at the storage.
    var isEmpty: Bool {
        switch storage {
        case .none: true
        case .emptyToOne, .toOne: false
        case .boxed(let box): box.heldToOne.isEmpty && box.loadedToMany.isEmpty
        }
    }

    /// Whether the to-many at `position` is loaded, answered in place: reading it through
    /// `loadedToMany` would copy the relationship out (retaining its members) to compare it with nil.
    @inline(__always)
    func isLoaded(toManyAt position: Int) -> Bool {
        guard case .boxed(let box) = storage, position < box.loadedToMany.count else { return false }
        return box.loadedToMany[position] != nil
    }

    /// The destination held for the to-one at `position`, if any. Read in place: going through
    /// `heldToOne` would make a `HeldDestinations` (a retain and a release) for each read.
    @inline(__always)
    func heldDestination(at position: Int) -> ManagedObject? {
        switch storage {
        case .none, .emptyToOne: nil
        case .toOne(let destination): position == 0 ? destination : nil
        case .boxed(let box): position < box.heldToOne.count ? box.heldToOne[position] : nil
        }
    }

    /// Lets go of every held to-one destination (`heldToOne = []` without making one).
    @inline(__always)
    mutating func releaseToOnes() {
        if case .boxed(let box) = storage {
            box.heldToOne = []
        } else {
            storage = .none
        }
    }

    /// Holds `destination` for the to-one at `position` of an entity with `toOneCount` to-ones.
    mutating func hold(_ destination: ManagedObject?, at position: Int, toOneCount: Int) {
        if toOneCount == 1, !isBoxed {
            storage = .holding(destination)
            return
        }
        let box = box()
        if box.heldToOne.isEmpty { box.heldToOne = HeldDestinations(count: toOneCount) }
        box.heldToOne[position] = destination
    }

    private var isBoxed: Bool {
        guard case .boxed = storage else { return false }
        return true
    }

    /// The box, made when the object first holds more than one inline value can say.
    private mutating func box() -> Box {
        if case .boxed(let box) = storage { return box }
        let box = Box()
        box.heldToOne = heldToOne
        storage = .boxed(box)
        return box
    }
}
