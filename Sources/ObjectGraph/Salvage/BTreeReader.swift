/// Reads rows out of the b-trees of a possibly damaged database image, trusting nothing: every
/// page is parsed defensively, every child must be a page not seen before (no cycles), a table
/// leaf must hold only rowids its parent's keys allow (else it is a page written to the wrong
/// place), and a page whose records are mostly not of the tree's table is left out of the tree.
/// Pages left out or cut off from their tree by a damaged parent are found again by
/// `orphanLeaves()`.
struct BTreeReader {
    struct Entry {
        /// The rowid of a table row; nil for an index (or WITHOUT ROWID table) entry.
        let rowid: Int64?
        let values: [SalvagedValue]
    }

    /// What reading one tree found.
    struct TreeContents {
        var entries: [Entry] = []
        /// Records that decoded but are not rows of the table, or did not decode.
        var rejected = 0
        /// Pages of the tree that could not be read (damaged, missing, or not the tree's).
        var damagedPages: Set<Int> = []
    }

    let image: DatabaseImage
    /// Pages taken as part of a tree so far (overflow pages included).
    private(set) var claimed: Set<Int> = []

    init(image: DatabaseImage) {
        self.image = image
    }

    /// The entries of the tree rooted at `root` that `accepts` takes.
    mutating func read(root: Int, isTable: Bool, accepts: (Entry) -> Bool) -> TreeContents {
        var contents = TreeContents()
        var pending: [(page: Int, lower: Int64?, upper: Int64?, depth: Int)] = [(root, nil, nil, 0)]
        while let (number, lower, upper, depth) = pending.popLast() {
            guard depth < 40, !claimed.contains(number), let bytes = image.page(number),
                let page = BTreePage(number: number, bytes: bytes, usableSize: image.usableSize), page.kind.isTable == isTable
            else {
                contents.damagedPages.insert(number)
                continue
            }
            let cells = page.kind.isLeaf ? orderedCells(of: page) : page.cellOffsets.map { cell(of: page, at: $0) }
            if page.kind.isLeaf {
                let inRange = cells.allSatisfy { cell in
                    guard let rowid = cell?.entry.rowid else { return true }
                    return lower.map { rowid > $0 } ?? true && upper.map { rowid <= $0 } ?? true
                }
                let entries = cells.compactMap { $0?.entry }
                let accepted = entries.filter(accepts)
                // A page written to the wrong place, or one of another table: not this tree's.
                guard inRange, accepted.count * 2 >= cells.count else {
                    contents.damagedPages.insert(number)
                    continue
                }
                claim(page, cells)
                contents.entries += accepted
                contents.rejected += cells.count - accepted.count
                continue
            }
            claim(page, cells)
            var previous = lower
            for (index, offset) in page.cellOffsets.enumerated() {
                guard let child = bytes.uint32(at: offset) else { continue }
                if page.kind == .tableInterior {
                    let key = bytes.varint(at: offset + 4)?.value
                    pending.append((child, previous, key, depth + 1))
                    previous = key ?? previous
                } else {
                    pending.append((child, nil, nil, depth + 1))
                    if let entry = cells[index]?.entry {
                        if accepts(entry) { contents.entries.append(entry) } else { contents.rejected += 1 }
                    } else {
                        contents.rejected += 1
                    }
                }
            }
            if let right = page.rightChild { pending.append((right, previous, upper, depth + 1)) }
        }
        return contents
    }

    /// Leaf pages of the given kind that no tree read so far has claimed and that are not free.
    /// Only pages the file or log holds are looked at, however many the header records.
    func orphanLeaves(isTable: Bool) -> [BTreePage] {
        guard image.lastHeldPage >= 2 else { return [] }
        return (2...image.lastHeldPage).compactMap { number in
            guard !claimed.contains(number), !image.freePages.contains(number), let bytes = image.page(number),
                let page = BTreePage(number: number, bytes: bytes, usableSize: image.usableSize),
                page.kind.isLeaf, page.kind.isTable == isTable
            else { return nil }
            return page
        }
    }

    /// The entries of a leaf page, nil for a cell that cannot be read.
    func entries(of page: BTreePage) -> [Entry?] {
        orderedCells(of: page).map { $0?.entry }
    }

    /// The cells of a leaf, nil for one that cannot be read or is out of key order. Keys
    /// increase strictly from cell to cell, so a cell whose key a damaged byte changed breaks
    /// the order; the longest run of cells in order is kept and the rest are left out, rather
    /// than bring back a row under a key it never had.
    private func orderedCells(of page: BTreePage) -> [(entry: Entry, overflow: [Int])?] {
        let cells = page.cellOffsets.map { cell(of: page, at: $0) }
        let keys: [[Int64]?] = cells.map { cell in
            guard let entry = cell?.entry else { return nil }
            if let rowid = entry.rowid { return [rowid] }
            return entry.values.prefix(2).map { value in
                if case .integer(let number) = value { return number }
                return Int64.min
            }
        }
        let kept = Self.longestIncreasingRun(keys)
        return cells.enumerated().map { kept.contains($0.offset) ? $0.element : nil }
    }

    /// The positions of a longest strictly increasing subsequence of the keys present
    /// (patience sorting, O(n log n)).
    static func longestIncreasingRun(_ keys: [[Int64]?]) -> Set<Int> {
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: keys.count)
        for (index, key) in keys.enumerated() {
            guard let key else { continue }
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if keys[tails[middle]]!.lexicographicallyPrecedes(key) { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var kept: Set<Int> = []
        var index = tails.last ?? -1
        while index >= 0 {
            kept.insert(index)
            index = previous[index]
        }
        return kept
    }

    /// Takes an orphan page into a tree (with its overflow pages).
    mutating func claim(_ page: BTreePage) {
        claim(page, page.cellOffsets.map { cell(of: page, at: $0) })
    }

    private mutating func claim(_ page: BTreePage, _ cells: [(entry: Entry, overflow: [Int])?]) {
        claimed.insert(page.number)
        for cell in cells { claimed.formUnion(cell?.overflow ?? []) }
    }

    /// The cell at `offset`: its entry (payload decoded, overflow followed) and overflow pages.
    private func cell(of page: BTreePage, at offset: Int) -> (entry: Entry, overflow: [Int])? {
        let bytes = page.bytes
        var position = offset
        if page.kind == .tableInterior { return nil }
        if page.kind == .indexInterior { position += 4 }
        guard let size = bytes.varint(at: position), size.value >= 0, size.value < 1 << 30 else { return nil }
        position += size.length
        var rowid: Int64?
        if page.kind == .tableLeaf {
            guard let key = bytes.varint(at: position) else { return nil }
            rowid = key.value
            position += key.length
        }
        let total = Int(size.value)
        let local = page.localPayloadSize(total)
        guard position + local <= page.usableSize else { return nil }
        var payload = Array(bytes[position..<(position + local)])
        var overflow: [Int] = []
        if local < total {
            guard var next = bytes.uint32(at: position + local) else { return nil }
            while payload.count < total {
                guard next >= 2, !overflow.contains(next), overflow.count < image.pageCount, let chunk = image.page(next) else {
                    return nil
                }
                overflow.append(next)
                let take = min(total - payload.count, image.usableSize - 4)
                payload += chunk[4..<(4 + take)]
                next = chunk.uint32(at: 0) ?? 0
            }
        }
        guard let values = SalvagedRecord.decode(payload) else { return nil }
        return (Entry(rowid: rowid, values: values), overflow)
    }
}
