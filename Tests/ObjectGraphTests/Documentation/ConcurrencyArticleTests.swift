import Foundation
import ObjectGraph
import Testing

/// The examples of Concurrency.md.
@Suite struct ConcurrencyArticleTests {
    /// A book to import, as the import example reads it.
    struct Row: Sendable {
        var id: UUID
        var isbn: String
        var title: String
    }

    @Test func aContextIsUsedOnItsQueue() throws {
        let (container, directory) = try ArticleFixtures.seededLibrary()
        defer { try? FileManager.default.removeItem(at: directory) }

        let background = container.newBackgroundContext()
        background.perform {  // returns at once
            for book in (try? background.fetch(FetchRequest<ManagedObject>(entityName: "Book"))) ?? [] {
                try? book.setValue(true, forKey: "inPrint")
            }
            try? background.save()
        }
        let count = try background.performAndWait {  // returns the block's value
            try background.count(for: FetchRequest<ManagedObject>(entityName: "Book"))
        }

        #expect(count == 2)
        #expect(try ArticleFixtures.storedTitles(container, where: "inPrint == YES") == ["Dawn", "Kindred"])
    }

    @Test func anAsyncFunctionAwaitsTheContext() async throws {
        let (container, directory) = try ArticleFixtures.seededLibrary()
        defer { try? FileManager.default.removeItem(at: directory) }
        let background = container.newBackgroundContext()

        let titles = try await background.perform {
            try background.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
                .compactMap { try $0.value(forKey: "title", as: String.self) }
        }

        try await background.save()

        #expect(Set(titles) == ["Kindred", "Dawn"])
    }

    @Test @MainActor func aBackgroundImportIsMergedAndAChildContextSavesIntoItsParent() async throws {
        let directory = try ArticleFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = try ArticleFixtures.libraryContainer(in: directory)
        let author = try ArticleFixtures.insertAuthor("Octavia E. Butler", in: container.viewContext)
        let kindred = try ArticleFixtures.insertBook("Kindred", isbn: "9780807083697", by: author, in: container.viewContext)
        try await container.viewContext.save()
        let authorID = author.objectID
        let kindredID = try #require(try kindred.value(forKey: "id", as: UUID.self))
        let rows = [
            Row(id: kindredID, isbn: "9780807083697", title: "Kindred (new edition)"),
            Row(id: UUID(), isbn: "9780446603775", title: "Dawn")
        ]

        container.viewContext.automaticallyMergesChangesFromParent = true
        try await container.performBackgroundTask { context in
            context.mergePolicy = .mergeByPropertyObjectTrump  // an insert with a stored id updates that row
            for row in rows {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue(row.id, forKey: "id")
                try book.setValue(row.isbn, forKey: "isbn")
                try book.setValue(row.title, forKey: "title")
                try book.setValue(try context.existingObject(with: authorID), forKey: "author")
            }
            try context.save()
        }

        #expect(try ArticleFixtures.storedTitles(container) == ["Dawn", "Kindred (new edition)"])
        #expect(try container.viewContext.count(for: FetchRequest<ManagedObject>(entityName: "Book")) == 2)
        try Self.editInAChildContext(container, kindred)
    }

    @MainActor static func editInAChildContext(_ container: PersistentContainer, _ kindred: ManagedObject) throws {
        let bookID = kindred.objectID
        let editor = container.viewContext.newChildContext()
        try editor.performAndWait {
            try editor.existingObject(with: bookID).setValue("New title", forKey: "title")
            try editor.save()  // into viewContext
        }
        try container.viewContext.save()  // into the store

        #expect(try kindred.value(forKey: "title", as: String.self) == "New title")

        #expect(try ArticleFixtures.storedTitles(container) == ["Dawn", "New title"])
    }

    /// The first save meets the conflict (else the stored title would be ours); the second keeps
    /// their title and our page count.
    @Test func aConflictIsResolvedByAnotherMergePolicy() throws {
        let (container, directory) = try ArticleFixtures.seededLibrary()
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = container.newBackgroundContext()
        let other = container.newBackgroundContext()
        try context.performAndWait {
            var kindredRequest = FetchRequest<ManagedObject>(entityName: "Book")
            kindredRequest.predicate = try FetchPredicate(format: "title == 'Kindred'")
            let kindred = try #require(try context.fetch(kindredRequest).first)
            let kindredID = kindred.objectID
            try other.performAndWait {
                try other.existingObject(with: kindredID).setValue("Kindred (theirs)", forKey: "title")
                try other.save()
            }
            try kindred.setValue("Kindred (ours)", forKey: "title")
            try kindred.setValue(300, forKey: "pageCount")

            do {
                try context.save()
            } catch let error as ObjectGraphError where error.kind == .mergeConflict {
                for conflict in error.mergeConflicts {
                    print(conflict.objectID, conflict.keys, conflict.theirValue(forKey: "title") ?? "deleted")
                }
                context.mergePolicy = .mergeByPropertyStoreTrump  // take their values, keep our other edits
                try context.save()
            }
        }

        #expect(try ArticleFixtures.storedTitles(container) == ["Dawn", "Kindred (theirs)"])
        #expect(try ArticleFixtures.storedTitles(container, where: "pageCount == 300") == ["Kindred (theirs)"])
    }

    @Test @MainActor func changesArriveAsAnAsyncSequence() async throws {
        let directory = try ArticleFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = try ArticleFixtures.libraryContainer(in: directory)

        let watcher = Task {
            for await changes in container.viewContext.changes(for: .objectsDidChange) {
                print(changes.insertedObjectIDs, changes.refreshedObjectIDs, changes.deletedObjectIDs)
            }
        }

        try ArticleFixtures.insertAuthor("Octavia E. Butler", in: container.viewContext)
        container.viewContext.processPendingChanges()
        watcher.cancel()
        await watcher.value
    }
}
