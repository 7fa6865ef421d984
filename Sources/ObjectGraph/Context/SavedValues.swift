/// The last saved or fetched values of the value-row slots an object changed since: each slot's
/// value is kept from its first change on. Only changed slots are kept, not the whole row: an
/// object edited in one attribute then costs one small entry instead of a second copy of its row
/// (a fetch-edit-save of many objects used to double the memory their rows take).
struct SavedValues {
    private struct Entry {
        let slot: Int
        let value: AttributeValue
    }

    /// The one changed slot of an object edited in one attribute, the common case: a 48-byte
    /// block, where an array of one entry takes 80. The value comes first so the slot fits in its
    /// padding (40 bytes with the object header).
    private final class SingleEntry {
        let value: AttributeValue
        let slot: Int32

        init(slot: Int, value: AttributeValue) {
            self.value = value
            self.slot = Int32(slot)
        }
    }

    private enum Entries {
        case none
        case single(SingleEntry)
        case several([Entry])
    }

    private var entries = Entries.none

    /// Whether no slot changed: the row is as saved.
    var isEmpty: Bool {
        if case .none = entries { return true }
        return false
    }

    /// Keeps `row[slot]` as the saved value of `slot`, unless the slot changed before (what was
    /// kept then is the saved value). Call before writing the slot.
    mutating func keep(_ slot: Int, of row: ValueRow) {
        switch entries {
        case .none:
            entries = .single(SingleEntry(slot: slot, value: row[slot]))
        case .single(let first):
            guard Int(first.slot) != slot else { return }
            entries = .several([Entry(slot: Int(first.slot), value: first.value), Entry(slot: slot, value: row[slot])])
        case .several(var list):
            for entry in list where entry.slot == slot { return }
            // Released first, so the append finds the list uniquely referenced.
            entries = .none
            list.append(Entry(slot: slot, value: row[slot]))
            entries = .several(list)
        }
    }

    /// The saved value of `slot`, `row` being the current values.
    func value(at slot: Int, in row: ValueRow) -> AttributeValue {
        switch entries {
        case .none: break
        case .single(let first): if Int(first.slot) == slot { return first.value }
        case .several(let list): for entry in list where entry.slot == slot { return entry.value }
        }
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
        switch entries {
        case .none: break
        case .single(let first): row[Int(first.slot)] = first.value
        case .several(let list): for entry in list { row[entry.slot] = entry.value }
        }
    }
}
