import Foundation
import Testing

@testable import ObjectGraph

/// The page reader against random damage: bytes flipped, runs of bytes overwritten, pages
/// copied over others. Salvage must never crash or hang, return no more rows unlike the stored
/// ones than the damage can explain, and always write a store that passes the integrity check.
/// `OBJECTGRAPH_SALVAGE_FUZZ_CASES=N` runs N cases instead of 40 (1,000 passed on 25 November 2026).
@Suite struct SalvageFuzzTests {
    static let seeds = Array(0..<(ProcessInfo.processInfo.environment["OBJECTGRAPH_SALVAGE_FUZZ_CASES"].flatMap { Int($0) } ?? 40))

    @Test(arguments: seeds)
    func randomDamageNeverCrashesOrInventsRows(_ seed: Int) throws {
        let corpus = try CorruptionCorpus.load()
        let original = corpus.url("original.sqlite")
        var bytes = [UInt8](try Data(contentsOf: original))
        var random = SplitMix(seed: UInt64(seed))
        let pageSize = 4096
        // Each changed byte, each run of random bytes and each page copied over another may leave
        // one row well formed but changed (a letter for a letter, a key for another key that
        // still sorts in place, an overflow page of long text replaced by another's): SQLite's
        // pages carry no checksums, so no reader can tell such a row from a stored one.
        var allowance = 0
        for _ in 0..<(1 + random.next(8)) {
            switch random.next(3) {
            case 0:
                let flips = 1 + random.next(64)
                for _ in 0..<flips { bytes[random.next(bytes.count)] ^= UInt8(1 + random.next(255)) }
                allowance += flips
            case 1:
                let start = random.next(bytes.count)
                for offset in start..<min(bytes.count, start + random.next(3 * pageSize)) { bytes[offset] = UInt8(random.next(256)) }
                allowance += 1
            default:
                let pages = bytes.count / pageSize
                let (from, to) = (random.next(pages), random.next(pages))
                bytes.replaceSubrange((to * pageSize)..<((to + 1) * pageSize), with: bytes[(from * pageSize)..<((from + 1) * pageSize)])
                allowance += 1
            }
        }
        let folder = try SQLiteFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let damaged = folder.appendingPathComponent("damaged.sqlite")
        try Data(bytes).write(to: damaged)
        let recovered = folder.appendingPathComponent("recovered.sqlite")
        let report = try PersistentStoreCoordinator.recover(damaged: damaged, into: recovered, model: try corpus.model)
        var changed: [String] = []
        for table in corpus.manifest.tables {
            let originalRows = try StoredRows.rows(of: table, in: original.path)
            for (key, row) in try StoredRows.rows(of: table, in: recovered.path) {
                let expected = originalRows[key] ?? []
                // A to-one cleared because its object was lost is salvage's doing, not damage.
                let same = row.count == expected.count && zip(row, expected).allSatisfy { $0 == $1 || $0 == "author=NULL" }
                if !same { changed.append("\(table) \(key)") }
            }
        }
        #expect(changed.count <= allowance, "seed \(seed): rows not as stored: \(changed)\n\(report)")
        let container = PersistentContainer(name: "Recovered", managedObjectModel: try corpus.model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: recovered)]
        try container.loadPersistentStores()
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        #expect(try container.persistentStoreCoordinator.checkIntegrity().isSound, "seed \(seed): the recovered store is sound")
    }
}

/// SplitMix64: a small seeded generator for the fuzz cases.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((value ^ (value >> 31)) % UInt64(max(bound, 1)))
    }
}
