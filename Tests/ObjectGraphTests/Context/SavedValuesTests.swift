import Foundation
import Testing

@testable import ObjectGraph

/// An object keeps the saved value of each slot from the slot's first change on, one slot in a
/// block of its own and more in a list: whatever the number of changes, the saved row is the row
/// as it was before the first one.
struct SavedValuesTests {
    private static let original = ValueRow([.integer(1), .string("one, long enough to be stored apart"), .null, .double(4.5)])

    /// Changes `slots` of a copy of `original` in turn, keeping each slot's saved value first.
    private static func changed(_ slots: [Int]) -> (row: ValueRow, saved: SavedValues) {
        var row = original
        var saved = SavedValues()
        for (step, slot) in slots.enumerated() {
            saved.keep(slot, of: row)
            row[slot] = .string("change \(step)")
        }
        return (row, saved)
    }

    @Test(arguments: [[], [1], [1, 1, 1], [0, 3], [3, 0, 3, 2, 0], [2, 1, 0, 3, 1]])
    func theSavedRowIsTheRowBeforeTheFirstChange(slots: [Int]) {
        let (row, saved) = Self.changed(slots)
        #expect(saved.isEmpty == slots.isEmpty)
        #expect(saved.savedRow(from: row) == Self.original)
        for slot in Self.original.indices {
            #expect(saved.value(at: slot, in: row) == Self.original[slot], "slot \(slot)")
        }
        var restored = row
        saved.restore(&restored)
        #expect(restored == Self.original)
    }

    @Test func unchangedSlotsReadTheCurrentRow() {
        var (row, saved) = Self.changed([1])
        row[2] = .integer(9)  // written without keeping its saved value
        #expect(saved.value(at: 2, in: row) == .integer(9))
        #expect(saved.value(at: 1, in: row) == Self.original[1])
    }
}
