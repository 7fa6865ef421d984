import Foundation
import Testing

@testable import ObjectGraph

/// Faults as Core Data exposes them: `hasFault(forRelationshipNamed:)` and the
/// `willTurnIntoFault()` / `didTurnIntoFault()` hooks.
@Suite struct FaultingConformanceTests {
    /// Records its fault hooks, and what it could read in each.
    final class WatchedAuthor: ManagedObject {
        private(set) var events: [String] = []

        override func willTurnIntoFault() {
            events.append("will: \((try? value(forKey: "name", as: String.self)) ?? "-")")
        }
        override func didTurnIntoFault() {
            events.append("did: fault \(isFault)")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func relationshipFaultsAreReportedWithoutLoadingThem(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        let (bookID, loneID) = try store.withNewContext { (context: ManagedObjectContext) throws in
            let ann = try context.insert("Author", ["name": "Ann"])
            let book = try context.insert("Book", ["title": "Dune", "author": ann])
            let lone = try context.insert("Book", ["title": "Solo"])
            #expect(try !book.hasFault(forRelationshipNamed: "author"), "a new object's relationships are in memory")
            try context.save()
            return (book.objectID, lone.objectID)
        }
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let book = try context.existingObject(with: bookID)
            #expect(try book.hasFault(forRelationshipNamed: "author"))
            #expect(try book.hasFault(forRelationshipNamed: "chapters"))
            _ = try book.value(forKey: "author")
            _ = try book.value(forKey: "chapters")
            #expect(try !book.hasFault(forRelationshipNamed: "author"))
            #expect(try !book.hasFault(forRelationshipNamed: "chapters"))
            // A nil to-one of a loaded object has nothing to load.
            let lone = try context.existingObject(with: loneID)
            _ = try lone.value(forKey: "title")
            #expect(try !lone.hasFault(forRelationshipNamed: "author"))
            let error = #expect(throws: ObjectGraphError.self) { try book.hasFault(forRelationshipNamed: "title") }
            #expect(error?.kind == .typeMismatch, "an attribute is not a relationship")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func faultHooksRunAroundTurningIntoAFault(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let author = try context.insert(WatchedAuthor.self, entity: "Author")
            try author.setValue("Ann", forKey: "name")
            try context.save()
            try context.refresh(author, mergeChanges: false)
            #expect(author.events == ["will: Ann", "did: fault true"])
            #expect(try author.value(forKey: "name", as: String.self) == "Ann")
        }
    }
}
