import CSQLite
import Foundation
import ObjectGraph

/// Writes a corpus of damaged stores for the salvage tests and the comparison with SQLite's
/// `.recover` (Benchmarks/recover-comparison.sh): a known store of 840 objects (40 authors, some
/// with bios long enough for overflow pages, 600 books, 200 tags, books ↔ tags many-to-many),
/// damaged in each way the salvage must cope with, under several seeds, and `manifest.json`
/// saying per case how many rows of each table are provably intact: rows none of whose pages
/// (leaf or overflow, found with SQLite's `dbstat`) were damaged.
enum CorruptionCorpus {
    static let tables = ["Author", "Book", "Tag"]

    static let modelJSON = """
        {
          "name": "Corpus", "version": 1,
          "entities": [
            { "name": "Author",
              "attributes": [
                { "name": "name", "type": "string" },
                { "name": "born", "type": "date", "optional": true },
                { "name": "bio", "type": "string", "optional": true } ],
              "relationships": [ { "name": "books", "destination": "Book", "toMany": true, "inverse": "author" } ] },
            { "name": "Book",
              "attributes": [
                { "name": "title", "type": "string" },
                { "name": "isbn", "type": "string" },
                { "name": "pages", "type": "integer16" },
                { "name": "price", "type": "decimal" },
                { "name": "inPrint", "type": "boolean" },
                { "name": "cover", "type": "uuid" } ],
              "relationships": [
                { "name": "author", "destination": "Author", "inverse": "books", "optional": true },
                { "name": "tags", "destination": "Tag", "toMany": true, "inverse": "books" } ],
              "uniquenessConstraints": [["isbn"]], "indexes": [["title"]] },
            { "name": "Tag",
              "attributes": [ { "name": "label", "type": "string", "indexed": true } ],
              "relationships": [ { "name": "books", "destination": "Book", "toMany": true, "inverse": "tags" } ] }
          ]
        }
        """

    struct Case: Codable {
        let name: String
        let kind: String
        let file: String
        /// The undamaged store the case was made from.
        let original: String
        let intact: [String: Int]
    }

    struct Manifest: Codable {
        let model: String
        let tables: [String]
        let original: [String: Int]
        let cases: [Case]
    }

