import Foundation

/// The heap block behind a `ValueRow`: one kind byte per slot, then the text of the strings the
/// row keeps in itself, then each slot's payload: 8 bytes for a narrow slot, 16 for a wide one.
///
/// An array of `AttributeValue` spends 24 bytes a slot: the enum is 17 bytes (its `String` and
/// `UUID` payloads leave no spare bits for the case tag) rounded up to its alignment. Keeping the
/// kinds apart, and giving numbers and dates 8 bytes (the entity's `ValueRowLayout`), makes a
/// `Person` row of four numbers and three strings 120 bytes instead of 200, and lets `deinit`
/// release only the slots that hold references instead of running the runtime's generic array
/// destroy.
///
/// A row read from a store keeps its long ASCII strings as bytes in its own block (kind `.text`)
/// instead of one `String` allocation each: a string longer than a small string costs 32 bytes
/// of header and a heap block of its own. The `String` is made when the slot is read.
///
/// Tail bytes: `capacity` kind bytes rounded up to a word, the text capacity rounded up to a
/// word, then the payloads in slot order (`Header.payloadStart` says where). A kind byte holds
/// the slot's `Kind` in its low bits, `wideFlag` when the slot is 16 bytes wide, and `boxedFlag`
/// when its payload is a reference to a `Box` holding a value wider than the slot (a `Decimal`,
/// or a string in a narrow slot). Widths are set when the block is made and never change, so a slot's payload is found
/// by counting the wide slots before it. Slots at and beyond `count`, and text at and beyond
/// `textCount`, hold nothing (their kind bytes only their width).
final class ValueRowStorage: ManagedBuffer<ValueRowStorage.Header, UInt64> {
    struct Header {
        var count: Int32
        var capacity: Int32
        var textCount: Int32
        /// Where the payloads start, in bytes from the first tail word (the text ends there).
        var payloadStart: Int32
    }

    /// What a slot's payload holds: the `AttributeValue` case, or `text`, a string kept as UTF-8
    /// in the block's text (its payload is the offset and the length, as two `Int32`s).
    ///
    /// The kinds whose payloads are references come last, from `string` on (a boxed payload is a
    /// reference whatever its kind, and a `Decimal` is always boxed): a word of kind bytes then
    /// tells in a few instructions which of its eight slots need retaining or releasing
    /// (`referenceBytes`).
    enum Kind: UInt8 {
        case null, integer, double, float, boolean, date, uuid, text, decimal
        case string, binary, uri, json, object
    }

    /// The bits of a kind byte that hold the `Kind`.
    private static let kindBits: UInt8 = 0x0F
    /// Set in a kind byte when the payload is a `Box` of the value.
    private static let boxedFlag: UInt8 = 0x40
    /// Set in a kind byte when the slot is 16 bytes wide (else 8).
    private static let wideFlag: UInt8 = 0x80
    /// `wideFlag` in each byte of a word of kind bytes.
    private static let wideFlags: UInt64 = 0x8080_8080_8080_8080

    /// The longest UTF-8 string Swift keeps inside the `String` value itself on 64-bit platforms;
    /// longer ones live in a heap block of their own.
    static let longestSmallString = 15

    /// A value too wide for its slot, kept behind a reference.
    final class Box<Value: Sendable>: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// The row of no slots every empty `ValueRow` shares; it is never changed (a row appending to
    /// it copies it first, as it is not uniquely referenced).
    nonisolated(unsafe) static let empty = make(capacity: 0)

    /// A block with room for `capacity` slots of `layout`'s widths and `textCapacity` bytes of text.
    @inline(__always)
    static func make(capacity: Int, textCapacity: Int = 0, layout: ValueRowLayout = .allWide) -> ValueRowStorage {
        make(capacity: capacity, textCapacity: textCapacity) { word in
            let narrow = word < 8 ? UInt8(truncatingIfNeeded: layout.narrowSlots >> UInt64(8 * word)) : 0
            return flagBytes(~narrow) & bytes(below: capacity, inWord: word)
        }
    }

