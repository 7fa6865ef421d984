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

    @Test(arguments: StoreKind.allCases)
    func defaultsSurviveSaveAndReopen(kind: StoreKind) throws {
        let store = try TestStore(kind, model: Self.loadLibrary)
        let authorID = UUID()
        try store.withNewContext { context in
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue(UUID(), forKey: "id")
            try book.setValue("9780306406157", forKey: "isbn")
            try book.setValue("Defaults", forKey: "title")
            try book.setValue(authorID, forKey: "authorID")
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
            #expect(try book.get("authorID", as: UUID.self) == authorID)
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
            try book.setValue(UUID(), forKey: "authorID")
            try book.setValue(0, forKey: "pageCount")
            try book.setValue(Decimal(-1), forKey: "price")

            let loan = try context.insertNewObject(forEntityName: "Loan")
            try loan.setValue(UUID(), forKey: "id")
            try loan.setValue(UUID(), forKey: "bookID")
            try loan.setValue(UUID(), forKey: "memberID")
            try loan.setValue(Date(), forKey: "borrowedAt")
            try loan.setValue(4, forKey: "renewals")  // dueAt missing

            let member = try context.insertNewObject(forEntityName: "Member")
            try member.setValue(UUID(), forKey: "id")
            try member.setValue("M", forKey: "name")
            try member.setValue("not an address", forKey: "email")

            let error = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(error?.kind == .validation)
            let failed = Set((error?.validationFailures ?? []).map { "\($0.entityName).\($0.key ?? "")" })
            #expect(failed == [
                "Author.name", "Author.born", "Author.rating",
                "Book.isbn", "Book.pageCount", "Book.price",
                "Loan.renewals", "Loan.dueAt",
                "Member.email",
            ])
        }
        #expect(try store.storedCount("Book") == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func secondUniquenessConstraintIsEnforced(kind: StoreKind) throws {
        let store = try TestStore(kind, model: Self.loadLibrary)
        try store.withNewContext { context in
            for _ in 0..<2 {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue(UUID(), forKey: "id")
                try book.setValue("9780306406157", forKey: "isbn")
                try book.setValue("Twice", forKey: "title")
                try book.setValue(UUID(), forKey: "authorID")
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
        let authorID = UUID()
        let base = Date(timeIntervalSinceReferenceDate: 700_000_000.25)
        try store.withNewContext { context in
            for (index, isbn) in ["9780000000001", "9780000000002", "9780000000003", "9790000000004"].enumerated() {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue(UUID(), forKey: "id")
                try book.setValue(isbn, forKey: "isbn")
                try book.setValue("Book \(index)", forKey: "title")
                try book.setValue(index < 3 ? authorID : UUID(), forKey: "authorID")
                try book.setValue(base.addingTimeInterval(Double(index) * 86_400), forKey: "published")
            }
            try context.save()
        }
        try store.withNewContext { context in
            var request = FetchRequest<ManagedObject>(entityName: "Book")
            request.predicate = try FetchPredicate(format: "authorID == %@ AND published > %@", authorID, base)
            request.sortDescriptors = [FetchSortDescriptor(key: "published", ascending: false)]
            let titles = try context.fetch(request).map { try $0.get("title", as: String.self) }
            #expect(titles == ["Book 2", "Book 1"])
        }
    }
}
