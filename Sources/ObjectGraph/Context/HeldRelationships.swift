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
    }

    private final class Box {
        @exclusivity(unchecked) var loadedToMany: [RelatedObjects?] = []
        @exclusivity(unchecked) var heldToOne: HeldDestinations = []
    }

    private var storage = Storage.none

    var loadedToMany: [RelatedObjects?] {
        get {
            guard case .boxed(let box) = storage else { return [] }
            return box.loadedToMany
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
                storage = newValue[0].map(Storage.toOne) ?? .emptyToOne
            } else {
                box().heldToOne = newValue
            }
        }
        _modify {
            if case .boxed(let box) = storage {
                yield &box.heldToOne
            } else {
                var held = heldToOne
                defer { heldToOne = held }
                yield &held
            }
        }
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
