import Foundation
import Testing

@testable import ObjectGraph

/// Custom validation: rules registered per entity, overridable hooks on subclasses, and
/// `validate(value:forKey:)` before setting, on every store alike.
@Suite struct CustomValidationConformanceTests {
    final class CheckedAuthor: ManagedObject {
        override func validateForDelete() throws {
            if try value(forKey: "name", as: String.self) == "Keep" {
                throw ObjectGraphError.validation([ValidationFailure(object: self, key: nil, reason: "Keep is never deleted")])
            }
        }
    }

    struct NoShouting: Error, CustomStringConvertible {
        var description: String { "titles must not be all capitals" }
    }

    @Test(arguments: StoreKind.allCases)
    func rulesRunForEveryPhaseAndAreReportedTogetherWithModelRules(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        let phases = PhaseLog()
        try store.container.persistentStoreCoordinator.addValidationRule(forEntityName: "Book") { book, phase in
            phases.record(phase)
            let title = try book.value(forKey: "title", as: String.self) ?? ""
            if title == title.uppercased() { throw NoShouting() }
        }
        try store.withNewContext { (context: ManagedObjectContext) throws in
            try context.insert("Book", ["title": "DUNE"])
            try context.insert("Chapter", ["title": "orphan"])
            let error = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(error?.kind == .validation)
            #expect(error?.validationFailures.count == 2)
            #expect(error?.message.contains("Book/t") == true)
            #expect(error?.message.contains("titles must not be all capitals") == true)
            #expect(error?.message.contains("book: a Book is required") == true)
            context.rollback()

            let book = try context.insert("Book", ["title": "Dune"])
            try context.save()
            try book.setValue("Dune Messiah", forKey: "title")
            try context.save()
            context.delete(book)
            try context.save()
        }
        #expect(phases.all == [.insert, .insert, .update, .delete])
        #expect(try store.storedCount("Book") == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func aSubclassHookCanRefuseADeletion(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let entity = try #require(context.persistentStoreCoordinator?.managedObjectModel.entity(named: "Author"))
            let keep = CheckedAuthor(entity: entity, insertInto: context)
            try keep.setValue("Keep", forKey: "name")
            try context.save()
            context.delete(keep)
            let error = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(error?.validationFailures.map(\.reason) == ["Keep is never deleted"])
            #expect(keep.isDeleted)
        }
        #expect(try store.storedCount("Author") == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func validateValueChecksWithoutSetting(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let chapter = try context.insert("Chapter", ["title": "One"])
            let team = try context.insert("Team", ["name": "Core"])
            let tag = try context.insert("Tag", ["name": "x"])

            try chapter.validate(value: "Two", forKey: "title")
            let missing = #expect(throws: ObjectGraphError.self) { try chapter.validate(value: nil, forKey: "title") }
            #expect(missing?.kind == .validation)
            #expect(missing?.validationFailures.first?.reason == "a value is required")
            let wrongType = #expect(throws: ObjectGraphError.self) { try chapter.validate(value: 3, forKey: "title") }
            #expect(wrongType?.kind == .typeMismatch)
            let noBook = #expect(throws: ObjectGraphError.self) { try chapter.validate(value: nil, forKey: "book") }
            #expect(noBook?.validationFailures.first?.reason == "a Book is required")
            let wrongEntity = #expect(throws: ObjectGraphError.self) { try chapter.validate(value: tag, forKey: "book") }
            #expect(wrongEntity?.kind == .typeMismatch)
            let crowd = try (1...4).map { try context.insert("Employee", ["name": "E\($0)"]) }
            let tooMany = #expect(throws: ObjectGraphError.self) { try team.validate(value: Set(crowd), forKey: "members") }
            #expect(tooMany?.validationFailures.first?.reason == "holds 4 objects, more than the maximum 3")
            try team.validate(value: Array(crowd.prefix(2)), forKey: "members")
            #expect(try chapter.value(forKey: "title", as: String.self) == "One")
            #expect(try team.relatedObjects(forKey: "members").isEmpty)
        }
    }
}

/// The phases a rule saw, in order (rules run on the context's queue, one save at a time).
final class PhaseLog: Sendable {
    private let phases = Locked<[ValidationPhase]>([])
    var all: [ValidationPhase] { phases.withLock { $0 } }
    func record(_ phase: ValidationPhase) { phases.withLock { $0.append(phase) } }
}

/// Core Data's lifecycle hooks, overridden in a subclass.
@Suite struct LifecycleHookConformanceTests {
    final class TrackedAuthor: ManagedObject {
        nonisolated(unsafe) static var events: [String] = []

        override func awakeFromInsert() {
            Self.events.append("awakeFromInsert")
            try? setValue("Unnamed", forKey: "name")
        }
        override func willSave() {
            Self.events.append("willSave \(isDeleted ? "deleted" : isInserted ? "inserted" : "updated")")
            if !isDeleted, (try? value(forKey: "name", as: String.self)) == "Unnamed" { try? setValue("Named at save", forKey: "name") }
        }
        override func didSave() { Self.events.append("didSave") }
        override func prepareForDeletion() { Self.events.append("prepareForDeletion") }
    }

    @Test func hooksRunAtTheirMoments() throws {
        let store = try TestStore.graph(.inMemory)
        TrackedAuthor.events = []
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let entity = try #require(context.persistentStoreCoordinator?.managedObjectModel.entity(named: "Author"))
            let author = TrackedAuthor(entity: entity, insertInto: context)
            #expect(try author.value(forKey: "name", as: String.self) == "Unnamed")
            try context.save()
            #expect(try author.value(forKey: "name", as: String.self) == "Named at save")
            try author.setValue("Ann", forKey: "name")
            try context.save()
            context.delete(author)
            try context.save()
        }
        // willSave() named the new author, so it runs again (Core Data's loop), and changes
        // nothing the second time.
        #expect(
            TrackedAuthor.events == [
                "awakeFromInsert", "willSave inserted", "willSave inserted", "didSave", "willSave updated", "didSave",
                "prepareForDeletion", "willSave deleted", "didSave"
            ])
        #expect(try store.storedCount("Author") == 0)
    }

    /// Sets a new value at every `willSave()`, so the save never settles.
    final class RestlessAuthor: ManagedObject {
        override func willSave() {
            let count = (try? value(forKey: "name", as: String.self)).flatMap { Int($0) } ?? 0
            try? setValue(String(count + 1), forKey: "name")
        }
    }

    /// Core Data calls `willSave()` again for an object its `willSave()` changed, and gives up
    /// after 100 rounds: the save then throws and writes nothing.
    @Test(arguments: StoreKind.allCases)
    func willSaveThatNeverSettlesStopsTheSave(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let author = try context.insert(RestlessAuthor.self, entity: "Author")
            let error = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(error?.kind == .invalidOperation)
            #expect(error?.message.contains("after 100 rounds") == true, "\(error?.message ?? "")")
            #expect(try author.value(forKey: "name", as: String.self) == "100")
            #expect(author.isInserted)
        }
        #expect(try store.storedCount("Author") == 0)
    }
}
