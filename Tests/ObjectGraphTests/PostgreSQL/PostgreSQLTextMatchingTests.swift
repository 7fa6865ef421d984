import Foundation
import Testing

@testable import ObjectGraph

/// The PostgreSQL store's string operators and case-insensitive sort (its SQL functions, see
/// `PostgreSQLTextFunctions`) give the answers of `TextMatcher`, which the in-memory and SQLite
/// stores run: the same objects match every operator, option and pattern, in the same order.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "no PostgreSQL server for the tests"))
struct PostgreSQLTextMatchingTests {
    /// Titles with case, composed and decomposed accents, ligatures, German, Greek, Turkish,
    /// Cyrillic, wildcards' own characters, and a quote.
    static let titles = [
        "", "a", "A", "abc", "ABC", "Straße", "STRASSE", "strasse", "café", "cafe\u{301}", "CAFÉ", "cafe",
        "naïve", "Ærø", "ﬁne", "fine", "ΣΊΣΥΦΟΣ", "σίσυφος", "İstanbul", "istanbul", "Ёлка", "елка",
        "100%", "a_b", "a*b", "what?", "it's", "Ünïcödé", "über", "Zoë", "zoe"
    ]
    static let patterns = [
        "a", "A", "cafe", "CAFÉ", "é", "strasse", "ß", "fi", "σίσυφος", "istanbul", "елка", "%", "_", "*", "?", "c*", "?b?", "z?e", "über",
        "'"
    ]
    static let operators = ["==", "!=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE"]
    static let options = ["", "[c]", "[d]", "[cd]"]

    @Test func everyOperatorAndOptionMatchesAsTheInMemoryStore() throws {
        let postgres = try TestStore(.postgreSQL)
        let memory = try TestStore(.inMemory)
        for store in [postgres, memory] {
            try store.withNewContext { context in
                for (number, title) in Self.titles.enumerated() { try context.insertItem("T\(number)", ["title": title]) }
                try context.save()
            }
        }
        var compared = 0
        for op in Self.operators {
            for option in Self.options {
                for pattern in Self.patterns {
                    let format = "title \(op)\(option) %@"
                    let inPostgres = try Self.codes(in: postgres, format, pattern)
                    let inMemory = try Self.codes(in: memory, format, pattern)
                    #expect(inPostgres == inMemory, "\(format) '\(pattern)'")
                    compared += 1
                }
            }
        }
        #expect(compared == Self.operators.count * Self.options.count * Self.patterns.count)
        let sorted = try [postgres, memory].map { store in
            try store.withNewContext { context in
                var request = FetchRequest<ManagedObject>(entityName: "Item")
                request.sortDescriptors = [FetchSortDescriptor(key: "title", comparison: .caseInsensitive)]
                return try context.fetch(request).map { try $0.value(forKey: "code", as: String.self) ?? "" }
            }
        }
        #expect(sorted[0] == sorted[1])
    }

    @Test func matchesIsAnchoredAndFoldsAsAsked() throws {
        let store = try TestStore(.postgreSQL)
        try store.withNewContext { context in
            for (number, title) in ["abc", "ABC", "ábc", "xabcx"].enumerated() { try context.insertItem("M\(number)", ["title": title]) }
            try context.save()
        }
        #expect(try Self.codes(in: store, "title MATCHES %@", "a.c") == ["M0"])
        #expect(try Self.codes(in: store, "title MATCHES[c] %@", "a.c") == ["M0", "M1"])
        #expect(try Self.codes(in: store, "title MATCHES[cd] %@", "a.c") == ["M0", "M1", "M2"])
        #expect(try Self.codes(in: store, "title MATCHES %@", ".*abc.*") == ["M0", "M3"])
    }

    private static func codes(in store: TestStore, _ format: String, _ argument: String) throws -> [String] {
        try store.withNewContext { context in
            var request = FetchRequest<ManagedObject>(entityName: "Item")
            request.predicate = try FetchPredicate(format: format, argument)
            request.sortDescriptors = [FetchSortDescriptor(key: "code")]
            return try context.fetch(request).map { try $0.value(forKey: "code", as: String.self) ?? "" }
        }
    }
}
