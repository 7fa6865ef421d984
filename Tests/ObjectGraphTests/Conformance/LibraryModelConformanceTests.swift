import Foundation
import Testing

@testable import ObjectGraph

/// The shipped Library model (Models/Library.json, a test resource) on every store: its
/// defaults, rules and constraints as a user of the example would meet them.
@Suite struct LibraryModelConformanceTests {
    static func loadLibrary() throws -> ManagedObjectModel {
        try ManagedObjectModel(named: "Library", in: Bundle.module)
    }

    struct Metadata: Codable, Equatable {
        var tags: [String]
    }

    /// Inserts a valid Author named `name`.
    @discardableResult
    static func insertAuthor(_ name: String, in context: ManagedObjectContext) throws -> ManagedObject {
        try context.insert("Author", ["id": UUID(), "name": name])
    }

    /// Inserts a valid Book by `author`.
    @discardableResult
    static func insertBook(_ title: String, isbn: String, author: ManagedObject?, in context: ManagedObjectContext) throws -> ManagedObject
    {
        try context.insert("Book", ["id": UUID(), "isbn": isbn, "title": title, "author": author])
    }

    /// Inserts a valid Member named `name`.
    @discardableResult
    static func insertMember(_ name: String, in context: ManagedObjectContext) throws -> ManagedObject {
        try context.insert("Member", ["id": UUID(), "name": name, "email": "\(name.lowercased())@example.org"])
    }

    /// Inserts a valid Loan of `book` to `member`.
    @discardableResult
    static func insertLoan(_ book: ManagedObject?, to member: ManagedObject?, in context: ManagedObjectContext) throws -> ManagedObject {
        try context.insert(
            "Loan",
            [
                "id": UUID(), "book": book, "member": member,
                "borrowedAt": Date(timeIntervalSinceReferenceDate: 0), "dueAt": Date(timeIntervalSinceReferenceDate: 86_400)
            ])
    }