    /// `wideFlag` in the kind byte of each slot whose bit is set in `bits` (bit `i`: byte `i`):
    /// each bit copied into every byte, kept in its own byte, then carried up to the byte's top.
    @inline(__always)
    private static func flagBytes(_ bits: UInt8) -> UInt64 {
        (((UInt64(bits) &* 0x0101_0101_0101_0101) & 0x8040_2010_0804_0201) &+ 0x7F7F_7F7F_7F7F_7F7F) & wideFlags
    }

    /// All ones in the bytes of word `word` of kind bytes that belong to slots before `slot`.
    @inline(__always)
    private static func bytes(below slot: Int, inWord word: Int) -> UInt64 {
        let slots = slot - 8 * word
        if slots <= 0 { return 0 }
        if slots >= 8 { return ~0 }
        return (1 &<< UInt64(8 * slots)) &- 1
    }

    /// A block with room for `capacity` slots and `textCapacity` bytes of text, the slots' widths
    /// given as `wideFlags(word)`: the `wideFlag` bits of the kind bytes of slots `8 × word` to
    /// `8 × word + 7` (none for slots at and beyond `capacity`).
    @inline(__always)
    private static func make(capacity: Int, textCapacity: Int, wideFlags: (Int) -> UInt64) -> ValueRowStorage {
        precondition(
            capacity >= 0 && textCapacity >= 0 && capacity + textCapacity <= Int(Int32.max) - 16,
            "a value row of \(capacity) slots and \(textCapacity) bytes of text")
        let kindWords = (capacity + 7) / 8
        var wideSlots = 0
        for word in 0..<kindWords { wideSlots += count(wideFlags(word)) }
        let textWords = (textCapacity + 7) / 8
        let buffer = create(minimumCapacity: kindWords + textWords + capacity + wideSlots) { _ in
            Header(count: 0, capacity: Int32(capacity), textCount: 0, payloadStart: Int32(8 * (kindWords + textWords)))
        }
        let storage = unsafeDowncast(buffer, to: ValueRowStorage.self)
        storage.withUnsafeMutablePointerToElements { words in
            for word in 0..<kindWords { (words + word).initialize(to: UInt64(littleEndian: wideFlags(word))) }
        }
        return storage
    }

    deinit {
        // Slot by slot: most rows hold a reference or two (strings, to-one IDs), and then the
        // walk costs less than finding them by their words of kinds (`forEachReference`).
        withUnsafeMutablePointers { header, words in
            let base = UnsafeMutableRawPointer(words)
            var payload = base + Self.payloadStart(header)
            for slot in 0..<Int(header.pointee.count) {
                let kind = base.load(fromByteOffset: slot, as: UInt8.self)
                Self.destroy(payload, kind: kind)
                payload += kind & Self.wideFlag != 0 ? 16 : 8
            }
        }
    }

    // Read through the header's pointer: the `header` property is a class's stored property, and
    // each access to it would be checked for exclusivity at run time (a call into the runtime).
    var count: Int { withUnsafeMutablePointerToHeader { Int($0.pointee.count) } }
    var slotCapacity: Int { withUnsafeMutablePointerToHeader { Int($0.pointee.capacity) } }

