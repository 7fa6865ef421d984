import Testing

@testable import ObjectGraph

/// The change bits of an object: one inline word for the first 64 slots, words beyond it for
/// wider entities, with no slot lost when the mask widens.
@Suite struct AttributeMaskTests {
    @Test func slotsOfTheFirstWordAreKeptInline() {
        var mask = AttributeMask()
        #expect(mask.isEmpty)
        for slot in [0, 5, 63] { mask.insert(slot) }
        #expect(mask.slots(below: 64) == [0, 5, 63])
        #expect(!mask.contains(64) && !mask.contains(200))
        mask.remove(5)
        mask.remove(64)
        #expect(mask.slots(below: 64) == [0, 63])
        mask.remove(0)
        mask.remove(63)
        #expect(mask.isEmpty)
    }

    @Test func widerSlotsKeepTheFirstWordsSlots() {
        var mask = AttributeMask()
        mask.insert(3)
        mask.insert(63)
        mask.insert(130)
        mask.insert(64)
        #expect(mask.slots(below: 200) == [3, 63, 64, 130])
        #expect(!mask.contains(131) && !mask.contains(1_000))
        mask.remove(130)
        mask.remove(3)
        mask.remove(999)
        #expect(mask.slots(below: 200) == [63, 64])
        mask.remove(63)
        mask.remove(64)
        #expect(mask.isEmpty)
        mask.insert(70)
        mask.removeAll()
        #expect(mask.isEmpty && !mask.contains(70))
    }

    @Test func forEachSlotVisitsTheSetSlotsAscending() {
        var visited: [Int] = []
        var mask = AttributeMask()
        mask.forEachSlot { visited.append($0) }
        #expect(visited.isEmpty)
        for slot in [5, 0, 63] { mask.insert(slot) }
        mask.forEachSlot { visited.append($0) }
        #expect(visited == [0, 5, 63])
        for slot in [200, 64, 127] { mask.insert(slot) }
        visited = []
        mask.forEachSlot { visited.append($0) }
        #expect(visited == [0, 5, 63, 64, 127, 200])
        #expect(visited == mask.slots(below: 256))
    }
}
