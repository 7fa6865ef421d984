/// Positions of names looked up on hot paths (attribute keys on every dynamic read and write,
/// entity names on every insert): a scan of fingerprints for the usual short list, which is
/// cheaper than hashing the key, and a dictionary for long ones. A class, so a lookup through
/// the entity does not copy (and retain) the three arrays.
final class NameIndex: Sendable {
    private let names: [String]
    /// Each name's two words as `String` holds them (see `representation(of:)`).
    private let representations: [StringRepresentation]
    private let fingerprints: [NameFingerprint]
    private let positions: [String: Int]

    init(_ names: [String]) {
        self.names = names
        self.representations = names.map(Self.representation)
        self.fingerprints = names.map(NameFingerprint.init)
        self.positions = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A `String`'s two machine words. Equal words mean equal strings: a name of up to 15
    /// UTF-8 bytes is held inline in them (so the same name is the same words, whoever made
    /// it), and a longer one is a reference to storage `names` keeps alive and unchanged. Keys
    /// written as literals are nearly always found this way, with two comparisons per name;
    /// other representations of an equal name fall back to the fingerprints.
    private typealias StringRepresentation = (UInt64, UInt64)

    private static func representation(of name: String) -> StringRepresentation {
        unsafeBitCast(name, to: StringRepresentation.self)
    }

    /// The position of `name`, or `nil`.
    func position(of name: String) -> Int? {
        let words = Self.representation(of: name)
        for position in representations.indices where representations[position] == words { return position }
        guard fingerprints.count <= Self.scanLimit else { return positions[name] }
        let fingerprint = NameFingerprint(name)
        for position in fingerprints.indices where fingerprints[position] == fingerprint {
            // The fingerprint holds whole names of up to eight bytes; longer ones need a check.
            if fingerprint.isComplete || names[position] == name { return position }
        }
        return nil
    }

    private static let scanLimit = 16
}

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
