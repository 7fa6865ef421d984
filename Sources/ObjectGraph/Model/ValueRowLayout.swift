/// Which slots of a value row are narrow: 8 bytes of payload instead of 16. A slot's width is
/// fixed when its row is made; a value whose payload is wider than its slot is kept behind a
/// reference (see `ValueRowStorage`), so a layout only decides how much memory a row takes,
/// never what it can hold.
///
/// An entity's rows make the slots of its number, date and boolean attributes narrow: a
/// `Person` of four numbers and three strings then takes 80 bytes of payload instead of 112.
package struct ValueRowLayout: Sendable, Equatable {
    /// Bit `i` set: slot `i` is narrow. Slots from 64 on are always wide.
    package let narrowSlots: UInt64

    /// Every slot 16 bytes wide: room for any value without a reference.
    package static let allWide = ValueRowLayout(narrowSlots: 0)

    package init(narrowSlots: UInt64) {
        self.narrowSlots = narrowSlots
    }

    /// The layout of rows whose first slots hold attributes of `types` (by slot); the slots
    /// after them (to-one references: object IDs) stay wide.
    package init(attributeTypes types: [AttributeType]) {
        var narrow: UInt64 = 0
        for (slot, type) in types.enumerated() where slot < 64 && type.fitsNarrowSlot {
            narrow |= 1 << UInt64(slot)
        }
        self.init(narrowSlots: narrow)
    }
}

extension AttributeType {
    /// Whether the values of this type fit a narrow (8-byte) value-row slot: numbers, dates and
    /// booleans (a `Decimal` is kept behind a reference in a slot of either width).
    var fitsNarrowSlot: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .double, .float, .decimal, .boolean, .date: true
        case .string, .binary, .uuid, .uri, .json: false
        }
    }
}
