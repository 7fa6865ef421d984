import Foundation
import ObjectGraphPostgres
import Testing

@testable import ObjectGraph

/// Persistent history on every store: what each save and batch request records, fetching after a
/// token or date with filters, deleting old history, merging a transaction into a context.
@Suite struct HistoryConformanceTests {
    static let modelJSON = """
        {
          "name": "Notes", "version": 1,
          "entities": [
            { "name": "Note",
              "attributes": [
                { "name": "title", "type": "string", "preservesValueInHistoryOnDeletion": true },
                { "name": "body", "type": "string", "optional": true },
                { "name": "scratch", "type": "string", "optional": true, "transient": true } ],
              "relationships": [ { "name": "tags", "destination": "Tag", "toMany": true, "inverse": "notes" } ] },
            { "name": "Tag",
              "attributes": [ { "name": "label", "type": "string" } ],
              "relationships": [ { "name": "notes", "destination": "Note", "toMany": true, "inverse": "tags" } ] }
          ]
        }
        """

    /// A container of the notes model on `kind`, recording history unless told not to.
    final class HistoryStore {
        let container: PersistentContainer
        let directory: URL?
        /// The PostgreSQL database of the store, `nil` for other stores.
        let database: String?

        init(_ kind: StoreKind, recordsHistory: Bool = true) throws {
            let model = try ManagedObjectModel(data: Data(HistoryConformanceTests.modelJSON.utf8), sourceName: "Notes")
            container = PersistentContainer(name: "Notes", managedObjectModel: model)
            var description: PersistentStoreDescription
            var (directory, database): (URL?, String?) = (nil, nil)
            switch kind {
            case .sqlite:
                directory = try SQLiteFixtures.makeDirectory()
                description = PersistentStoreDescription(url: directory!.appendingPathComponent("Notes.sqlite"))
            case .inMemory:
                description = .inMemory
            case .postgreSQL:
                let server = try PostgreSQLTestServer.shared.get()
                database = try server.createDatabase()
                description = PersistentStoreDescription(postgresURL: server.url(database: database!))
            }
            (self.directory, self.database) = (directory, database)
            description.recordsPersistentHistory = recordsHistory
            container.persistentStoreDescriptions = [description]
            try container.loadPersistentStores()
        }

        deinit {
            container.persistentStoreCoordinator.removePersistentStore()
            if let directory { try? FileManager.default.removeItem(at: directory) }
            if let database, let server = try? PostgreSQLTestServer.shared.get() { server.dropDatabase(database) }
        }

        var coordinator: PersistentStoreCoordinator { container.persistentStoreCoordinator }

        func context(name: String? = "editor", author: String? = "app") -> ManagedObjectContext {
            let context = container.newBackgroundContext()
            context.name = name
            context.transactionAuthor = author
            return context
        }

