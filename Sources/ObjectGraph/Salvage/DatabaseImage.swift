import Foundation

/// A possibly damaged SQLite database file as numbered pages, with the newest committed copy of
/// each page from its write-ahead log laid over it. The page size comes from the header when the
/// header is sound, else from the log's header, else from the pages themselves.
struct DatabaseImage {
    let pageSize: Int
    /// The bytes of a page that b-tree content may use (the page size less the reserved bytes).
    let usableSize: Int
    /// The pages of the database, as its log or header records them (a damaged header may
    /// record billions).
    let pageCount: Int
    /// The last page the file or the log holds: no page after it can be read.
    let lastHeldPage: Int
    /// Pages on the free list, whose old content must not come back as rows.
    let freePages: Set<Int>
    /// What had to be guessed or was found wrong, for the report.
    let findings: [String]
    private let file: [UInt8]
    private let logPages: [Int: [UInt8]]

    static let magic = Array("SQLite format 3\u{0}".utf8)
    static let pageSizes = (9...16).map { 1 << $0 }

    init(file: [UInt8], log: WriteAheadLog?) {
        var findings: [String] = []
        let headerSize = file.uint16(at: 16).map { $0 == 1 ? 65536 : $0 }
        let headerIsSound = file.count >= 100 && Array(file[0..<16]) == Self.magic && headerSize.map(Self.pageSizes.contains) == true
        let usableLog = log.flatMap { $0.headerIsValid && Self.pageSizes.contains($0.pageSize) ? $0 : nil }
        if headerIsSound, let headerSize {
            pageSize = headerSize
            let reserved = Int(file[20])
            usableSize = reserved < headerSize - 480 ? headerSize - reserved : headerSize
        } else {
            pageSize = usableLog?.pageSize ?? Self.bestPageSize(file).size
            usableSize = pageSize
            findings.append(
                "the file's header is damaged (\(file.count < 100 ? "cut short" : Array(file[0..<16]) != Self.magic ? "its magic string is wrong" : "its page size is invalid")); page size \(pageSize) \(usableLog != nil ? "taken from the -wal file" : "worked out from the pages")"
            )
        }
        self.file = file
        logPages = usableLog?.pageSize == pageSize ? usableLog!.committedPages : [:]
        let filePages = (file.count + pageSize - 1) / pageSize
        // The header's page count is valid only while its "version valid for" matches the
        // change counter (older writers did not keep it).
        let recordedPages = headerIsSound && file.uint32(at: 92) == file.uint32(at: 24) ? file.uint32(at: 28) ?? 0 : 0
        pageCount = usableLog?.committedDatabasePages ?? max(filePages, recordedPages)
        lastHeldPage = min(pageCount, max(filePages, logPages.keys.max() ?? 0))
        if file.count % pageSize != 0 || recordedPages > filePages && usableLog == nil {
            findings.append(
                "the file is cut short: \(file.count) bytes, \(file.count % pageSize != 0 ? "not a whole number of \(pageSize)-byte pages" : "\(filePages) of the \(recordedPages) pages its header records")"
            )
        }
        if let log, !log.headerIsValid {
            findings.append("the -wal file's header is damaged: none of its changes could be used")
        } else if let log, log.commitsAfterDamage > 0 {
            findings.append(
                "the -wal file is damaged after frame \(log.committedFrameCount): \(log.commitsAfterDamage) later commits could not be used"
            )
        }
        self.findings = findings
        freePages = headerIsSound ? Self.freeList(file: file, pageSize: pageSize, logPages: logPages, pageCount: pageCount) : []
    }

    /// Page `number` (1-based), nil when the file and log do not hold all of it.
    func page(_ number: Int) -> [UInt8]? {
        guard number >= 1, number <= pageCount else { return nil }
        if let page = logPages[number] { return page }
        let start = (number - 1) * pageSize
        guard start + pageSize <= file.count else { return nil }
        return Array(file[start..<(start + pageSize)])
    }

    /// Whether the file at `path`, which SQLite does not take for a database, has pages of one
    /// after its first (its header is damaged, not the file a stranger): read from its first MiB.
    static func looksLikeDamagedDatabase(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 1 << 20) else { return false }
        return bestPageSize([UInt8](data)).score > 0
    }

    /// Trunk and leaf pages of the free list, followed defensively from the header.
    private static func freeList(file: [UInt8], pageSize: Int, logPages: [Int: [UInt8]], pageCount: Int) -> Set<Int> {
        let header = logPages[1] ?? file
        var pages: Set<Int> = []
        var trunk = header.uint32(at: 32) ?? 0
        while trunk >= 2, trunk <= pageCount, pages.insert(trunk).inserted {
            let start = logPages[trunk] == nil ? (trunk - 1) * pageSize : 0
            let bytes = logPages[trunk] ?? file
            guard let next = bytes.uint32(at: start), let count = bytes.uint32(at: start + 4), count <= pageSize / 4 - 2 else { break }
            for index in 0..<count {
                if let leaf = bytes.uint32(at: start + 8 + 4 * index), leaf >= 2, leaf <= pageCount { pages.insert(leaf) }
            }
            trunk = next
        }
        return pages
    }

    /// The page size under which the most pages look like b-tree pages whose cells fill the
    /// page to its end (a page of half the size would end in the middle of the cells; one of
    /// double the size would have nothing in its second half), and how many pages that is.
    private static func bestPageSize(_ file: [UInt8]) -> (size: Int, score: Int) {
        var best = (size: 4096, score: 0)
        for size in pageSizes {
            var score = 0
            var number = 2
            while number * size <= file.count, number <= 2_000 {
                let bytes = Array(file[((number - 1) * size)..<(number * size)])
                if let page = BTreePage(number: number, bytes: bytes, usableSize: size), page.cellsReachPageEnd { score += 1 }
                number += 1
            }
            if score > best.score { best = (size, score) }
        }
        return best
    }
}