    static func write(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let modelURL = directory.appendingPathComponent("model.json")
        try Data(modelJSON.utf8).write(to: modelURL)
        let model = try ManagedObjectModel(contentsOf: modelURL)
        let base = directory.appendingPathComponent("original.sqlite")
        try makeStore(at: base, model: model)
        let file = [UInt8](try Data(contentsOf: base))
        let pages = try PageMap(path: base.path)
        var cases: [Case] = []
        func add(_ name: String, _ kind: String, damaged: Set<Int>, _ bytes: [UInt8]) throws {
            try Data(bytes).write(to: directory.appendingPathComponent("\(name).sqlite"))
            cases.append(
                Case(
                    name: name, kind: kind, file: "\(name).sqlite", original: "original.sqlite", intact: pages.intactRows(damaging: damaged)
                ))
        }
        let pageCount = file.count / pages.pageSize
        for percent in [25, 50, 75] {
            let keep = pageCount * percent / 100
            try add("truncated-\(percent)", "truncation", damaged: Set((keep + 1)...pageCount), Array(file[0..<(keep * pages.pageSize)]))
        }
        let middle = pageCount / 2 * pages.pageSize + 1000
        try add("truncated-mid-page", "truncation", damaged: Set((pageCount / 2 + 1)...pageCount), Array(file[0..<middle]))
        try add("header-magic-zeroed", "header", damaged: [], replacing(file, at: 0, with: [UInt8](repeating: 0, count: 16)))
        try add("header-page-size", "header", damaged: [], replacing(file, at: 16, with: [0x12, 0x34]))
        for seed in 1...3 {
            var random = SeededRandom(seed: UInt64(seed))
            for (kind, candidates) in [("table-page", pages.leaves(of: ["Book", "Author", "Tag"])), ("index-page", pages.indexPages)] {
                let chosen = Set((0..<min(2, candidates.count)).map { _ in candidates[Int(random.next() % UInt64(candidates.count))] })
                try add(
                    "\(kind)-zeroed-\(seed)", kind, damaged: kind == "index-page" ? [] : chosen,
                    overwriting(file, pages: chosen, pageSize: pages.pageSize) { _ in 0 })
                try add(
                    "\(kind)-garbage-\(seed)", kind, damaged: kind == "index-page" ? [] : chosen,
                    overwriting(file, pages: chosen, pageSize: pages.pageSize) { _ in UInt8(truncatingIfNeeded: random.next()) })
            }
            let leaves = pages.leaves(of: ["Book"])
            let from = leaves[Int(random.next() % UInt64(leaves.count))]
            let to = leaves.filter { $0 != from }[Int(random.next() % UInt64(leaves.count - 1))]
            let source = Array(file[((from - 1) * pages.pageSize)..<(from * pages.pageSize)])
            try add("page-misplaced-\(seed)", "misplaced page", damaged: [to], replacing(file, at: (to - 1) * pages.pageSize, with: source))
        }
        if let interior = pages.interiorPages(of: "Book").first {
            try add(
                "interior-page-zeroed", "interior page", damaged: [],
                overwriting(file, pages: [interior], pageSize: pages.pageSize) { _ in 0 })
        }
        let metadataPages = Set(pages.leaves(of: ["_objectgraph_metadata"]))
        try add(
            "metadata-page-zeroed", "metadata page", damaged: [],
            overwriting(file, pages: metadataPages, pageSize: pages.pageSize) { _ in 0 })
        var random = SeededRandom(seed: 9)
        try add(
            "schema-page-garbage", "schema page", damaged: [],
            replacing(file, at: 100, with: (100..<pages.pageSize).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
        cases += try writeLogCases(directory: directory, model: model, pageSize: pages.pageSize)
        let manifest = Manifest(model: "model.json", tables: tables, original: pages.intactRows(damaging: []), cases: cases)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(manifest).write(to: directory.appendingPathComponent("manifest.json"))
    }

    /// The store: objects saved through ObjectGraph, then closed (the log checkpointed away).
    private static func makeStore(at url: URL, model: ManagedObjectModel) throws {
        let container = PersistentContainer(name: "Corpus", managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        try container.loadPersistentStores()
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var random = SeededRandom(seed: 42)
            let tags = try (0..<200).map { number in
                let tag = try context.insertNewObject(forEntityName: "Tag")
                try tag.setValue("tag-\(number)", forKey: "label")
                return tag
            }
            let authors = try (0..<40).map { number in
                let author = try context.insertNewObject(forEntityName: "Author")
                try author.setValue("Author \(number)", forKey: "name")
                try author.setValue(Date(timeIntervalSince1970: Double(random.next() % 2_000_000_000)), forKey: "born")
                // Every fifth bio is longer than a page: its tail is in overflow pages.
                try author.setValue(String(repeating: "A life in letters, \(number). ", count: number % 5 == 0 ? 250 : 3), forKey: "bio")
                return author
            }
            for number in 0..<600 {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue("Book \(number) of the corpus", forKey: "title")
                try book.setValue("978\(String(format: "%010d", number))", forKey: "isbn")
                try book.setValue(Int16(random.next() % 1000 + 1), forKey: "pages")
                try book.setValue(Decimal(Int(random.next() % 10_000)) / 100, forKey: "price")
                try book.setValue(number % 3 != 0, forKey: "inPrint")
                try book.setValue(UUID(), forKey: "cover")
                try book.setValue(authors[number % authors.count], forKey: "author")
                try book.setValue(Set([tags[number % 200], tags[(number * 7 + 3) % 200]]), forKey: "tags")
            }
            try context.save()
        }
    }

    /// Stores whose `-wal` file holds commits: one with the log lost (its `-shm` left), one with
    /// a frame of the log overwritten in its second of three commits.
    private static func writeLogCases(directory: URL, model: ManagedObjectModel, pageSize: Int) throws -> [Case] {
        let base = directory.appendingPathComponent("original-with-log.sqlite")
        try FileManager.default.copyItem(at: directory.appendingPathComponent("original.sqlite"), to: base)
        let container = PersistentContainer(name: "Corpus", managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: base)]
        try container.loadPersistentStores()
        let context = container.newBackgroundContext()
        var frameCounts: [Int] = []
        try context.performAndWait {
            for batch in 0..<3 {
                for number in 0..<10 {
                    let book = try context.insertNewObject(forEntityName: "Book")
                    try book.setValue("Late book \(batch)-\(number)", forKey: "title")
                    try book.setValue("979\(String(format: "%010d", batch * 10 + number))", forKey: "isbn")
                    try book.setValue(Int16(100), forKey: "pages")
                    try book.setValue(Decimal(5), forKey: "price")
                    try book.setValue(true, forKey: "inPrint")
                    try book.setValue(UUID(), forKey: "cover")
                }
                try context.save()
                let size = (try? FileManager.default.attributesOfItem(atPath: base.path + "-wal")[.size] as? Int) ?? 0
                frameCounts.append((size - 32) / (24 + pageSize))
            }
        }
        let main = try Data(contentsOf: base)
        let log = [UInt8](try Data(contentsOf: URL(fileURLWithPath: base.path + "-wal")))
        let index = try Data(contentsOf: URL(fileURLWithPath: base.path + "-shm"))
        container.persistentStoreCoordinator.removePersistentStore()
        // The original of these cases is the store with its log applied.
        let withoutLog = try rowCounts(mainFile: main, log: nil)

        try main.write(to: directory.appendingPathComponent("wal-lost.sqlite"))
        try index.write(to: directory.appendingPathComponent("wal-lost.sqlite-shm"))
        // A frame in the middle of the second commit: the first commit's rows are intact.
        let damagedFrame = (frameCounts[0] + frameCounts[1]) / 2
        let frameStart = 32 + damagedFrame * (24 + pageSize)
        var damagedLog = log
        for offset in (frameStart + 24)..<(frameStart + 24 + 512) { damagedLog[offset] ^= 0x5A }
        try main.write(to: directory.appendingPathComponent("wal-damaged.sqlite"))
        try Data(damagedLog).write(to: directory.appendingPathComponent("wal-damaged.sqlite-wal"))
        let beforeDamage = try rowCounts(mainFile: main, log: Array(log[0..<frameStart]))
        return [
            Case(name: "wal-lost", kind: "lost -wal", file: "wal-lost.sqlite", original: "original-with-log.sqlite", intact: withoutLog),
            Case(
                name: "wal-damaged", kind: "damaged -wal", file: "wal-damaged.sqlite", original: "original-with-log.sqlite",
                intact: beforeDamage)
        ]
    }

    /// Rows per table of a store made of `mainFile` and `log`, as SQLite reads it (in a scratch
    /// folder, since opening checkpoints the log).
    private static func rowCounts(mainFile: Data, log: [UInt8]?) throws -> [String: Int] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("corpus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let path = scratch.appendingPathComponent("store.sqlite").path
        try mainFile.write(to: URL(fileURLWithPath: path))
        if let log { try Data(log).write(to: URL(fileURLWithPath: path + "-wal")) }
        let database = try Database(path: path)
        return try Dictionary(uniqueKeysWithValues: tables.map { ($0, try database.rows("SELECT count(*) FROM \"\($0)\"")[0][0]) })
    }

    private static func replacing(_ file: [UInt8], at offset: Int, with bytes: [UInt8]) -> [UInt8] {
        var copy = file
        copy.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
        return copy
    }

    private static func overwriting(_ file: [UInt8], pages: Set<Int>, pageSize: Int, _ byte: (Int) -> UInt8) -> [UInt8] {
        var copy = file
        for page in pages.sorted() {
            for offset in ((page - 1) * pageSize)..<(page * pageSize) { copy[offset] = byte(offset) }
        }
        return copy
    }
}

/// Which pages hold which rows of the corpus store, from SQLite's `dbstat` table: a table's rows
/// are in key order across its leaves in tree order, and an overflow page names its cell.
struct PageMap {
    let pageSize: Int
    /// Per table: for each row, its leaf page and overflow pages.
    private var rowPages: [String: [Set<Int>]] = [:]
    private var leavesByTable: [String: [Int]] = [:]
    private var interiorByTable: [String: [Int]] = [:]
    private(set) var indexPages: [Int] = []

