/// The last saved or fetched values of the value-row slots an object changed since: each slot's
/// value is kept from its first change on. Only changed slots are kept, not the whole row: an
/// object edited in one attribute then costs one small entry instead of a second copy of its row
/// (a fetch-edit-save of many objects used to double the memory their rows take).
struct SavedValues {
    private struct Entry {
        let slot: Int
        let value: AttributeValue
    }

    private var entries: [Entry] = []

    /// Whether no slot changed: the row is as saved.
    var isEmpty: Bool { entries.isEmpty }

    /// Keeps `row[slot]` as the saved value of `slot`, unless the slot changed before (what was
    /// kept then is the saved value). Call before writing the slot.
    mutating func keep(_ slot: Int, of row: ValueRow) {
        for entry in entries where entry.slot == slot { return }
        entries.append(Entry(slot: slot, value: row[slot]))
    }

    /// The saved value of `slot`, `row` being the current values.
    func value(at slot: Int, in row: ValueRow) -> AttributeValue {
        for entry in entries where entry.slot == slot { return entry.value }
        return row[slot]
    }

    /// The saved row, `row` being the current values.
    func savedRow(from row: ValueRow) -> ValueRow {
        var saved = row
        restore(&saved)
        return saved
    }

    /// Puts the saved values back into `row`.
    func restore(_ row: inout ValueRow) {
        for entry in entries { row[entry.slot] = entry.value }
    }
}