    /// A new block with the same values (each retained once more, text copied as text), room for
    /// `capacity` slots, and the same slot widths (slots beyond this block's capacity are wide).
    func copy(capacity: Int) -> ValueRowStorage {
        let (header, words) = pointers
        let ownCapacity = Int(header.pointee.capacity)
        let count = Int(header.pointee.count)
        let textCount = Int(header.pointee.textCount)
        if capacity == ownCapacity, Self.payloadStart(header) == Self.textStart(header) + (textCount + 7) & ~7 {
            return sameShapeCopy()
        }
        let copy = Self.make(capacity: capacity, textCapacity: textCount) { word in
            let own = word < (ownCapacity + 7) / 8 ? UInt64(littleEndian: words[word]) & Self.wideFlags : 0
            let kept = Self.bytes(below: min(capacity, ownCapacity), inWord: word)
            let added = Self.bytes(below: capacity, inWord: word) & ~Self.bytes(below: ownCapacity, inWord: word)
            return own & kept | added & Self.wideFlags
        }
        let (copyHeader, copyWords) = copy.pointers
        let base = UnsafeMutableRawPointer(words)
        let copyBase = UnsafeMutableRawPointer(copyWords)
        // The text is copied whole, so `.text` payloads (offsets into it) stay as they are; the
        // slots have the same widths, so each payload is where it was, from the payloads' start.
        (copyBase + Self.textStart(copyHeader)).copyMemory(from: base + Self.textStart(header), byteCount: textCount)
        var source = base + Self.payloadStart(header)
        var target = copyBase + Self.payloadStart(copyHeader)
        for slot in 0..<count {
            let kind = base.load(fromByteOffset: slot, as: UInt8.self)
            copyBase.storeBytes(of: kind, toByteOffset: slot, as: UInt8.self)
            let width = kind & Self.wideFlag != 0 ? 16 : 8
            Self.copyPayload(kind, from: source, to: target, width: width)
            source += width
            target += width
        }
        copyHeader.pointee.count = Int32(count)
        copyHeader.pointee.textCount = Int32(textCount)
        return copy
    }

    /// A copy of a block whose text has no room to spare (what `copy(capacity:)` would make of
    /// it at the same capacity): every tail byte copied at once, then the references retained.
    /// Most copies are of an entity's default row, for a new object, which holds none.
    private func sameShapeCopy() -> ValueRowStorage {
        let (header, words) = pointers
        let base = UnsafeMutableRawPointer(words)
        let byteCount = Self.payload(base, header, slot: Int(header.pointee.capacity)) - base
        let buffer = Self.create(minimumCapacity: byteCount / 8) { _ in header.pointee }
        let copy = unsafeDowncast(buffer, to: ValueRowStorage.self)
        let copyBase = UnsafeMutableRawPointer(copy.pointers.words)
        copyBase.copyMemory(from: base, byteCount: byteCount)
        Self.forEachReference(base, header) { kind, payload in
            // The bits are copied already; this copies the value over them, retaining it.
            Self.copyPayload(kind, from: payload, to: copyBase + (payload - base), width: 0)
        }
        return copy
    }

    /// Runs `body` on the kind byte and payload of each slot before `count` whose payload holds
    /// a reference, in slot order; a word of slots without one is passed over at once.
    @inline(__always)
    private static func forEachReference(
        _ base: UnsafeMutableRawPointer, _ header: UnsafeMutablePointer<Header>, _ body: (UInt8, UnsafeMutableRawPointer) -> Void
    ) {
        let count = Int(header.pointee.count)
        // The payload of the first slot of the word of kinds at hand.
        var wordPayload = base + payloadStart(header)
        var word = 0
        while 8 &* word < count {
            let kinds = UInt64(littleEndian: base.load(fromByteOffset: 8 &* word, as: UInt64.self))
            let wide = kinds & wideFlags
            // Slots at and beyond `count` hold `.null`, which is no reference.
            var references = referenceBytes(kinds)
            while references != 0 {
                let bit = references.trailingZeroBitCount
                let byte = bit &>> 3
                let bytesBelow = (1 &<< UInt64(bit & ~7)) &- 1
                body(
                    base.load(fromByteOffset: 8 &* word &+ byte, as: UInt8.self), wordPayload + 8 &* (byte &+ Self.count(wide & bytesBelow))
                )
                references &= references &- 1
            }
            wordPayload += 8 &* (8 &+ Self.count(wide))
            word &+= 1
        }
    }

    /// A word with bit 4 set in each byte of `kinds` (a word of kind bytes) whose slot holds a
    /// reference: a boxed payload, or a kind from `string` on (its low four bits plus 7 reach 16).
    @inline(__always)
    private static func referenceBytes(_ kinds: UInt64) -> UInt64 {
        let lowBits: UInt64 = 0x0F0F_0F0F_0F0F_0F0F
        let fromString = ((kinds & lowBits) &+ 0x0101_0101_0101_0101 &* UInt64(16 - Kind.string.rawValue)) & 0x1010_1010_1010_1010
        let boxed = (kinds & 0x4040_4040_4040_4040) >> 2
        return fromString | boxed
    }

