/// A name's UTF-8 length and first eight bytes in two machine words: comparing two fingerprints
/// is two integer comparisons, and for names of up to eight bytes (most attribute names) equal
/// fingerprints mean equal names.
struct NameFingerprint: Equatable, Sendable {
    private let length: Int
    private let prefix: UInt64

    init(_ name: String) {
        var name = name
        (length, prefix) = name.withUTF8 { bytes in
            var prefix: UInt64 = 0
            for offset in 0..<min(bytes.count, 8) { prefix |= UInt64(bytes[offset]) << (8 * UInt64(offset)) }
            return (bytes.count, prefix)
        }
    }

    /// Whether the fingerprint holds the whole name.
    var isComplete: Bool { length <= 8 }
}