        func history(after token: PersistentHistoryToken? = nil) throws -> [PersistentHistoryTransaction] {
            try coordinator.fetchHistory(.fetchHistory(after: token))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func eachSaveRecordsItsInsertsUpdatesAndDeletes(kind: StoreKind) throws {
        let store = try HistoryStore(kind)
        let context = store.context()
        let (first, second) = try context.performAndWait {
            let first = try context.insertNewObject(forEntityName: "Note")
            try first.setValue("First", forKey: "title")
            let second = try context.insertNewObject(forEntityName: "Note")
            try second.setValue("Second", forKey: "title")
            try context.save()
            try first.setValue("First, again", forKey: "title")
            try first.setValue("a body", forKey: "body")
            try second.setValue("only in memory", forKey: "scratch")
            try context.save()
            context.delete(second)
            try context.save()
            return (first.objectID, second.objectID)
        }
        let history = try store.history()
        #expect(history.count == 3, "a change to a transient attribute alone records nothing")
        #expect(history.map(\.token) == history.map(\.token).sorted())
        #expect(history.allSatisfy { $0.contextName == "editor" && $0.author == "app" })
        #expect(history[0].changes.map(\.changeType) == [.insert, .insert])
        #expect(Set(history[0].changes.map(\.changedObjectID)) == [first, second])
        #expect(history[0].changes.allSatisfy { $0.updatedProperties == nil && $0.tombstone == nil })
        #expect(history[1].changes.count == 1)
        #expect(history[1].changes[0].changedObjectID == first)
        #expect(history[1].changes[0].updatedProperties == ["title", "body"])
        #expect(history[2].changes.map(\.changeType) == [.delete])
        #expect(history[2].changes[0].changedObjectID == second)
        #expect(history[2].changes[0].tombstone?["title"] as? String == "Second", "the preserved attribute's last value")
        #expect(history[2].changes[0].tombstone?["body"] == nil, "attributes not marked are not kept")
        #expect(history[2].contextChanges.deletedObjectIDs == [second])
        #expect(history.flatMap(\.changes).map(\.changeID) == history.flatMap(\.changes).map(\.changeID).sorted())
        #expect(try store.coordinator.currentPersistentHistoryToken() == history.last?.token)
    }

    @Test(arguments: StoreKind.allCases)
    func toManyChangesAreUpdatesOfTheRelationship(kind: StoreKind) throws {
        let store = try HistoryStore(kind)
        let context = store.context()
        let (note, tag) = try context.performAndWait {
            let note = try context.insertNewObject(forEntityName: "Note")
            try note.setValue("Tagged", forKey: "title")
            let tag = try context.insertNewObject(forEntityName: "Tag")
            try tag.setValue("red", forKey: "label")
            try context.save()
            try note.setValue(Set([tag]), forKey: "tags")
            try context.save()
            return (note.objectID, tag.objectID)
        }
        let last = try #require(try store.history().last)
        let changed = Dictionary(uniqueKeysWithValues: last.changes.map { ($0.changedObjectID, $0.updatedProperties) })
        #expect(changed[note] == ["tags"])
        #expect(changed[tag] == nil || changed[tag] == ["notes"], "\(changed)")
    }

    @Test(arguments: StoreKind.allCases)
    func historyIsFetchedAfterATokenOrDateFilteredAndDeleted(kind: StoreKind) throws {
        let store = try HistoryStore(kind)
        for (author, title) in [("app", "A"), ("importer", "B"), ("app", "C")] {
            let context = store.context(author: author)
            try context.performAndWait {
                let note = try context.insertNewObject(forEntityName: "Note")
                try note.setValue(title, forKey: "title")
                try context.save()
            }
        }
        let context = store.context(author: "tagger")
        try context.performAndWait {
            let tag = try context.insertNewObject(forEntityName: "Tag")
            try tag.setValue("blue", forKey: "label")
            try context.save()
        }
        let all = try store.history()
        #expect(all.map(\.author) == ["app", "importer", "app", "tagger"])
        #expect(try store.history(after: all[1].token).map(\.token) == [all[2].token, all[3].token])
        #expect(try store.history(after: all[3].token).isEmpty)
        #expect(try store.coordinator.fetchHistory(.fetchHistory(after: all[0].timestamp.addingTimeInterval(-1))).count == 4)
        var byAuthor = PersistentHistoryChangeRequest.fetchHistory(after: nil)
        byAuthor.authors = ["importer", "tagger"]
        #expect(try store.coordinator.fetchHistory(byAuthor).map(\.token) == [all[1].token, all[3].token])
        var byEntity = PersistentHistoryChangeRequest.fetchHistory(after: nil)
        byEntity.entityNames = ["Tag"]
        #expect(try store.coordinator.fetchHistory(byEntity).map(\.token) == [all[3].token])

        #expect(try store.coordinator.deleteHistory(.deleteHistory(before: all[2].token)) == 2)
        #expect(try store.history().map(\.token) == [all[2].token, all[3].token])
        #expect(try store.coordinator.deleteHistory(.deleteHistory(before: nil)) == 2)
        #expect(try store.history().isEmpty)
        #expect(try store.coordinator.currentPersistentHistoryToken() == all[3].token, "the last token stays known")
        try context.performAndWait {
            let tag = try context.insertNewObject(forEntityName: "Tag")
            try tag.setValue("green", forKey: "label")
            try context.save()
        }
        let next = try #require(try store.history().first)
        #expect(next.token > all[3].token, "numbers are never reused, even after every transaction was deleted")
    }

    @Test(arguments: StoreKind.allCases)
    func batchRequestsAreRecorded(kind: StoreKind) throws {
        let store = try HistoryStore(kind)
        let context = store.context(author: "batch")
        try context.performAndWait {
            _ = try context.execute(BatchInsertRequest(entityName: "Note", objects: (0..<3).map { ["title": "N\($0)"] }))
            _ = try context.execute(BatchUpdateRequest(entityName: "Note", propertiesToUpdate: ["body": "set"]))
            _ = try context.execute(BatchDeleteRequest(entityName: "Note", predicate: FetchPredicate(format: "title == 'N0'")))
        }
        let history = try store.history()
        #expect(history.map { $0.changes.map(\.changeType) } == [[.insert, .insert, .insert], [.update, .update, .update], [.delete]])
        #expect(history.allSatisfy { $0.author == "batch" })
        #expect(history[1].changes.allSatisfy { $0.updatedProperties == ["body"] })
        #expect(history[2].changes[0].tombstone?["title"] as? String == "N0")
    }

    @Test(arguments: StoreKind.allCases)
    func aTransactionMergedIntoAContextBringsItUpToDate(kind: StoreKind) throws {
        let store = try HistoryStore(kind)
        let writer = store.context()
        let noteID = try writer.performAndWait {
            let note = try writer.insertNewObject(forEntityName: "Note")
            try note.setValue("Draft", forKey: "title")
            try writer.save()
            return note.objectID
        }
        let reader = store.context(name: "reader")
        let token = try store.coordinator.currentPersistentHistoryToken()
        let draft = try reader.performAndWait { try reader.existingObject(with: noteID).value(forKey: "title") as? String }
        #expect(draft == "Draft")
        try writer.performAndWait {
            try writer.existingObject(with: noteID).setValue("Final", forKey: "title")
            try writer.save()
        }
        let news = try store.history(after: token)
        #expect(news.count == 1)
        let merged = try reader.performAndWait {
            for transaction in news { reader.mergeChanges(transaction.contextChanges) }
            return try reader.existingObject(with: noteID).value(forKey: "title") as? String
        }
        #expect(merged == "Final")
    }

    @Test(arguments: StoreKind.allCases)
    func aStoreWithoutHistorySaysHowToTurnItOn(kind: StoreKind) throws {
        let store = try HistoryStore(kind, recordsHistory: false)
        let error = try #require(throws: ObjectGraphError.self) { try store.history() }
        #expect(error.kind == .invalidOperation)
        #expect(error.message.contains("recordsPersistentHistory"), "\(error.message)")
        let wrongKind = try #require(throws: ObjectGraphError.self) { try store.coordinator.fetchHistory(.deleteHistory(before: nil)) }
        #expect(wrongKind.message.contains("needs a fetch request"))
    }
}
