import Foundation

/// The heap block behind a `ValueRow`: a 16-byte payload per slot, then one kind byte per slot,
/// then the text of the strings the row keeps in itself.
///
/// An array of `AttributeValue` spends 24 bytes a slot: the enum is 17 bytes (its `String` and
/// `UUID` payloads leave no spare bits for the case tag) rounded up to its alignment. Keeping the
/// kinds apart makes a 7-slot row 144 bytes instead of 200, and lets `deinit` release only the
/// slots that hold references instead of running the runtime's generic array destroy.
///
/// A row read from a store keeps its long ASCII strings as bytes in its own block (kind `.text`)
/// instead of one `String` allocation each: a string longer than a small string costs 32 bytes
/// of header and a heap block of its own. The `String` is made when the slot is read.
///
/// Tail words: `2 × capacity` for the payloads, then `capacity` kind bytes rounded up to a word,
/// then `textCapacity` bytes of text rounded up to a word. Slots at and beyond `count`, and text
/// at and beyond `textCount`, are uninitialized.
final class ValueRowStorage: ManagedBuffer<ValueRowStorage.Header, UInt64> {
    struct Header {
        var count: Int32
        var capacity: Int32
        var textCount: Int32
        var textCapacity: Int32
    }

    /// What a slot's payload holds: the `AttributeValue` case, or `text`, a string kept as UTF-8
    /// in the block's text (its payload is the offset and the length).
    enum Kind: UInt8 {
        case null, integer, double, float, decimal, string, boolean, date, binary, uuid, uri, json, object, text
    }

    /// The longest UTF-8 string Swift keeps inside the `String` value itself on 64-bit platforms;
    /// longer ones live in a heap block of their own.
    static let longestSmallString = 15

    /// A value too wide for a slot's 16 bytes (`Decimal`), kept behind a reference.
    final class Box<Value: Sendable>: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// The row of no slots every empty `ValueRow` shares; it is never changed (a row appending to
    /// it copies it first, as it is not uniquely referenced).
    nonisolated(unsafe) static let empty = make(capacity: 0)

    /// A block with room for `capacity` slots and `textCapacity` bytes of text.
    static func make(capacity: Int, textCapacity: Int = 0) -> ValueRowStorage {
        precondition(
            capacity <= Int(Int32.max) && textCapacity <= Int(Int32.max),
            "a value row of \(capacity) slots and \(textCapacity) bytes of text")
        let words = textOffset(capacity: capacity) / 8 + (textCapacity + 7) / 8
        let buffer = create(minimumCapacity: words) { _ in
            Header(count: 0, capacity: Int32(capacity), textCount: 0, textCapacity: Int32(textCapacity))
        }
        return unsafeDowncast(buffer, to: ValueRowStorage.self)
    }

    /// Where the text starts, in bytes from the first tail word.
    @inline(__always)
    private static func textOffset(capacity: Int) -> Int {
        8 * (2 * capacity + (capacity + 7) / 8)
    }

    deinit {
        withUnsafeMutablePointers { header, words in
            let base = UnsafeMutableRawPointer(words)
            let capacity = Int(header.pointee.capacity)
            for slot in 0..<Int(header.pointee.count) {
                Self.destroy(at: base, slot: slot, capacity: capacity)
            }
        }
    }

    // Read through the header's pointer: the `header` property is a class's stored property, and
    // each access to it would be checked for exclusivity at run time (a call into the runtime).
    var count: Int { withUnsafeMutablePointerToHeader { Int($0.pointee.count) } }
    var slotCapacity: Int { withUnsafeMutablePointerToHeader { Int($0.pointee.capacity) } }

    /// A new block with the same values (each retained once more, text copied as text) and room
    /// for `capacity` slots.
    func copy(capacity: Int) -> ValueRowStorage {
        let textCount = withUnsafeMutablePointerToHeader { Int($0.pointee.textCount) }
        let copy = Self.make(capacity: capacity, textCapacity: textCount)
        for slot in 0..<count {
            if withText(at: slot, { copy.appendText($0) }) == nil { copy.append(self[slot]) }
        }
        return copy
    }

    @inline(__always)
    subscript(slot: Int) -> AttributeValue {
        withUnsafeMutablePointers { header, words in
            Self.value(at: UnsafeMutableRawPointer(words), slot: slot, capacity: Int(header.pointee.capacity))
        }
    }