    init(path: String) throws {
        let database = try Database(path: path)
        pageSize = try database.rows("PRAGMA page_size")[0][0]
        let entries = try database.strings("SELECT name, path, pageno, pagetype, ncell FROM dbstat ORDER BY name, path")
        let indexes = Set(try database.strings("SELECT name FROM sqlite_schema WHERE type = 'index'").map { $0[0] })
        // Paths repeat from table to table, so they are keyed with the table's name.
        var cellsByPath: [String: (page: Int, cells: Int)] = [:]
        var overflowByCell: [String: [Int]] = [:]
        var leafPaths: [String: [String]] = [:]
        for entry in entries {
            let (name, path, page, type, cells) = (entry[0], entry[1], Int(entry[2])!, entry[3], Int(entry[4])!)
            if indexes.contains(name) {
                indexPages.append(page)
                continue
            }
            switch type {
            case "leaf":
                cellsByPath[name + path] = (page, cells)
                leafPaths[name, default: []].append(name + path)
                leavesByTable[name, default: []].append(page)
            case "internal":
                interiorByTable[name, default: []].append(page)
            case "overflow":
                // "<page path><cell, 3 hex digits>+<overflow index>"
                let cell = name + String(path[..<path.firstIndex(of: "+")!])
                overflowByCell[cell, default: []].append(page)
            default:
                break
            }
        }
        for (name, paths) in leafPaths {
            var rows: [Set<Int>] = []
            for path in paths {
                let leaf = cellsByPath[path]!
                for cell in 0..<leaf.cells {
                    rows.append(Set([leaf.page] + (overflowByCell[path + String(format: "%03x", cell)] ?? [])))
                }
            }
            rowPages[name] = rows
        }
    }

