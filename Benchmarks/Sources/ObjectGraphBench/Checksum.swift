/// A checksum over every column of the rows a workload read or wrote, so that a fast wrong answer
/// fails instead of winning.
///
/// `add` is order-independent (a wrapping sum of row hashes) for workloads whose result order is
/// unspecified; `append` is order-dependent for sorted results and ordered lookups.
struct Checksum: Equatable, Sendable, CustomStringConvertible {
    private(set) var rows = 0
    private(set) var value: UInt64 = 0

    /// Adds one row, ignoring order.
    mutating func add(_ id: Int64, _ name: String, _ email: String, _ age: Int64, _ score: Double, _ createdAt: Double, _ bio: String?) {
        rows += 1
        value &+= Checksum.rowHash(id, name, email, age, score, createdAt, bio)
    }

    /// Adds one row at the next position: the same rows in another order give another value.
    mutating func append(_ id: Int64, _ name: String, _ email: String, _ age: Int64, _ score: Double, _ createdAt: Double, _ bio: String?) {
        rows += 1
        value = Checksum.mix(value &* 0x9E37_79B9_7F4A_7C15 ^ Checksum.rowHash(id, name, email, age, score, createdAt, bio))
    }

    mutating func add(_ row: PersonRow) {
        add(row.id, row.name, row.email, row.age, row.score, row.createdAt, row.bio)
    }

    mutating func append(_ row: PersonRow) {
        append(row.id, row.name, row.email, row.age, row.score, row.createdAt, row.bio)
    }

    /// Adds one row's `name` alone, ignoring order (M1 reads only that attribute).
    mutating func addName(_ name: String) {
        rows += 1
        value &+= Checksum.mix(Checksum.stringHash(name) ^ 0x4E41_4D45)
    }

    /// Appends one row's `name` alone at the next position (Q1 reads names in sorted order).
    mutating func appendName(_ name: String) {
        rows += 1
        value = Checksum.mix(value &* 0x9E37_79B9_7F4A_7C15 ^ Checksum.stringHash(name) ^ 0x4E41_4D45)
    }

    /// Folds a whole other checksum in (for repeated queries).
    mutating func combine(_ other: Checksum) {
        rows += other.rows
        value = Checksum.mix(value ^ other.value)
    }

    var description: String { "\(rows) rows, 0x\(String(value, radix: 16))" }

    private static func rowHash(_ id: Int64, _ name: String, _ email: String, _ age: Int64, _ score: Double, _ createdAt: Double, _ bio: String?) -> UInt64 {
        var hash = mix(UInt64(bitPattern: id))
        hash = mix(hash ^ stringHash(name))
        hash = mix(hash ^ stringHash(email))
        hash = mix(hash ^ UInt64(bitPattern: age))
        hash = mix(hash ^ score.bitPattern)
        hash = mix(hash ^ createdAt.bitPattern)
        hash = mix(hash ^ (bio.map(stringHash) ?? 0xDEAD_BEEF))
        return hash
    }

    /// The splitmix64 finaliser: cheap and well mixed.
    static func mix(_ input: UInt64) -> UInt64 {
        var x = input &+ 0x9E37_79B9_7F4A_7C15
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return x ^ (x >> 31)
    }

    /// Hashes the UTF-8 bytes eight at a time, so that checking costs little next to the work
    /// being measured.
    static func stringHash(_ string: String) -> UInt64 {
        var copy = string
        return copy.withUTF8 { bytes in
            var hash = UInt64(bytes.count)
            var offset = 0
            while offset + 8 <= bytes.count {
                hash = mix(hash ^ UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            var tail: UInt64 = 0
            while offset < bytes.count {
                tail = tail << 8 | UInt64(bytes[offset])
                offset += 1
            }
            return mix(hash ^ tail)
        }
    }
}

// MARK: - The object graph (G1–G4)

extension Checksum {
    /// G2: one book read with its author, in no particular order.
    mutating func addBook(title: String, pages: Int64, price: Double, authorName: String, authorBorn: Int64) {
        rows += 1
        value &+= Checksum.mix(Checksum.bookHash(title, pages, price) &* 0x9E37_79B9_7F4A_7C15 ^ Checksum.authorHash(authorName, authorBorn))
    }

    /// G3 and the stored graph: one author with its books (whose order does not matter), in no
    /// particular order of authors. A book counted under the wrong author changes the value.
    mutating func addAuthor(name: String, born: Int64, books: BookChecksum) {
        rows += 1 + books.count
        value &+= Checksum.mix(Checksum.authorHash(name, born) ^ Checksum.mix(books.value &+ UInt64(books.count)))
    }

    /// A stored book without a valid author (a broken graph): counted, and never matching.
    mutating func addOrphanBook(title: String, pages: Int64, price: Double) {
        rows += 1
        value &+= Checksum.mix(Checksum.bookHash(title, pages, price) ^ 0x0DD_B00C)
    }

    static func authorHash(_ name: String, _ born: Int64) -> UInt64 {
        mix(mix(UInt64(bitPattern: born) ^ 0xA07) ^ stringHash(name))
    }

    static func bookHash(_ title: String, _ pages: Int64, _ price: Double) -> UInt64 {
        var hash = mix(stringHash(title) ^ 0xB00C)
        hash = mix(hash ^ UInt64(bitPattern: pages))
        return mix(hash ^ price.bitPattern)
    }
}

/// The order-independent checksum of one author's books, folded into `Checksum.addAuthor`.
struct BookChecksum {
    private(set) var count = 0
    private(set) var value: UInt64 = 0

    mutating func add(title: String, pages: Int64, price: Double) {
        count += 1
        value &+= Checksum.bookHash(title, pages, price)
    }
}
