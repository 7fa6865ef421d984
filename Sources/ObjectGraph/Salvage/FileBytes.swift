/// Reading the numbers of SQLite's file formats out of bytes that may be damaged: every read is
/// bounds-checked and gives `nil` rather than trapping, because salvage reads whatever is there.
extension Array where Element == UInt8 {
    /// The big-endian unsigned integer of `width` bytes (1…8) at `offset`.
    func bigEndian(at offset: Int, width: Int) -> UInt64? {
        guard offset >= 0, width > 0, offset + width <= count else { return nil }
        var value: UInt64 = 0
        for index in offset..<(offset + width) { value = value << 8 | UInt64(self[index]) }
        return value
    }

    func uint16(at offset: Int) -> Int? { bigEndian(at: offset, width: 2).map { Int($0) } }
    func uint32(at offset: Int) -> Int? { bigEndian(at: offset, width: 4).map { Int($0) } }

    /// SQLite's variable-length integer at `offset` (1–9 bytes: seven bits a byte, high bit set
    /// while more follow, all eight bits of a ninth) and its length in bytes.
    func varint(at offset: Int) -> (value: Int64, length: Int)? {
        var value: UInt64 = 0
        for index in 0..<9 {
            guard offset + index < count, offset + index >= 0 else { return nil }
            let byte = self[offset + index]
            if index == 8 { return (Int64(bitPattern: value << 8 | UInt64(byte)), 9) }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { return (Int64(bitPattern: value), index + 1) }
        }
        return nil
    }
}
