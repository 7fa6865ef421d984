/// A set of attribute slots, as bits: which attributes of an object have unsaved changes.
///
/// The slots of an entity with at most 64 properties live in one inline word, so the common
/// entity never allocates for it; a wider entity's mask moves to an array of words the first
/// time a slot past 63 is inserted. Nine bytes: the object's one-byte flags fill the rest of its
/// last word (see `ManagedObject`).
struct AttributeMask: Sendable {
    private enum Words {
        case inline(UInt64)
        case wide([UInt64])
    }

    private var words = Words.inline(0)

    var isEmpty: Bool {
        switch words {
        case .inline(let word): word == 0
        case .wide(let words): words.allSatisfy { $0 == 0 }
        }
    }

    func contains(_ slot: Int) -> Bool {
        switch words {
        case .inline(let word): return slot < 64 && word & Self.bit(slot) != 0
        case .wide(let words): return slot / 64 < words.count && words[slot / 64] & Self.bit(slot) != 0
        }
    }

    mutating func insert(_ slot: Int) {
        switch words {
        case .inline(let word) where slot < 64:
            words = .inline(word | Self.bit(slot))
        case .inline(let word):
            var wide = [word] + repeatElement(0, count: slot / 64)
            wide[slot / 64] |= Self.bit(slot)
            words = .wide(wide)
        case .wide(var wide):
            // Taken out of the enum first, so the array is changed in place, not copied.
            words = .inline(0)
            if slot / 64 >= wide.count { wide.append(contentsOf: repeatElement(0, count: slot / 64 - wide.count + 1)) }
            wide[slot / 64] |= Self.bit(slot)
            words = .wide(wide)
        }
    }

    mutating func remove(_ slot: Int) {
        switch words {
        case .inline(let word):
            if slot < 64 { words = .inline(word & ~Self.bit(slot)) }
        case .wide(var wide):
            guard slot / 64 < wide.count else { return }
            words = .inline(0)
            wide[slot / 64] &= ~Self.bit(slot)
            words = .wide(wide)
        }
    }

    mutating func removeAll() { self = AttributeMask() }

    /// The slots in the set, ascending.
    func slots(below count: Int) -> [Int] { (0..<count).filter(contains) }

    /// Calls `body` with each slot in the set, ascending: a step per slot, not per bit.
    func forEachSlot(_ body: (Int) throws -> Void) rethrows {
        switch words {
        case .inline(let word): try Self.forEachSlot(in: word, from: 0, body)
        case .wide(let words):
            for index in words.indices { try Self.forEachSlot(in: words[index], from: index * 64, body) }
        }
    }

    private static func forEachSlot(in word: UInt64, from first: Int, _ body: (Int) throws -> Void) rethrows {
        var remaining = word
        while remaining != 0 {
            try body(first + remaining.trailingZeroBitCount)
            remaining &= remaining - 1
        }
    }

    private static func bit(_ slot: Int) -> UInt64 { 1 << UInt64(slot % 64) }
}
