import Foundation
import Testing

@testable import ObjectGraph

/// A context's save hands its new objects to the store as they are: the store reads each
/// object's ID and row when it writes it. Requests joined from parts (a child context's save, a
/// store copy) keep every insert in order, whatever holds them.
struct SaveRequestInsertsTests {
    @Test func newObjectsAreReadAsTheyAreWhenAsked() throws {
        let store = try TestStore(.inMemory)
        let context = store.newContext()
        let items = try (1...3).map { number in
            let item = try context.insertNewObject(forEntityName: "Item")
            try item.setValue("A-\(number)", forKey: "code")
            return item
        }
        let inserts = SaveRequest.Inserts(objects: items)
        #expect(inserts.map(\.objectID) == items.map(\.objectID))
        try items[1].setValue("B-2", forKey: "code")
        // Read when asked: the change made after the request was made is what the store sees.
        let code = try #require(items[1].entity.attributeSlot(named: "code"))
        #expect(inserts[1].values[code] == .string("B-2"))
        #expect(inserts.map(\.values) == items.map(\.values))
    }

    @Test func joinedPartsKeepEveryInsertInOrder() throws {
        let store = try TestStore(.inMemory)
        let context = store.newContext()
        let objects = try (0..<2).map { _ in try context.insertNewObject(forEntityName: "Item") }
        let space = objects[0].objectID.space
        let rows: SaveRequest.Inserts = [
            SaveRequest.Insert(objectID: ManagedObjectID(space: space, temporaryNumber: 900_001), values: [.integer(1)])
        ]
        let joined = rows + SaveRequest.Inserts(objects: objects) + []
        #expect(joined.map(\.objectID) == [rows[0].objectID] + objects.map(\.objectID))
        #expect(([] + rows).map(\.objectID) == rows.map(\.objectID))
        var appended = SaveRequest.Inserts(objects: objects)
        appended += rows
        #expect(appended.map(\.objectID) == objects.map(\.objectID) + [rows[0].objectID])
    }
}
