/// One b-tree page of a SQLite file, parsed defensively: its kind, where its cells are, and the
/// right-most child of an interior page. Nil when the bytes are not a plausible b-tree page
/// (zeroed, overwritten, or a page of another kind: overflow, free list).
struct BTreePage {
    enum Kind: UInt8 {
        case indexInterior = 2
        case tableInterior = 5
        case indexLeaf = 10
        case tableLeaf = 13

        var isLeaf: Bool { self == .indexLeaf || self == .tableLeaf }
        var isTable: Bool { self == .tableInterior || self == .tableLeaf }
    }

    let number: Int
    let kind: Kind
    let bytes: [UInt8]
    let usableSize: Int
    /// The offset of each cell in `bytes`, in key order.
    let cellOffsets: [Int]
    /// The child holding keys after the last cell's (interior pages only).
    let rightChild: Int?

    init?(number: Int, bytes: [UInt8], usableSize: Int) {
        // Page 1 starts with the 100-byte database header.
        let start = number == 1 ? 100 : 0
        guard bytes.count >= usableSize, usableSize > start + 12, let kind = Kind(rawValue: bytes[start]),
            let cellCount = bytes.uint16(at: start + 3)
        else { return nil }
        let headerSize = kind.isLeaf ? 8 : 12
        let pointers = start + headerSize
        guard pointers + 2 * cellCount <= usableSize else { return nil }
        var offsets: [Int] = []
        offsets.reserveCapacity(cellCount)
        for index in 0..<cellCount {
            guard let offset = bytes.uint16(at: pointers + 2 * index), offset >= pointers + 2 * cellCount, offset + 4 <= usableSize else {
                return nil
            }
            offsets.append(offset)
        }
        self.number = number
        self.kind = kind
        self.bytes = bytes
        self.usableSize = usableSize
        cellOffsets = offsets
        rightChild = kind.isLeaf ? nil : bytes.uint32(at: start + 8)
    }

    /// Whether the cells end at the end of the usable area, as SQLite packs them.
    var cellsReachPageEnd: Bool {
        cellOffsets.contains { offset in cellLength(at: offset).map { offset + $0 == usableSize } ?? false }
    }

    /// The bytes a cell takes on this page (its local payload and overflow pointer included).
    private func cellLength(at offset: Int) -> Int? {
        switch kind {
        case .tableInterior:
            return bytes.varint(at: offset + 4).map { 4 + $0.length }
        case .tableLeaf:
            guard let size = bytes.varint(at: offset), let rowid = bytes.varint(at: offset + size.length) else { return nil }
            let local = localPayloadSize(Int(clamping: size.value))
            return size.length + rowid.length + local + (local < size.value ? 4 : 0)
        case .indexLeaf, .indexInterior:
            let prefix = kind == .indexInterior ? 4 : 0
            guard let size = bytes.varint(at: offset + prefix) else { return nil }
            let local = localPayloadSize(Int(clamping: size.value))
            return prefix + size.length + local + (local < size.value ? 4 : 0)
        }
    }

    /// How much of a payload of `size` bytes a cell of this page keeps on the page; the rest is
    /// in overflow pages (the file format's rule).
    func localPayloadSize(_ size: Int) -> Int {
        let maximum = kind.isTable ? usableSize - 35 : (usableSize - 12) * 64 / 255 - 23
        guard size > maximum else { return max(size, 0) }
        let minimum = (usableSize - 12) * 32 / 255 - 23
        let candidate = minimum + (size - minimum) % (usableSize - 4)
        return candidate <= maximum ? candidate : minimum
    }
}
