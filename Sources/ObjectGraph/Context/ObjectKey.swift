/// An object's identity as a set member or dictionary key, hashed with `WordHash`
/// (`ObjectIdentifier` hashes with SipHash): what a context keeps per object it reported or
/// observes is keyed by it, one hash per object.
struct ObjectKey: Hashable {
    private let identifier: ObjectIdentifier

    init(_ object: ManagedObject) {
        identifier = ObjectIdentifier(object)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
    }

    func _rawHashValue(seed: Int) -> Int {
        WordHash.hash(UInt64(UInt(bitPattern: identifier)), seed: seed)
    }
}