    /// Whether `slot` holds `.null`: its kind alone is read, not its value.
    @inline(__always)
    func isNull(at slot: Int) -> Bool {
        let (header, words) = pointers
        return Self.kind(at: UnsafeMutableRawPointer(words), slot: slot, capacity: Int(header.pointee.capacity)) == .null
    }

    /// Runs `body` on the UTF-8 bytes of the string in `slot`, read in place; `nil` when the slot
    /// holds no string.
    @inline(__always)
    func withStringUTF8<R>(at slot: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        let (header, words) = pointers
        let base = UnsafeMutableRawPointer(words)
        let capacity = Int(header.pointee.capacity)
        switch Self.kind(at: base, slot: slot, capacity: capacity) {
        case .string:
            let string = (base + 16 * slot).assumingMemoryBound(to: String.self)
            // In place: going through `utf8` copies the string (a retain and a release). Only a
            // string without contiguous UTF-8, which Swift on Linux never makes, would be
            // rewritten by `withUTF8`, into the same value.
            return try string.pointee.withUTF8(body)
        case .text: return try body(Self.text(at: base, slot: slot, capacity: capacity))
        default: return nil
        }
    }

    /// Runs `body` on the bytes of the slot's text when it is a `.text` slot; `nil` otherwise.
    @inline(__always)
    private func withText<R>(at slot: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        let (header, words) = pointers
        let base = UnsafeMutableRawPointer(words)
        let capacity = Int(header.pointee.capacity)
        guard Self.kind(at: base, slot: slot, capacity: capacity) == .text else { return nil }
        return try body(Self.text(at: base, slot: slot, capacity: capacity))
    }

    /// Stores the string of UTF-8 `bytes` in the next slot, as text in this block when it is
    /// long, ASCII and fits the text capacity left; otherwise as a `String`. The caller made sure
    /// there is a slot.
    @inline(__always)
    func appendString(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        let header = withUnsafeMutablePointerToHeader { $0 }
        if bytes.count > Self.longestSmallString,
            bytes.count <= Int(header.pointee.textCapacity - header.pointee.textCount), bytes.isASCII
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
        let capacity = Int(header.pointee.capacity)
        let offset = Int(header.pointee.textCount)
        precondition(bytes.count <= Int(header.pointee.textCapacity) - offset, "value row text beyond its capacity")
        if let source = bytes.baseAddress {
            (base + Self.textOffset(capacity: capacity) + offset).copyMemory(from: source, byteCount: bytes.count)
        }
        (base + 16 * slot).initializeMemory(as: (Int, Int).self, to: (offset, bytes.count))
        base.storeBytes(of: Kind.text.rawValue, toByteOffset: 16 * capacity + slot, as: UInt8.self)
        header.pointee.textCount += Int32(bytes.count)
        header.pointee.count += 1
    }

    /// Stores `value` in the next slot; the caller made sure there is room.
    @inline(__always)
    func append(_ value: consuming AttributeValue) {
        let (header, words) = pointers
        let slot = Int(header.pointee.count)
        Self.initialize(UnsafeMutableRawPointer(words), slot: slot, capacity: Int(header.pointee.capacity), to: value)
        header.pointee.count += 1
    }

    /// Replaces the value of an initialized slot; traps for a slot out of range.
    @inline(__always)
    func replace(_ slot: Int, with value: consuming AttributeValue) {
        let (header, words) = pointers
        precondition(slot >= 0 && slot < Int(header.pointee.count), "value row slot \(slot) out of 0..<\(header.pointee.count)")
        let base = UnsafeMutableRawPointer(words)
        let capacity = Int(header.pointee.capacity)
        Self.destroy(at: base, slot: slot, capacity: capacity)
        Self.initialize(base, slot: slot, capacity: capacity, to: value)
    }

    /// The header and the tail words, taken out of `withUnsafeMutablePointers` so that a
    /// consumed value need not be captured by its closure (which would copy it). They stay valid
    /// while this storage lives, which the method using them guarantees.
    @inline(__always)
    private var pointers: (header: UnsafeMutablePointer<Header>, words: UnsafeMutablePointer<UInt64>) {
        withUnsafeMutablePointers { ($0, $1) }
    }

    // MARK: Slots

    @inline(__always)
    private static func kind(at base: UnsafeMutableRawPointer, slot: Int, capacity: Int) -> Kind {
        // Only `initialize` writes kind bytes, and only valid ones.
        unsafeBitCast(base.load(fromByteOffset: 16 * capacity + slot, as: UInt8.self), to: Kind.self)
    }

