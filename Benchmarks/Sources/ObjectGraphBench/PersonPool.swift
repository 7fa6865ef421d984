/// Q7's rows: `count` `Person` rows, each made on demand from its index, its strings drawn from
/// small pools generated once. A million generated rows held in memory would be ~200 MB, more
/// than the peak RSS Q7 is judged by (< 100 MB), and generating each row's strings afresh would
/// cost as much as inserting it, blurring the ratio; picking pooled strings costs a few
/// nanoseconds, the same for every backend. Every backend inserts exactly these rows.
struct PersonPool: Sendable {
    let count: Int
    private let seed: UInt64
    private let names: [String]
    private let emails: [String]
    private let bios: [String]

    /// Names and emails per pool (a power of two, so a row picks one with a mask); the bios are
    /// the non-nil ones of as many rows.
    private static let poolSize = 4096

    init(count: Int, seed: UInt64) {
        self.count = count
        self.seed = seed
        // The pools are the rows of a small data set, with its value ranges (10–33, 15–32 and
        // 20–40 characters).
        let rows = Dataset(count: Self.poolSize, seed: seed ^ 0x0707).rows
        names = rows.map(\.name)
        emails = rows.map(\.email)
        bios = rows.compactMap(\.bio)
    }

    /// Row `index` (0-based): id `index + 1`, the W data's value ranges, `bio` nil in 20% of the
    /// rows.
    @inline(__always)
    func row(_ index: Int) -> PersonRow {
        let bits = Checksum.mix(UInt64(index) ^ seed)
        let more = Checksum.mix(bits)
        let mask = UInt64(Self.poolSize - 1)
        return PersonRow(
            id: Int64(index + 1),
            name: names[Int(bits & mask)],
            email: emails[Int((bits >> 12) & mask)],
            age: 18 + Int64((bits >> 24) % 63),
            score: Double((bits >> 40) % 100_001) / 1000,
            createdAt: 600_000_000 + Double(more % 600_000_001) + Double((more >> 40) % 1000) / 1000,
            bio: (more >> 32) % 5 == 0 ? nil : bios[Int((more >> 20) % UInt64(bios.count))]
        )
    }
}
