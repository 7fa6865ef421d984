import Foundation
import Testing

@testable import ObjectGraph

/// The string operators answer the same on every store: SQL runs the evaluator's own matcher.
@Suite struct StringOperatorConformanceTests {
    static let names = ["Zoë Quinn", "zoe quinn", "Renée Müller", "RENEE MULLER", "André", "andre", "Ann-Marie", "Bob"]

    private func makePeople(_ kind: StoreKind) throws -> TestStore {
        let store = try TestStore(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            for (number, name) in Self.names.enumerated() { try context.insertPerson(name, age: number, city: number == 7 ? nil : "x") }
            try context.insertPerson("Cécile", age: 99, city: nil)
            try context.save()
        }
        return store
    }

    static let cases: [(format: String, expected: [String])] = [
        ("name BEGINSWITH 'Zo'", ["Zoë Quinn"]),
        ("name BEGINSWITH[c] 'zo'", ["Zoë Quinn", "zoe quinn"]),
        ("name BEGINSWITH[cd] 'ZOE'", ["Zoë Quinn", "zoe quinn"]),
        ("name ENDSWITH 'Müller'", ["Renée Müller"]),
        ("name ENDSWITH[cd] 'muller'", ["RENEE MULLER", "Renée Müller"]),
        ("name CONTAINS 'ne'", []),  // "Renée": n is followed by é, another character
        ("name CONTAINS 'Mü'", ["Renée Müller"]),
        ("name CONTAINS[c] 'NE'", ["RENEE MULLER"]),
        ("name CONTAINS[d] 'ee'", ["Renée Müller"]),
        ("name CONTAINS[cd] 'E M'", ["RENEE MULLER", "Renée Müller"]),
        ("name CONTAINS ''", names + ["Cécile"]),
        ("name LIKE 'A*'", ["André", "Ann-Marie"]),
        ("name LIKE[c] 'a?dr*'", ["André", "andre"]),
        ("name LIKE[cd] 'andre'", ["André", "andre"]),
        ("name LIKE '*-*'", ["Ann-Marie"]),
        ("name LIKE '???'", ["Bob"]),
        ("name MATCHES '[A-Z][a-z]+'", ["Bob"]),
        ("name MATCHES[c] 'b.B'", ["Bob"]),
        ("name MATCHES[cd] 'andre'", ["André", "andre"]),
        ("name MATCHES 'An'", []),
        ("name ==[c] 'BOB'", ["Bob"]),
        ("name ==[cd] 'cecile'", ["Cécile"]),
        ("name !=[cd] 'andre' AND age < 6", ["RENEE MULLER", "Renée Müller", "Zoë Quinn", "zoe quinn"]),
        ("NOT name CONTAINS[c] 'e'", ["André", "Bob", "Zoë Quinn"]),
        ("city BEGINSWITH 'x' AND name CONTAINS 'o'", ["Zoë Quinn", "zoe quinn"]),
        ("NOT city BEGINSWITH 'x'", []),
        ("name IN[c] {'bob', 'ANDRE'}", ["Bob", "andre"]),
        ("name IN[cd] {'renee muller', 'zoe quinn'}", ["RENEE MULLER", "Renée Müller", "Zoë Quinn", "zoe quinn"]),
        ("NOT (name IN[cd] {'andre'}) AND age < 6", ["RENEE MULLER", "Renée Müller", "Zoë Quinn", "zoe quinn"]),
        ("name IN[c] {}", [])
    ]

    @Test(arguments: StoreKind.allCases)
    func everyStoreAgrees(kind: StoreKind) throws {
        let store = try makePeople(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            for (format, expected) in Self.cases {
                let found = try context.objects("Person", where: format).map { try $0.value(forKey: "name", as: String.self) ?? "" }
                #expect(found.sorted() == expected.sorted(), "\(format)")
                // Unsaved changes are matched by the same rules.
                #expect(try context.count(for: request("Person", where: format)) == expected.count, "\(format)")
            }
            let pending = try context.insertPerson("Zoé", age: 1)
            #expect(try context.objects("Person", where: "name BEGINSWITH[cd] 'zoe'").contains(pending))
        }
    }