    @Test(arguments: StoreKind.allCases)
    func defaultsSurviveSaveAndReopen(kind: StoreKind) throws {
        let store = try TestStore(kind, model: Self.loadLibrary)
        try store.withNewContext { context in
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue(UUID(), forKey: "id")
            try book.setValue("9780306406157", forKey: "isbn")
            try book.setValue("Defaults", forKey: "title")
            try book.setValue(try Self.insertAuthor("Ann", in: context), forKey: "author")
            #expect(try book.get("edition", as: Int16.self) == 1)
            #expect(try book.get("inPrint", as: Bool.self) == true)
            #expect(try book.get("metadata", as: Metadata.self) == Metadata(tags: []))

            let member = try context.insertNewObject(forEntityName: "Member")
            try member.setValue(UUID(), forKey: "id")
            try member.setValue("Ada", forKey: "name")
            try member.setValue("ada@example.org", forKey: "email")
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { context in
            let book = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Book")).first)
            #expect(try book.get("edition", as: Int16.self) == 1)
            #expect(try book.get("price", as: Decimal.self) == 0)
            #expect(try book.get("inPrint", as: Bool.self) == true)
            #expect(try book.get("metadata", as: Metadata.self) == Metadata(tags: []))
            #expect(try book.relatedObject(forKey: "author")?.get("name", as: String.self) == "Ann")
            #expect(try book.relatedObjects(forKey: "loans").isEmpty)
            #expect(try book.value(forKey: "pageCount") == nil)

            let member = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Member")).first)
            #expect(try member.get("joined", as: Date.self) == ISO8601DateFormatter().date(from: "2024-01-01T00:00:00Z"))
            #expect(try member.get("maxLoans", as: Int16.self) == 5)
            #expect(try member.get("balance", as: Decimal.self) == 0)
            // The empty default stays empty data, not nil.
            #expect(try member.get("card", as: Data.self) == Data())
        }
    }

    @Test(arguments: StoreKind.allCases)
    func rulesOfEveryEntityAreEnforced(kind: StoreKind) throws {
        let store = try TestStore(kind, model: Self.loadLibrary)
        try store.withNewContext { context in
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue(UUID(), forKey: "id")
            try author.setValue("", forKey: "name")
            try author.setValue(Date(timeIntervalSince1970: -40_000_000_000), forKey: "born")  // year 702
            try author.setValue(5.5, forKey: "rating")

            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue(UUID(), forKey: "id")
            try book.setValue("12345", forKey: "isbn")
            try book.setValue("T", forKey: "title")
            try book.setValue(author, forKey: "author")
            try book.setValue(0, forKey: "pageCount")
            try book.setValue(Decimal(-1), forKey: "price")

            // dueAt, book and member missing.
            let loan = try context.insertNewObject(forEntityName: "Loan")
            try loan.setValue(UUID(), forKey: "id")
            try loan.setValue(Date(), forKey: "borrowedAt")
            try loan.setValue(4, forKey: "renewals")

            let member = try context.insertNewObject(forEntityName: "Member")
            try member.setValue(UUID(), forKey: "id")
            try member.setValue("M", forKey: "name")
            try member.setValue("not an address", forKey: "email")

            let error = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(error?.kind == .validation)
            let failed = Set((error?.validationFailures ?? []).map { "\($0.entityName).\($0.key ?? "")" })
            #expect(
                failed == [
                    "Author.name", "Author.born", "Author.rating",
                    "Book.isbn", "Book.pageCount", "Book.price",
                    "Loan.renewals", "Loan.dueAt", "Loan.book", "Loan.member",
                    "Member.email"
                ])
        }
        #expect(try store.storedCount("Book") == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func secondUniquenessConstraintIsEnforced(kind: StoreKind) throws {
        let store = try TestStore(kind, model: Self.loadLibrary)
        try store.withNewContext { context in
            let author = try Self.insertAuthor("Ann", in: context)
            for _ in 0..<2 {
                try Self.insertBook("Twice", isbn: "9780306406157", author: author, in: context)
            }
            let error = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(error?.kind == .constraintViolation)
            #expect(error?.entityName == "Book")
            #expect(error?.key == "isbn")
            #expect(error?.message.contains("isbn = \"9780306406157\"") == true, "\(error?.message ?? "")")
        }
        #expect(try store.storedCount("Book") == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func fetchByUUIDAndDate(kind: StoreKind) throws {
        let store = try TestStore(kind, model: Self.loadLibrary)
        var ids: [UUID] = []
        let base = Date(timeIntervalSinceReferenceDate: 700_000_000.25)
        try store.withNewContext { context in
            let author = try Self.insertAuthor("Ann", in: context)
            for (index, isbn) in ["9780000000001", "9780000000002", "9780000000003", "9790000000004"].enumerated() {
                let book = try Self.insertBook("Book \(index)", isbn: isbn, author: author, in: context)
                let id = UUID()
                ids.append(id)
                try book.setValue(id, forKey: "id")
                try book.setValue(base.addingTimeInterval(Double(index) * 86_400), forKey: "published")
            }
            try context.save()
        }
        try store.withNewContext { context in
            var request = FetchRequest<ManagedObject>(entityName: "Book")
            request.predicate = try FetchPredicate(format: "id IN %@ AND published > %@", Array(ids.prefix(3)), base)
            request.sortDescriptors = [FetchSortDescriptor(key: "published", ascending: false)]
            let titles = try context.fetch(request).map { try $0.get("title", as: String.self) }
            #expect(titles == ["Book 2", "Book 1"])
        }
    }

