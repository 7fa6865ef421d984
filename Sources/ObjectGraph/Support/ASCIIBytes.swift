extension UnsafeBufferPointer<UInt8> {
    /// Whether every byte is below 0x80: such bytes are valid UTF-8, one character each. Read
    /// eight at a time.
    @inline(__always)
    var isASCII: Bool {
        guard let base = baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        var high: UInt64 = 0
        while offset + 8 <= count {
            high |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < count {
            high |= UInt64(self[offset])
            offset += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
}