    /// The bytes this block was asked for: the object header, the header, and the tail words up
    /// to the end of the last slot's payload.
    var allocatedBytes: Int {
        let (header, words) = pointers
        let end = Self.payload(UnsafeMutableRawPointer(words), header, slot: Int(header.pointee.capacity))
        return UnsafeRawPointer(end) - UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
    }

    @inline(__always)
    subscript(slot: Int) -> AttributeValue {
        let (header, words) = pointers
        let base = UnsafeMutableRawPointer(words)
        return Self.value(base.load(fromByteOffset: slot, as: UInt8.self), at: Self.payload(base, header, slot: slot), base, header)
    }

    /// Whether `slot` holds `.null`: its kind alone is read, not its value.
    @inline(__always)
    func isNull(at slot: Int) -> Bool {
        Self.kind(UnsafeMutableRawPointer(pointers.words).load(fromByteOffset: slot, as: UInt8.self)) == .null
    }

    /// Runs `body` on the UTF-8 bytes of the string in `slot`, read in place; `nil` when the slot
    /// holds no string.
    @inline(__always)
    func withStringUTF8<R>(at slot: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        let (header, words) = pointers
        let base = UnsafeMutableRawPointer(words)
        let kind = base.load(fromByteOffset: slot, as: UInt8.self)
        switch Self.kind(kind) {
        case .string:
            let payload = Self.payload(base, header, slot: slot)
            // In place: going through `utf8` copies the string (a retain and a release). Only a
            // string without contiguous UTF-8, which Swift on Linux never makes, would be
            // rewritten by `withUTF8`, into the same value.
            if kind & Self.boxedFlag != 0 {
                var string = payload.assumingMemoryBound(to: Box<String>.self).pointee.value
                return try string.withUTF8(body)
            }
            return try payload.assumingMemoryBound(to: String.self).pointee.withUTF8(body)
        case .text: return try body(Self.text(at: Self.payload(base, header, slot: slot), base, header))
        default: return nil
        }
    }

    /// Runs `body` on the bytes of the slot's text when it is a `.text` slot; `nil` otherwise.
    @inline(__always)
    private func withText<R>(at slot: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        let (header, words) = pointers
        let base = UnsafeMutableRawPointer(words)
        guard Self.kind(base.load(fromByteOffset: slot, as: UInt8.self)) == .text else { return nil }
        return try body(Self.text(at: Self.payload(base, header, slot: slot), base, header))
    }

    /// Stores the string of UTF-8 `bytes` in the next slot, as text in this block when it is
    /// long, ASCII and fits the text capacity left; otherwise as a `String`. The caller made sure
    /// there is a slot.
    @inline(__always)
    func appendString(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        let header = withUnsafeMutablePointerToHeader { $0 }
        if bytes.count > Self.longestSmallString,
            bytes.count <= Self.textRoom(header), bytes.isASCII
        {
            appendText(bytes)
        } else {
            append(.string(String(decoding: bytes, as: UTF8.self)))
        }
    }

    /// Stores `bytes`, valid UTF-8 that fits the text capacity left, as the next slot's text.
    @inline(__always)
    private func appendText(_ bytes: UnsafeBufferPointer<UInt8>) {
        let (header, words) = pointers
        let base = UnsafeMutableRawPointer(words)
        let slot = Int(header.pointee.count)
        let offset = header.pointee.textCount
        precondition(bytes.count <= Self.textRoom(header), "value row text beyond its capacity")
        if let source = bytes.baseAddress {
            (base + Self.textStart(header) + Int(offset)).copyMemory(from: source, byteCount: bytes.count)
        }
        Self.payload(base, header, slot: slot).initializeMemory(as: (Int32, Int32).self, to: (offset, Int32(bytes.count)))
        Self.setKind(.text, boxed: false, at: slot, base)
        header.pointee.textCount += Int32(bytes.count)
        header.pointee.count += 1
    }

