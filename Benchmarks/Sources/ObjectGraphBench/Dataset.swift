/// One `Person` row as the benchmark generates and checks it: the same values for every backend.
///
/// `createdAt` is seconds since the reference date (2001-01-01), which is what a `Date` attribute
/// stores, so the raw baseline can bind and read it as a plain `REAL`.
struct PersonRow: Sendable {
    var id: Int64
    var name: String
    var email: String
    var age: Int64
    var score: Double
    var createdAt: Double
    var bio: String?
}

/// Knuth's MMIX 64-bit linear congruential generator: tiny, seeded and identical everywhere, so
/// every backend, process and run sees the same data.
struct LCG {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// The next 31 high bits; the low bits of an LCG are too regular to use.
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }

    /// A value in `range` (the modulo bias is irrelevant for benchmark data).
    mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}

/// The benchmark's data set: N rows with ids 1...N, and the order of the W6 key lookups.
struct Dataset: Sendable {
    static let defaultSeed: UInt64 = 0x0B1E_C7_6AA9

    let rows: [PersonRow]

    init(count: Int, seed: UInt64 = Dataset.defaultSeed) {
        var rows: [PersonRow] = []
        rows.reserveCapacity(count)
        Dataset.generate(count: count, seed: seed) { rows.append($0) }
        self.rows = rows
    }

    /// Generates the same rows as `Dataset(count:seed:)`, one at a time, without keeping them
    /// (M1 checks a million rows in a process whose memory is the measurement).
    static func generate(count: Int, seed: UInt64 = Dataset.defaultSeed, _ body: (PersonRow) -> Void) {
        var random = LCG(seed: seed)
        for index in 0..<count { body(makeRow(id: Int64(index + 1), random: &random)) }
    }

    /// `count` distinct ids from 1...N in random order (a seeded Fisher–Yates prefix).
    func lookupKeys(count: Int, seed: UInt64 = Dataset.defaultSeed ^ 0x5EED) -> [Int64] {
        var ids = rows.map(\.id)
        var random = LCG(seed: seed)
        let wanted = min(count, ids.count)
        for index in 0..<wanted {
            ids.swapAt(index, random.next(in: index...(ids.count - 1)))
        }
        return Array(ids.prefix(wanted))
    }

    static let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
    static let bioLetters = Array("abcdefghijklmnopqrstuvwxyz     ".utf8)

    private static func makeRow(id: Int64, random: inout LCG) -> PersonRow {
        // Names start with a capital so they look like names; 10–33 characters in all.
        var name = text(length: random.next(in: 10...33), alphabet: letters, random: &random)
        name = name.prefix(1).uppercased() + name.dropFirst()
        // "@example.com" is 12 characters, so the local part of 3–20 gives 15–32 in all.
        let email = text(length: random.next(in: 3...20), alphabet: letters, random: &random) + "@example.com"
        let age = Int64(random.next(in: 18...80))
        let score = Double(random.next(in: 0...100_000)) / 1000
        // 2020–2039, at millisecond resolution (next() gives 31 bits, hence two draws).
        let createdAt = 600_000_000 + Double(random.next(in: 0...600_000_000)) + Double(random.next(in: 0...999)) / 1000
        let bio: String? = random.next(in: 0...4) == 0
            ? nil
            : text(length: random.next(in: 20...40), alphabet: bioLetters, random: &random)
        return PersonRow(id: id, name: name, email: email, age: age, score: score, createdAt: createdAt, bio: bio)
    }

    static func text(length: Int, alphabet: [UInt8], random: inout LCG) -> String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(length)
        for _ in 0..<length { bytes.append(alphabet[random.next(in: 0...(alphabet.count - 1))]) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
