/// The destinations of to-one relationships an object holds (see `ManagedObject.heldToOne`), by
/// position in its entity's `toOneRelationships`. Most entities have a single to-one (a book's
/// author), so one destination is kept inline: holding it costs no array allocation per object,
/// which for a fetch of 100,000 books with their authors prefetched was 100,000 allocations.
struct HeldDestinations: RandomAccessCollection, MutableCollection, ExpressibleByArrayLiteral {
    private enum Storage {
        case none
        case single(ManagedObject?)
        case several([ManagedObject?])
    }

    private var storage: Storage

    /// `count` empty positions.
    init(count: Int) {
        switch count {
        case 0: storage = .none
        case 1: storage = .single(nil)
        default: storage = .several(Array(repeating: nil, count: count))
        }
    }

    /// One position, holding `destination`.
    init(single destination: ManagedObject?) {
        storage = .single(destination)
    }

    init(_ destinations: [ManagedObject?]) {
        self.init(count: destinations.count)
        for (position, destination) in destinations.enumerated() { self[position] = destination }
    }

    init(arrayLiteral destinations: ManagedObject?...) {
        self.init(destinations)
    }

    var startIndex: Int { 0 }

    var endIndex: Int {
        switch storage {
        case .none: 0
        case .single: 1
        case .several(let destinations): destinations.count
        }
    }

    subscript(position: Int) -> ManagedObject? {
        get {
            switch storage {
            case .none: preconditionFailure("no held destinations")
            case .single(let destination):
                precondition(position == 0, "held destination \(position) out of range")
                return destination
            case .several(let destinations): return destinations[position]
            }
        }
        set {
            switch storage {
            case .none: preconditionFailure("no held destinations")
            case .single:
                precondition(position == 0, "held destination \(position) out of range")
                storage = .single(newValue)
            case .several(var destinations):
                // Taken out of the enum first, so the array is changed in place, not copied.
                storage = .none
                destinations[position] = newValue
                storage = .several(destinations)
            }
        }
    }
}