    /// Stores `value` in the next slot; the caller made sure there is room.
    @inline(__always)
    func append(_ value: consuming AttributeValue) {
        let (header, words) = pointers
        let slot = Int(header.pointee.count)
        let base = UnsafeMutableRawPointer(words)
        Self.initialize(Self.payload(base, header, slot: slot), slot: slot, base, to: value)
        header.pointee.count += 1
    }

    /// Replaces the value of an initialized slot; traps for a slot out of range.
    @inline(__always)
    func replace(_ slot: Int, with value: consuming AttributeValue) {
        let (header, words) = pointers
        precondition(slot >= 0 && slot < Int(header.pointee.count), "value row slot \(slot) out of 0..<\(header.pointee.count)")
        let base = UnsafeMutableRawPointer(words)
        let payload = Self.payload(base, header, slot: slot)
        Self.destroy(payload, kind: base.load(fromByteOffset: slot, as: UInt8.self))
        Self.initialize(payload, slot: slot, base, to: value)
    }

    /// The header and the tail words, taken out of `withUnsafeMutablePointers` so that a
    /// consumed value need not be captured by its closure (which would copy it). They stay valid
    /// while this storage lives, which the method using them guarantees.
    @inline(__always)
    private var pointers: (header: UnsafeMutablePointer<Header>, words: UnsafeMutablePointer<UInt64>) {
        withUnsafeMutablePointers { ($0, $1) }
    }

    // MARK: Slots

    /// Where the text starts, in bytes from the first tail word: after the kind bytes.
    @inline(__always)
    private static func textStart(_ header: UnsafeMutablePointer<Header>) -> Int {
        (Int(header.pointee.capacity) + 7) & ~7
    }

    /// Where the payloads start, in bytes from the first tail word: after the text.
    @inline(__always)
    private static func payloadStart(_ header: UnsafeMutablePointer<Header>) -> Int {
        Int(header.pointee.payloadStart)
    }

    /// The bytes of text that still fit before the payloads.
    @inline(__always)
    private static func textRoom(_ header: UnsafeMutablePointer<Header>) -> Int {
        payloadStart(header) - textStart(header) - Int(header.pointee.textCount)
    }

    /// The payload of `slot`: 8 bytes a slot before it, and 8 more for each wide one.
    @inline(__always)
    private static func payload(
        _ base: UnsafeMutableRawPointer, _ header: UnsafeMutablePointer<Header>, slot: Int
    ) -> UnsafeMutableRawPointer {
        let wholeWords = slot >> 3
        var wideSlots = 0
        // Rows of up to eight slots (most) have one word of kinds: the loop is not entered.
        if wholeWords > 0 {
            for word in 0..<wholeWords {
                wideSlots += count(UInt64(littleEndian: base.load(fromByteOffset: 8 * word, as: UInt64.self)) & wideFlags)
            }
        }
        // The kind bytes of the slots before `slot` in its word (none for the word's first slot).
        let below: UInt64 = (1 &<< UInt64(8 * (slot & 7))) &- 1
        if below != 0 {
            wideSlots += count(UInt64(littleEndian: base.load(fromByteOffset: 8 * wholeWords, as: UInt64.self)) & wideFlags & below)
        }
        return base + payloadStart(header) + 8 * (slot + wideSlots)
    }

    /// How many `wideFlag`s a word of kind bytes (masked to its `wideFlags`) holds: each flag
    /// moved to its byte's lowest bit, and the bytes summed into the top byte by one
    /// multiplication (the default x86-64 target has no population count instruction).
    @inline(__always)
    private static func count(_ flags: UInt64) -> Int {
        Int(((flags >> 7) &* 0x0101_0101_0101_0101) >> 56)
    }

    @inline(__always)
    private static func kind(_ byte: UInt8) -> Kind {
        // Only `setKind` writes kinds, and only valid ones.
        unsafeBitCast(byte & kindBits, to: Kind.self)
    }

    /// Writes the kind of `slot`, keeping its width.
    @inline(__always)
    private static func setKind(_ kind: Kind, boxed: Bool, at slot: Int, _ base: UnsafeMutableRawPointer) {
        let width = base.load(fromByteOffset: slot, as: UInt8.self) & wideFlag
        base.storeBytes(of: width | (boxed ? boxedFlag : 0) | kind.rawValue, toByteOffset: slot, as: UInt8.self)
    }