    func leaves(of tables: [String]) -> [Int] { tables.flatMap { leavesByTable[$0] ?? [] } }
    func interiorPages(of table: String) -> [Int] { interiorByTable[table] ?? [] }

    /// Rows of each corpus table none of whose pages is in `damaged`.
    func intactRows(damaging damaged: Set<Int>) -> [String: Int] {
        Dictionary(
            uniqueKeysWithValues: CorruptionCorpus.tables.map { table in
                (table, (rowPages[table] ?? []).filter { $0.isDisjoint(with: damaged) }.count)
            })
    }
}

/// A read-only SQLite connection for the corpus's own questions (page map, row counts).
final class Database {
    private let handle: OpaquePointer

    init(path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let handle else {
            throw UsageError("cannot open \(path)")
        }
        self.handle = handle
    }

    deinit { sqlite3_close_v2(handle) }

    func strings(_ sql: String) throws -> [[String]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw UsageError("\(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        defer { sqlite3_finalize(statement) }
        var rows: [[String]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append((0..<sqlite3_column_count(statement)).map { sqlite3_column_text(statement, $0).map { String(cString: $0) } ?? "" })
        }
        return rows
    }

    func rows(_ sql: String) throws -> [[Int]] {
        try strings(sql).map { $0.map { Int($0) ?? 0 } }
    }
}

/// Knuth's MMIX linear congruential generator: the same corpus on every machine.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 11
    }
}
