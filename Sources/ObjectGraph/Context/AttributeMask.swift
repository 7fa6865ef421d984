/// A set of attribute slots, as bits: which attributes of an object have unsaved changes.
/// The first 64 slots live inline, so the common entity never allocates for it.
struct AttributeMask: Equatable, Sendable {
    private var low: UInt64 = 0
    private var high: [UInt64] = []

    var isEmpty: Bool { low == 0 && high.allSatisfy { $0 == 0 } }

    func contains(_ slot: Int) -> Bool {
        if slot < 64 { return low & (1 << UInt64(slot)) != 0 }
        let word = slot / 64 - 1
        return word < high.count && high[word] & (1 << UInt64(slot % 64)) != 0
    }

    mutating func insert(_ slot: Int) {
        if slot < 64 {
            low |= 1 << UInt64(slot)
            return
        }
        let word = slot / 64 - 1
        if word >= high.count { high.append(contentsOf: repeatElement(0, count: word - high.count + 1)) }
        high[word] |= 1 << UInt64(slot % 64)
    }

    mutating func remove(_ slot: Int) {
        if slot < 64 {
            low &= ~(1 << UInt64(slot))
        } else if slot / 64 - 1 < high.count {
            high[slot / 64 - 1] &= ~(1 << UInt64(slot % 64))
        }
    }

    mutating func removeAll() { self = AttributeMask() }

    /// The slots in the set, ascending.
    func slots(below count: Int) -> [Int] { (0..<count).filter(contains) }
}
