import Foundation
import ObjectGraph
import Testing

/// Generated relationship properties and helpers: to-one, to-many, ordered, many-to-many, and
/// entity inheritance, on both stores.
@Suite struct GeneratedRelationshipTests {
    @Test(arguments: StoreKind.allCases)
    func relationshipsOfEveryKindRoundTrip(_ kind: StoreKind) throws {
        let store = try CatalogStore(kind)
        let context = store.context
        let author = Author(context: context)
        author.id = UUID()
        author.name = "Ursula K. Le Guin"
        let book = CatalogBook(context: context)
        book.title = "The Dispossessed"
        book.author = author  // to-one, inverse kept
        #expect(author.books == [book])
        let chapters = (1...3).map { number in
            let chapter = Chapter(context: context)
            chapter.title = "Chapter \(number)"
            chapter.number = Int16(number)
            return chapter
        }
        book.chapters = [chapters[2], chapters[0]]  // ordered, set as a whole
        book.addToChapters(chapters[1])  // appended
        #expect(chapters[1].book === book)
        book.insertIntoChapters(chapters[1], at: 0)  // moved to the front
        #expect(book.chapters.map(\.number) == [2, 3, 1])
        book.removeFromChapters([chapters[1]])
        book.addToChapters([chapters[1]])  // several at once: back at the end
        let tags = ["anarchy", "physics"].map { name in
            let tag = Tag(context: context)
            tag.name = name
            return tag
        }
        book.tags = Set(tags)  // many-to-many
        tags[0].removeFromBooks(book)
        #expect(book.tags == [tags[1]])
        try context.save()

        let reopened = try store.reopened()
        let fetchedAuthor = try #require(try reopened.fetch(Author.fetchRequest()).first)
        let fetchedBook = try #require(fetchedAuthor.books.first)
        #expect(fetchedBook.author === fetchedAuthor)
        #expect(fetchedBook.chapters.map(\.title) == ["Chapter 3", "Chapter 1", "Chapter 2"])
        #expect(fetchedBook.tags.map(\.name) == ["physics"])
        #expect(fetchedBook.chapters.allSatisfy { $0.book === fetchedBook })

        fetchedBook.removeFromChapters(fetchedBook.chapters[0])
        fetchedBook.author = nil
        #expect(fetchedAuthor.books.isEmpty)
        try reopened.save()
        #expect(try reopened.fetch(CatalogBook.fetchRequest()).first?.chapters.count == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func fetchesOfAParentEntityReturnEachObjectAsItsOwnClass(_ kind: StoreKind) throws {
        let store = try CatalogStore(kind)
        let context = store.context
        let manager = Manager(context: context)
        manager.name = "Grace"
        manager.level = 3
        let employee = Employee(context: context)
        employee.name = "Alan"
        employee.salary = 100
        employee.manager = manager  // inherited from Employee
        #expect(manager.reports == [employee])
        try context.save()

        let reopened = try store.reopened()
        var request = Person.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: Person.Attributes.name)]
        let people = try reopened.fetch(request)
        #expect(people.map(\.name) == ["Alan", "Grace"])
        let alan = try #require(people[0] as? Employee)
        let grace = try #require(people[1] as? Manager)
        #expect(type(of: alan) == Employee.self)
        #expect(alan.manager === grace && grace.level == 3 && grace.manager == nil)
        #expect(try reopened.fetch(Employee.fetchRequest()).count == 2)
        #expect(try reopened.fetch(Manager.fetchRequest()).map(\.name) == ["Grace"])
    }

    @Test(arguments: StoreKind.allCases)
    func objectsMadeFromIDsAndInsertedByNameAreInstancesOfTheirClasses(_ kind: StoreKind) throws {
        let store = try CatalogStore(kind)
        let context = store.context
        let inserted = try context.insertNewObject(forEntityName: "Tag")
        #expect(inserted is Tag)
        (inserted as! Tag).name = "x"
        try context.save()
        let other = store.container.newBackgroundContext()
        let seen = try other.performAndWait { () throws -> (Bool, Bool, [String]) in
            (
                other.object(with: inserted.objectID) is Tag, try other.existingObject(with: inserted.objectID) is Tag,
                try other.fetch(Tag.fetchRequest(), batchSize: 10).map(\.name)
            )
        }
        #expect(seen.0 && seen.1 && seen.2 == ["x"])
        let child = context.newChildContext()
        try child.performAndWait {
            let tag = Tag(context: child)
            tag.name = "child"
            try child.save()
        }
        #expect(try context.fetch(Tag.fetchRequest()).count == 2)
        #expect(context.insertedObjects.allSatisfy { $0 is Tag })
    }
}