    @inline(__always)
    private static func initialize(
        _ base: UnsafeMutableRawPointer, slot: Int, capacity: Int, to value: consuming AttributeValue
    ) {
        let payload = base + 16 * slot
        // The value is consumed, so its payload moves into the slot instead of being copied
        // (a retain here and a release of the value after).
        func put<Payload>(_ value: consuming Payload, _ kind: Kind) -> Kind {
            payload.initializeMemory(as: Payload.self, to: value)
            return kind
        }
        let kind: Kind
        switch consume value {
        case .null: kind = .null
        case .integer(let integer): kind = put(integer, .integer)
        case .double(let double): kind = put(double, .double)
        case .float(let float): kind = put(float, .float)
        case .decimal(let decimal): kind = put(Box(decimal), .decimal)
        case .string(let string): kind = put(string, .string)
        case .boolean(let flag): kind = put(flag, .boolean)
        case .date(let date): kind = put(date, .date)
        case .binary(let data): kind = put(data, .binary)
        case .uuid(let uuid): kind = put(uuid, .uuid)
        case .uri(let url): kind = put(url, .uri)
        case .json(let document): kind = put(document, .json)
        case .object(let objectID): kind = put(objectID, .object)
        }
        base.storeBytes(of: kind.rawValue, toByteOffset: 16 * capacity + slot, as: UInt8.self)
    }

    @inline(__always)
    private static func value(at base: UnsafeMutableRawPointer, slot: Int, capacity: Int) -> AttributeValue {
        let payload = base + 16 * slot
        switch kind(at: base, slot: slot, capacity: capacity) {
        case .null: return .null
        case .integer: return .integer(payload.assumingMemoryBound(to: Int64.self).pointee)
        case .double: return .double(payload.assumingMemoryBound(to: Double.self).pointee)
        case .float: return .float(payload.assumingMemoryBound(to: Float.self).pointee)
        case .decimal: return .decimal(payload.assumingMemoryBound(to: Box<Decimal>.self).pointee.value)
        case .string: return .string(payload.assumingMemoryBound(to: String.self).pointee)
        case .boolean: return .boolean(payload.assumingMemoryBound(to: Bool.self).pointee)
        case .date: return .date(payload.assumingMemoryBound(to: Date.self).pointee)
        case .binary: return .binary(payload.assumingMemoryBound(to: Data.self).pointee)
        case .uuid: return .uuid(payload.assumingMemoryBound(to: UUID.self).pointee)
        case .uri: return .uri(payload.assumingMemoryBound(to: URL.self).pointee)
        case .json: return .json(payload.assumingMemoryBound(to: JSONDocument.self).pointee)
        case .object: return .object(payload.assumingMemoryBound(to: ManagedObjectID.self).pointee)
        case .text: return .string(String(decoding: text(at: base, slot: slot, capacity: capacity), as: UTF8.self))
        }
    }

    /// The bytes of a `.text` slot.
    @inline(__always)
    private static func text(at base: UnsafeMutableRawPointer, slot: Int, capacity: Int) -> UnsafeBufferPointer<UInt8> {
        let (offset, count) = (base + 16 * slot).load(as: (Int, Int).self)
        let start = (base + textOffset(capacity: capacity) + offset).assumingMemoryBound(to: UInt8.self)
        return UnsafeBufferPointer(start: start, count: count)
    }

    /// Ends the life of an initialized slot's payload; only the kinds holding references have
    /// anything to release.
    @inline(__always)
    private static func destroy(at base: UnsafeMutableRawPointer, slot: Int, capacity: Int) {
        let payload = base + 16 * slot
        switch kind(at: base, slot: slot, capacity: capacity) {
        case .null, .integer, .double, .float, .boolean, .date, .uuid, .text: break
        case .decimal: payload.assumingMemoryBound(to: Box<Decimal>.self).deinitialize(count: 1)
        case .string: payload.assumingMemoryBound(to: String.self).deinitialize(count: 1)
        case .binary: payload.assumingMemoryBound(to: Data.self).deinitialize(count: 1)
        case .uri: payload.assumingMemoryBound(to: URL.self).deinitialize(count: 1)
        case .json: payload.assumingMemoryBound(to: JSONDocument.self).deinitialize(count: 1)
        case .object: payload.assumingMemoryBound(to: ManagedObjectID.self).deinitialize(count: 1)
        }
    }
}