    /// Book.author ↔ Author.books, Loan.book ↔ Book.loans and Loan.member ↔ Member.loans are
    /// written and read back from the store, both ways.
    @Test(arguments: StoreKind.allCases)
    func relationshipsSurviveSaveAndReopen(kind: StoreKind) throws {
        let store = try TestStore(kind, model: Self.loadLibrary)
        try store.withNewContext { context in
            let ann = try Self.insertAuthor("Ann", in: context)
            let bob = try Self.insertAuthor("Bob", in: context)
            let dune = try Self.insertBook("Dune", isbn: "9780000000001", author: ann, in: context)
            try Self.insertBook("Emma", isbn: "9780000000002", author: ann, in: context)
            let ulysses = try Self.insertBook("Ulysses", isbn: "9780000000003", author: bob, in: context)
            let ada = try Self.insertMember("Ada", in: context)
            try Self.insertLoan(dune, to: ada, in: context)
            try Self.insertLoan(ulysses, to: ada, in: context)
            try Self.insertLoan(dune, to: try Self.insertMember("Grace", in: context), in: context)
            // The inverses are set in memory, before the save.
            #expect(try ann.names("books", "title") == ["Dune", "Emma"])
            #expect(try dune.relatedObjects(forKey: "loans").count == 2)
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { context in
            let emma = try context.one("Book", "title", "Emma")
            let ann = try #require(try emma.relatedObject(forKey: "author"))
            #expect(try ann.get("name", as: String.self) == "Ann")
            #expect(try ann.names("books", "title") == ["Dune", "Emma"])
            #expect(try context.one("Author", "name", "Bob").names("books", "title") == ["Ulysses"])
            #expect(try emma.relatedObjects(forKey: "loans").isEmpty)

            // Member → loans → book → author.
            let ada = try context.one("Member", "name", "Ada")
            let borrowed = try ada.relatedObjects(forKey: "loans").map { loan in
                let book = try #require(try loan.relatedObject(forKey: "book"))
                #expect(try loan.relatedObject(forKey: "member") == ada)
                let author = try book.relatedObject(forKey: "author")?.get("name", as: String.self) ?? ""
                return "\(try book.get("title", as: String.self) ?? "") by \(author)"
            }
            #expect(borrowed.sorted() == ["Dune by Ann", "Ulysses by Bob"])
            let duneLoans = try context.one("Book", "title", "Dune").relatedObjects(forKey: "loans")
            #expect(
                Set(try duneLoans.compactMap { try $0.relatedObject(forKey: "member")?.get("name", as: String.self) }) == ["Ada", "Grace"])
        }
    }

    /// The Library's delete rules: an author with books is kept (deny), a member's or a book's
    /// loans go with it (cascade), and a deleted book leaves its author (nullify).
    @Test(arguments: StoreKind.allCases)
    func deleteRulesOfTheLibrary(kind: StoreKind) throws {
        let store = try TestStore(kind, model: Self.loadLibrary)
        try store.withNewContext { context in
            let ann = try Self.insertAuthor("Ann", in: context)
            let dune = try Self.insertBook("Dune", isbn: "9780000000001", author: ann, in: context)
            let emma = try Self.insertBook("Emma", isbn: "9780000000002", author: ann, in: context)
            let ada = try Self.insertMember("Ada", in: context)
            let grace = try Self.insertMember("Grace", in: context)
            try Self.insertLoan(dune, to: ada, in: context)
            try Self.insertLoan(emma, to: ada, in: context)
            try Self.insertLoan(emma, to: grace, in: context)
            try context.save()
        }
        try store.withNewContext { context in
            context.delete(try context.one("Author", "name", "Ann"))
            let error = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(error?.kind == .validation)
            #expect(error?.validationFailures.map { "\($0.entityName).\($0.key ?? "")" } == ["Author.books"])
            context.rollback()

            context.delete(try context.one("Member", "name", "Ada"))
            // As in Core Data, the cascade to Ada's loans happens when the event ends, which
            // `processPendingChanges()` marks here (`performAndWait` does not end one).
            #expect(context.deletedObjects.count == 1)
            context.processPendingChanges()
            #expect(context.deletedObjects.count == 3)
            #expect(try context.one("Book", "title", "Emma").relatedObjects(forKey: "loans").count == 1)
            try context.save()
        }
        #expect(try store.storedCount("Author") == 1)
        #expect(try store.storedCount("Loan") == 1)
        try store.withNewContext { context in
            context.delete(try context.one("Book", "title", "Emma"))
            // Ann lets go of Emma when the event ends (Core Data's timing).
            #expect(try context.one("Author", "name", "Ann").names("books", "title") == ["Dune", "Emma"])
            context.processPendingChanges()
            #expect(try context.one("Author", "name", "Ann").names("books", "title") == ["Dune"])
            try context.save()
        }
        try store.reopen()
        #expect(try store.storedCount("Book") == 1)
        #expect(try store.storedCount("Loan") == 0)
        #expect(try store.storedCount("Member") == 1)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            #expect(try context.one("Author", "name", "Ann").names("books", "title") == ["Dune"])
            #expect(try context.one("Member", "name", "Grace").relatedObjects(forKey: "loans").isEmpty)
        }
    }
}
