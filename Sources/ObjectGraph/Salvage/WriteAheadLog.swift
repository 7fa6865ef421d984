/// A SQLite write-ahead log (a store's `-wal` file) read frame by frame, as SQLite's recovery
/// reads it: the header's salts and checksum, then each frame's salts and running checksum.
/// Salvage takes the newest committed copy of each page from it; the lost-commit check compares
/// what it holds with what the `-shm` file says it should hold.
struct WriteAheadLog {
    static let headerSize = 32
    static let frameHeaderSize = 24

    /// Whether the 32-byte header is whole (magic, version, page size, checksum).
    let headerIsValid: Bool
    let pageSize: Int
    /// The header's salt bytes; a frame belongs to this log only if it repeats them.
    let salt: ArraySlice<UInt8>
    /// Frames the file has room for.
    let frameCount: Int
    /// Frames up to the last commit frame before the first frame that fails its checks.
    let committedFrameCount: Int
    /// The database's size in pages at the last valid commit (nil when no commit is valid).
    let committedDatabasePages: Int?
    /// The newest committed content of each page the log holds.
    let committedPages: [Int: [UInt8]]
    /// Commit frames of this log (same salts) after the first frame that fails its checks:
    /// commits SQLite would silently drop, because it stops reading the log at the failure.
    let commitsAfterDamage: Int

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= Self.headerSize, let magic = bytes.uint32(at: 0), magic & ~1 == 0x377F_0682,
            let pageSize = bytes.uint32(at: 8)
        else { return nil }
        let bigEndianWords = magic & 1 == 1
        self.pageSize = pageSize
        salt = bytes[16..<24]
        let headerSum = Self.checksum(bytes, 0..<24, bigEndianWords: bigEndianWords, seed: (0, 0))
        headerIsValid =
            bytes.uint32(at: 4) == 3_007_000 && (512...65536).contains(pageSize) && pageSize & (pageSize - 1) == 0
            && UInt32(bytes.uint32(at: 24)!) == headerSum.0 && UInt32(bytes.uint32(at: 28)!) == headerSum.1
        let frameSize = Self.frameHeaderSize + max(pageSize, 1)
        frameCount = headerIsValid ? (bytes.count - Self.headerSize) / frameSize : 0
        var sum = headerSum
        var pending: [Int: [UInt8]] = [:]
        var committed: [Int: [UInt8]] = [:]
        var committedFrames = 0
        var databasePages: Int?
        var damagedAt: Int?
        for frame in 0..<frameCount {
            let start = Self.headerSize + frame * frameSize
            let data = start + Self.frameHeaderSize
            let pageNumber = bytes.uint32(at: start)!
            sum = Self.checksum(bytes, start..<(start + 8), bigEndianWords: bigEndianWords, seed: sum)
            sum = Self.checksum(bytes, data..<(data + pageSize), bigEndianWords: bigEndianWords, seed: sum)
            guard bytes[(start + 8)..<(start + 16)] == salt, pageNumber > 0,
                UInt32(bytes.uint32(at: start + 16)!) == sum.0, UInt32(bytes.uint32(at: start + 20)!) == sum.1
            else {
                damagedAt = frame
                break
            }
            pending[pageNumber] = Array(bytes[data..<(data + pageSize)])
            let commitSize = bytes.uint32(at: start + 4)!
            if commitSize > 0 {
                committed.merge(pending) { _, newer in newer }
                pending.removeAll()
                committedFrames = frame + 1
                databasePages = commitSize
            }
        }
        var lostCommits = 0
        if let damagedAt {
            // A transaction that rewrites one of its own frames leaves a bad checksum until it
            // commits, so only a later commit frame proves that committed work was cut off.
            for frame in (damagedAt + 1)..<frameCount {
                let start = Self.headerSize + frame * frameSize
                if bytes[(start + 8)..<(start + 16)] == salt, bytes.uint32(at: start + 4)! > 0 { lostCommits += 1 }
            }
        }
        committedFrameCount = committedFrames
        committedDatabasePages = databasePages
        committedPages = committed
        commitsAfterDamage = lostCommits
    }

    /// SQLite's WAL checksum: 32-bit words in pairs, big- or little-endian as the magic says.
    static func checksum(_ bytes: [UInt8], _ range: Range<Int>, bigEndianWords: Bool, seed: (UInt32, UInt32)) -> (UInt32, UInt32) {
        var (first, second) = seed
        func word(_ offset: Int) -> UInt32 {
            let value =
                UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
            return bigEndianWords ? value : value.byteSwapped
        }
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            first = first &+ word(offset) &+ second
            second = second &+ word(offset + 4) &+ first
            offset += 8
        }
        return (first, second)
    }
}