    @inline(__always)
    private static func initialize(
        _ payload: UnsafeMutableRawPointer, slot: Int, _ base: UnsafeMutableRawPointer, to value: consuming AttributeValue
    ) {
        let isWide = base.load(fromByteOffset: slot, as: UInt8.self) & wideFlag != 0
        // The value is consumed, so its payload moves into the slot instead of being copied
        // (a retain here and a release of the value after).
        let kind: Kind
        let isBoxed: Bool
        switch consume value {
        case .null: (kind, isBoxed) = (.null, false)
        case .integer(let integer): (kind, isBoxed) = (.integer, put(integer, at: payload, isWide: isWide))
        case .double(let double): (kind, isBoxed) = (.double, put(double, at: payload, isWide: isWide))
        case .float(let float): (kind, isBoxed) = (.float, put(float, at: payload, isWide: isWide))
        case .decimal(let decimal): (kind, isBoxed) = (.decimal, put(decimal, at: payload, isWide: isWide))
        case .string(let string): (kind, isBoxed) = (.string, put(string, at: payload, isWide: isWide))
        case .boolean(let flag): (kind, isBoxed) = (.boolean, put(flag, at: payload, isWide: isWide))
        case .date(let date): (kind, isBoxed) = (.date, put(date, at: payload, isWide: isWide))
        case .binary(let data): (kind, isBoxed) = (.binary, put(data, at: payload, isWide: isWide))
        case .uuid(let uuid): (kind, isBoxed) = (.uuid, put(uuid, at: payload, isWide: isWide))
        case .uri(let url): (kind, isBoxed) = (.uri, put(url, at: payload, isWide: isWide))
        case .json(let document): (kind, isBoxed) = (.json, put(document, at: payload, isWide: isWide))
        case .object(let objectID): (kind, isBoxed) = (.object, put(objectID, at: payload, isWide: isWide))
        }
        setKind(kind, boxed: isBoxed, at: slot, base)
    }

    /// Moves `value` into the payload at `payload`, in a box when it is wider than the slot;
    /// returns whether it was boxed. The size test folds away for payloads of 8 bytes or less.
    @inline(__always)
    private static func put<Payload: Sendable>(_ value: consuming Payload, at payload: UnsafeMutableRawPointer, isWide: Bool) -> Bool {
        if MemoryLayout<Payload>.size > 8 && MemoryLayout<Payload>.size > (isWide ? 16 : 8) {
            payload.initializeMemory(as: Box<Payload>.self, to: Box(value))
            return true
        }
        payload.initializeMemory(as: Payload.self, to: value)
        return false
    }

    /// The payload at `payload`, out of its box when `isBoxed`.
    @inline(__always)
    private static func get<Payload: Sendable>(_: Payload.Type, at payload: UnsafeMutableRawPointer, isBoxed: Bool) -> Payload {
        if MemoryLayout<Payload>.size > 8, isBoxed { return payload.assumingMemoryBound(to: Box<Payload>.self).pointee.value }
        return payload.assumingMemoryBound(to: Payload.self).pointee
    }

    /// Ends the life of the payload at `payload` (its box, when `isBoxed`).
    @inline(__always)
    private static func release<Payload: Sendable>(_: Payload.Type, at payload: UnsafeMutableRawPointer, isBoxed: Bool) {
        if MemoryLayout<Payload>.size > 8, isBoxed {
            payload.assumingMemoryBound(to: Box<Payload>.self).deinitialize(count: 1)
        } else {
            payload.assumingMemoryBound(to: Payload.self).deinitialize(count: 1)
        }
    }