    /// ASCII names are matched by bytes, the others by folded characters: a search finds both
    /// kinds alike.
    @Test(arguments: StoreKind.allCases)
    func asciiAndOtherValuesMatchAlike(kind: StoreKind) throws {
        let names = ["JOB", "Obi", "Bob", "ÖBERG", "Jo\u{308}b", "jöb", "Straße", "STRASSE", "Oa", "o\u{301}b"]
        let store = try TestStore(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            for (number, name) in names.enumerated() { try context.insertPerson(name, age: number) }
            try context.save()
            let cases: [(format: String, expected: [String])] = [
                ("name CONTAINS[cd] 'ob'", ["JOB", "Obi", "Bob", "ÖBERG", "Jo\u{308}b", "jöb", "o\u{301}b"]),
                ("name CONTAINS[c] 'ob'", ["JOB", "Obi", "Bob"]),
                ("name CONTAINS 'ob'", ["Bob"]),
                ("name CONTAINS[cd] 'ÖB'", ["JOB", "Obi", "Bob", "ÖBERG", "Jo\u{308}b", "jöb", "o\u{301}b"]),
                ("name CONTAINS[c] 'öb'", ["ÖBERG", "Jo\u{308}b", "jöb"]),
                ("name BEGINSWITH[cd] 'stra'", ["Straße", "STRASSE"]),
                ("name ENDSWITH[c] 'B'", ["JOB", "Bob", "Jo\u{308}b", "jöb", "o\u{301}b"]),
                ("name ==[cd] 'job'", ["JOB", "Jo\u{308}b", "jöb"]),
                ("name ==[c] 'jöb'", ["Jo\u{308}b", "jöb"]),
                ("name !=[c] 'job' AND age < 3", ["Obi", "Bob"])
            ]
            for (format, expected) in cases {
                let found = try context.objects("Person", where: format).map { try $0.value(forKey: "name", as: String.self) ?? "" }
                #expect(found.sorted() == expected.sorted(), "\(format)")
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func badUseIsAnErrorNotAnEmptyResult(kind: StoreKind) throws {
        let store = try makePeople(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let number = #expect(throws: ObjectGraphError.self) { try context.objects("Person", where: "age CONTAINS '1'") }
            #expect(number?.kind == .typeMismatch)
            #expect(number?.message == "Person.age is integer32, but CONTAINS compares strings")
            let notString = #expect(throws: ObjectGraphError.self) { try context.objects("Person", where: "name BEGINSWITH[c] 3") }
            #expect(notString?.message == "BEGINSWITH[c] needs a string to compare Person.name with, but the predicate gives the integer 3")
            let regex = #expect(throws: ObjectGraphError.self) { try context.objects("Person", where: "name MATCHES '(unclosed'") }
            #expect(regex?.kind == .predicateSyntax)
            #expect(regex?.message == "MATCHES needs a regular expression, but the string \"(unclosed\" is not a valid one")
        }
    }

    /// ICU's leading `(?i)` makes the whole pattern case-insensitive on every store. Other ICU
    /// inline options are ICU's own: PostgreSQL's regular expressions refuse them, and the
    /// PostgreSQL store says so rather than answer something else.
    @Test(arguments: StoreKind.allCases)
    func inlineOptionsOfMatches(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            for name in ["Ada", "ada", "Bob"] { try context.insertNewObject(forEntityName: "Person").setValue(name, forKey: "name") }
            try context.save()
        }
        try store.withNewContext { context in
            #expect(try context.objects("Person", where: "name MATCHES '(?i)ADA'").map(\.label).sorted() == ["Ada", "ada"])
            #expect(try context.objects("Person", where: "name MATCHES[d] '(?i)A.A'").map(\.label).sorted() == ["Ada", "ada"])
            #expect(try context.objects("Person", where: "NOT (name MATCHES '(?i)a.*')").map(\.label) == ["Bob"])
            guard kind == .postgreSQL else {
                #expect(try context.objects("Person", where: "name MATCHES '(?x) a d a'").map(\.label) == ["ada"])
                return
            }
            let error = try #require(throws: ObjectGraphError.self) { try context.objects("Person", where: "name MATCHES '(?x) a d a'") }
            #expect(error.kind == .predicateSyntax)
            #expect(
                error.message.hasPrefix("Cannot read Person objects: PostgreSQL refuses a MATCHES pattern of the predicate ("),
                "\(error.message)")
            #expect(error.message.contains("whose syntax is not ICU's"), "\(error.message)")
        }
    }

    @Test func descriptionsParseBack() throws {
        for (format, _) in Self.cases {
            let predicate = try FetchPredicate(format: format)
            #expect(try FetchPredicate(format: predicate.description).description == predicate.description, "\(format)")
        }
        #expect(try FetchPredicate(format: "name contains[dc] %@", "x").description == "name CONTAINS[cd] \"x\"")
    }

    /// A pattern that backtracks without end on a value (`(a+)+$` doubles its work with each
    /// `a`) is given up after a bounded number of engine steps: the fetch fails with an error
    /// naming the pattern instead of running for hours. PostgreSQL's regular expression engine
    /// (a DFA/NFA hybrid) does not backtrack, so there the same pattern simply answers, correctly.
    @Test(arguments: StoreKind.allCases)
    func aRunawayMatchesIsGivenUpWithAnError(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            try context.insertNewObject(forEntityName: "Person").setValue("aaa", forKey: "name")
            try context.insertNewObject(forEntityName: "Person").setValue(String(repeating: "a", count: 40) + "b", forKey: "name")
            try context.save()
        }
        try store.withNewContext { context in
            if kind == .postgreSQL {
                #expect(try context.objects("Person", where: "name MATCHES '(a+)+$'").map(\.label) == ["aaa"])
            } else {
                let error = try #require(throws: ObjectGraphError.self) { try context.objects("Person", where: "name MATCHES '(a+)+$'") }
                #expect(error.kind == .predicateSyntax)
                #expect(error.message.contains("MATCHES '(a+)+$' gave up on a value"), "\(error.message)")
            }
            // Other patterns still answer on the same values.
            #expect(try context.objects("Person", where: "name MATCHES 'a+b'").count == 1)
            #expect(try context.objects("Person", where: "name MATCHES 'a+'").count == 1)
        }
    }
}
