/// A row of values, one slot per attribute (then one per to-one relationship): what objects keep
/// and stores exchange. It behaves like `[AttributeValue]` (a copy-on-write collection), but keeps
/// each slot's kind apart from its payload (see `ValueRowStorage`), so rows take a third less
/// memory and release faster.
///
/// Sendable as arrays are: the storage is changed only while this row alone references it.
package struct ValueRow: @unchecked Sendable {
    private var storage: ValueRowStorage

    /// An empty row with room for `capacity` slots of `layout`'s widths.
    package init(capacity: Int, layout: ValueRowLayout = .allWide) {
        storage = capacity == 0 ? .empty : .make(capacity: capacity, layout: layout)
    }

    package init(repeating value: AttributeValue, count: Int) {
        self.init(capacity: count)
        for _ in 0..<count { storage.append(value) }
    }

    /// A row of `count` slots of `layout`'s widths filled front to back: `fill(slot, filler)`
    /// stores slot `slot`'s value through `filler`, once. `textCapacity` bytes are kept for the
    /// long strings that `Filler.appendString(utf8:)` stores in the row itself. What is built is
    /// released if `fill` throws.
    @inline(__always)
    package init(count: Int, textCapacity: Int, layout: ValueRowLayout, _ fill: (Int, Filler) throws -> Void) rethrows {
        storage = .make(capacity: count, textCapacity: textCapacity, layout: layout)
        let filler = Filler(storage: storage)
        for slot in 0..<count {
            try fill(slot, filler)
            // A slot filled twice would write past the storage's capacity on the next one.
            precondition(storage.count == slot + 1, "value row slot \(slot) filled \(storage.count - slot) times")
        }
    }

    /// Stores the values of a row being built by `init(count:textCapacity:_:)`.
    package struct Filler {
        fileprivate let storage: ValueRowStorage

        /// Stores `value` in the slot being filled.
        @inline(__always)
        package func append(_ value: consuming AttributeValue) {
            storage.append(value)
        }

        /// Stores the string of UTF-8 `bytes` (decoded as `String(decoding:as:)` would) in the
        /// slot being filled: a long ASCII string as text in the row itself while the row's text
        /// capacity lasts, any other as a `String`.
        @inline(__always)
        package func appendString(utf8 bytes: UnsafeBufferPointer<UInt8>) {
            storage.appendString(utf8: bytes)
        }
    }

    /// The bytes of text `init(count:textCapacity:_:)` needs for a string of `utf8Count` bytes.
    @inline(__always)
    package static func textCapacity(forStringOf utf8Count: Int) -> Int {
        utf8Count > ValueRowStorage.longestSmallString ? utf8Count : 0
    }

    /// A row of `values`, in slots of `layout`'s widths.
    package init<Values: Sequence<AttributeValue>>(_ values: Values, layout: ValueRowLayout = .allWide) {
        self.init(capacity: values.underestimatedCount, layout: layout)
        for value in values { append(value) }
    }

    private init(storage: ValueRowStorage) {
        self.storage = storage
    }

    /// The bytes the row's heap block was asked for: its object header, counts, kinds, text and
    /// payloads (what the row costs in memory, before the allocator rounds it up).
    var allocatedBytes: Int { storage.allocatedBytes }

    /// A row with the same values in storage of its own.
    package func unsharedCopy() -> ValueRow {
        ValueRow(storage: storage.copy(capacity: storage.count))
    }

    /// Makes the storage this row's own before a change, with room for at least `capacity` slots.
    @inline(__always)
    private mutating func makeUnique(capacity: Int) {
        if !isKnownUniquelyReferenced(&storage) || storage.slotCapacity < capacity {
            storage = storage.copy(capacity: Swift.max(capacity, storage.slotCapacity))
        }
    }

    package mutating func append(_ value: consuming AttributeValue) {
        let count = storage.count
        if storage.slotCapacity == count || !isKnownUniquelyReferenced(&storage) {
            // Grows by half again, as rows are built at their final size but for a few appends.
            makeUnique(capacity: Swift.max(count + 1, count + count / 2))
        }
        storage.append(value)
    }

    package mutating func reserveCapacity(_ capacity: Int) {
        makeUnique(capacity: capacity)
    }

    /// Whether `slot` holds `.null`, found without reading its value (which for text kept in
    /// the row would make a `String`).
    @inline(__always)
    package func isNull(at slot: Int) -> Bool {
        precondition(slot >= 0 && slot < storage.count, "value row slot \(slot) out of 0..<\(storage.count)")
        return storage.isNull(at: slot)
    }

    /// Runs `body` on the UTF-8 bytes of the string in `slot`, read in place, without the copy (a
    /// retain and a release) that reading the value would make; `nil` when the slot holds no
    /// string.
    @inline(__always)
    package func withStringUTF8<R>(at slot: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        precondition(slot >= 0 && slot < storage.count, "value row slot \(slot) out of 0..<\(storage.count)")
        return try storage.withStringUTF8(at: slot, body)
    }
}

extension ValueRow: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    package init() { storage = .empty }

    package var startIndex: Int { 0 }
    package var endIndex: Int { storage.count }
    package var count: Int { storage.count }
    package var isEmpty: Bool { storage.count == 0 }

    package subscript(position: Int) -> AttributeValue {
        // Inlined: reading a slot is most of what reading a value or binding it costs.
        @inline(__always)
        get {
            precondition(position >= 0 && position < storage.count, "value row slot \(position) out of 0..<\(storage.count)")
            return storage[position]
        }
        // Inlined: writing a slot is most of what setting a value costs.
        @inline(__always)
        set {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy(capacity: storage.count) }
            storage.replace(position, with: newValue)
        }
    }

    package mutating func replaceSubrange<Values: Collection<AttributeValue>>(_ subrange: Range<Int>, with values: Values) {
        let row = ValueRow(capacity: count - subrange.count + values.count)
        for value in self[..<subrange.lowerBound] { row.storage.append(value) }
        for value in values { row.storage.append(value) }
        for value in self[subrange.upperBound...] { row.storage.append(value) }
        self = row
    }
}

extension ValueRow: ExpressibleByArrayLiteral {
    package init(arrayLiteral values: AttributeValue...) {
        self.init(values)
    }
}

extension ValueRow: Hashable {
    package static func == (lhs: ValueRow, rhs: ValueRow) -> Bool {
        lhs.storage === rhs.storage || lhs.elementsEqual(rhs)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for value in self { hasher.combine(value) }
    }
}

extension ValueRow: CustomStringConvertible {
    package var description: String { Array(self).description }
}