    @inline(__always)
    private static func value(
        _ kind: UInt8, at payload: UnsafeMutableRawPointer, _ base: UnsafeMutableRawPointer, _ header: UnsafeMutablePointer<Header>
    ) -> AttributeValue {
        let isBoxed = kind & boxedFlag != 0
        switch Self.kind(kind) {
        case .null: return .null
        case .integer: return .integer(get(Int64.self, at: payload, isBoxed: isBoxed))
        case .double: return .double(get(Double.self, at: payload, isBoxed: isBoxed))
        case .float: return .float(get(Float.self, at: payload, isBoxed: isBoxed))
        case .decimal: return .decimal(get(Decimal.self, at: payload, isBoxed: isBoxed))
        case .string: return .string(get(String.self, at: payload, isBoxed: isBoxed))
        case .boolean: return .boolean(get(Bool.self, at: payload, isBoxed: isBoxed))
        case .date: return .date(get(Date.self, at: payload, isBoxed: isBoxed))
        case .binary: return .binary(get(Data.self, at: payload, isBoxed: isBoxed))
        case .uuid: return .uuid(get(UUID.self, at: payload, isBoxed: isBoxed))
        case .uri: return .uri(get(URL.self, at: payload, isBoxed: isBoxed))
        case .json: return .json(get(JSONDocument.self, at: payload, isBoxed: isBoxed))
        case .object: return .object(get(ManagedObjectID.self, at: payload, isBoxed: isBoxed))
        case .text: return .string(String(decoding: text(at: payload, base, header), as: UTF8.self))
        }
    }

    /// The bytes of a `.text` slot whose payload is at `payload`.
    @inline(__always)
    private static func text(
        at payload: UnsafeMutableRawPointer, _ base: UnsafeMutableRawPointer, _ header: UnsafeMutablePointer<Header>
    ) -> UnsafeBufferPointer<UInt8> {
        let (offset, count) = payload.load(as: (Int32, Int32).self)
        let start = (base + textStart(header) + Int(offset)).assumingMemoryBound(to: UInt8.self)
        return UnsafeBufferPointer(start: start, count: Int(count))
    }

    /// Initializes `target` with a copy of the payload at `source` of a slot of `kind` and
    /// `width` bytes: references retained once more, the rest copied bit for bit.
    @inline(__always)
    private static func copyPayload(_ kind: UInt8, from source: UnsafeMutableRawPointer, to target: UnsafeMutableRawPointer, width: Int) {
        // A box of any value is one class reference.
        if kind & boxedFlag != 0 {
            target.initializeMemory(as: AnyObject.self, to: source.load(as: AnyObject.self))
            return
        }
        switch Self.kind(kind) {
        // A `Decimal` (20 bytes) is always boxed, and so never reaches this switch.
        case .null, .decimal: break
        case .integer, .double, .float, .boolean, .date, .uuid, .text: target.copyMemory(from: source, byteCount: width)
        case .string: copy(String.self, from: source, to: target)
        case .binary: copy(Data.self, from: source, to: target)
        case .uri: copy(URL.self, from: source, to: target)
        case .json: copy(JSONDocument.self, from: source, to: target)
        case .object: copy(ManagedObjectID.self, from: source, to: target)
        }
    }

    @inline(__always)
    private static func copy<Payload>(_: Payload.Type, from source: UnsafeMutableRawPointer, to target: UnsafeMutableRawPointer) {
        target.initializeMemory(as: Payload.self, to: source.assumingMemoryBound(to: Payload.self).pointee)
    }

    /// Ends the life of an initialized slot's payload; only the kinds holding references have
    /// anything to release.
    @inline(__always)
    private static func destroy(_ payload: UnsafeMutableRawPointer, kind: UInt8) {
        let isBoxed = kind & boxedFlag != 0
        switch Self.kind(kind) {
        case .null, .integer, .double, .float, .boolean, .date, .text: break
        case .uuid: if isBoxed { release(UUID.self, at: payload, isBoxed: true) }
        case .decimal: release(Decimal.self, at: payload, isBoxed: isBoxed)
        case .string: release(String.self, at: payload, isBoxed: isBoxed)
        case .binary: release(Data.self, at: payload, isBoxed: isBoxed)
        case .uri: release(URL.self, at: payload, isBoxed: isBoxed)
        case .json: release(JSONDocument.self, at: payload, isBoxed: isBoxed)
        case .object: release(ManagedObjectID.self, at: payload, isBoxed: isBoxed)
        }
    }
}
