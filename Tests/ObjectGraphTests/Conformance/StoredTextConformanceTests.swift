import Foundation
import Testing

@testable import ObjectGraph

/// Strings of every length come back byte for byte, however the store keeps them in memory (the
/// SQLite reader keeps long ASCII text inside the fetched row), through reads, changes of other
/// attributes and of the string itself, and a reopened store.
@Suite struct StoredTextConformanceTests {
    /// Short and long, ASCII and not: 15 bytes is the longest small string, 16 the shortest that
    /// is kept as text.
    static let titles = [
        "", "short", "fifteen bytes!!", "sixteen bytes!!!", String(repeating: "long ASCII text, ", count: 600),
        "a long title that is not ASCII — ünïcödé 🎉", "a title\twith\ncontrol characters in it"
    ]

    private static func titles(in context: ManagedObjectContext) throws -> [String] {
        var request = FetchRequest<ManagedObject>(entityName: "Book")
        request.sortDescriptors = [FetchSortDescriptor(key: "title")]
        return try context.fetch(request).map { try #require(try $0.get("title", as: String.self)) }
    }

    /// A store of `kind` holding a book of each of `titles`, reopened.
    private static func reopenedStoreOfBooks(_ kind: StoreKind) throws -> TestStore {
        let store = try TestStore.graph(kind)
        try store.withNewContext { context in
            for title in titles { try context.insert("Book", ["title": title]) }
            try context.save()
        }
        try store.reopen()
        return store
    }

    @Test(arguments: StoreKind.allCases)
    func stringsOfEveryLengthReadBackAsWritten(kind: StoreKind) throws {
        let store = try Self.reopenedStoreOfBooks(kind)
        try store.withNewContext { context in
            #expect(try Self.titles(in: context) == Self.titles.sorted())
            let books = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
            // Reading a value twice gives equal strings; the fetched values match by predicate.
            for book in books { #expect(try book.get("title", as: String.self) == (try book.get("title", as: String.self))) }
            let long = Self.titles[4]
            let matched = try context.fetch(
                FetchRequest<ManagedObject>(entityName: "Book", predicate: FetchPredicate(format: "title == %@", long)))
            #expect(try matched.map { try $0.get("title", as: String.self) } == [long])
        }
    }

    /// A book whose title was read from the store keeps it when another attribute (its author)
    /// changes and is saved, and takes a new title of any length when the title changes.
    @Test(arguments: StoreKind.allCases)
    func changesKeepAndReplaceFetchedText(kind: StoreKind) throws {
        let store = try Self.reopenedStoreOfBooks(kind)
        let renamed = Self.titles.map { $0.isEmpty ? "now titled" : $0 + " (second edition, with a longer title)" }
        try store.withNewContext { context in
            let author = try context.insert("Author", ["name": "an author whose name is long enough to be text"])
            for book in try context.fetch(FetchRequest<ManagedObject>(entityName: "Book")) {
                try book.setValue(author, forKey: "author")
            }
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { context in
            #expect(try Self.titles(in: context) == Self.titles.sorted())
            for book in try context.fetch(FetchRequest<ManagedObject>(entityName: "Book")) {
                let title = try #require(try book.get("title", as: String.self))
                #expect(
                    try book.get("author", as: ManagedObject.self)?.get("name", as: String.self)
                        == "an author whose name is long enough to be text")
                try book.setValue(renamed[Self.titles.firstIndex(of: title)!], forKey: "title")
                #expect(try book.committedValues(forKeys: ["title"])["title"] as? String == title)
            }
            try context.save()
        }
        try store.reopen()
        #expect(try store.withNewContext { try Self.titles(in: $0) } == renamed.sorted())
    }

    /// Text another program wrote that is not UTF-8 is read as `String(decoding:as:)` reads it,
    /// each bad sequence becoming U+FFFD, long or short; nothing is lost from the other rows.
    @Test func textThatIsNotUTF8IsReadWithReplacementCharacters() throws {
        let store = try TestStore.graph(.sqlite)
        try store.withNewContext { context in
            for title in ["first", "second", "third"] { try context.insert("Book", ["title": title]) }
            try context.save()
        }
        let long = Array("a long title, then a byte that is not UTF-8: ".utf8) + [0xFF] + Array(" and more text".utf8)
        let short = [0x61, 0xC3] as [UInt8]
        store.container.persistentStoreCoordinator.removePersistentStore()
        do {
            let connection = try SQLiteConnection(
                path: store.directory!.appendingPathComponent("Conformance.sqlite").path, readOnly: false, busyTimeout: 1)
            defer { connection.close() }
            func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02X", $0) }.joined() }
            try connection.execute("UPDATE \"Book\" SET \"title\" = CAST(X'\(hex(long))' AS TEXT) WHERE \"title\" = 'first'")
            try connection.execute("UPDATE \"Book\" SET \"title\" = CAST(X'\(hex(short))' AS TEXT) WHERE \"title\" = 'second'")
        }
        try store.reopen()
        let titles = try store.withNewContext { try Self.titles(in: $0) }
        #expect(titles == [String(decoding: long, as: UTF8.self), String(decoding: short, as: UTF8.self), "third"].sorted())
        #expect(titles.contains { $0.contains("\u{FFFD} and more text") })
    }
}
