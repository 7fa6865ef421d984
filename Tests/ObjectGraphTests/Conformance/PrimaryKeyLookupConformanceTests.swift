import Foundation
import Testing

@testable import ObjectGraph

/// From an entity and a key to an object ID and an object, without URI strings: known keys,
/// unknown keys, wrong entity names, deleted rows, sub-entities, many keys at once.
@Suite struct PrimaryKeyLookupConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func aKeyLeadsToItsObject(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let context = store.newContext()
        try context.performAndWait {
            let items = try ["A", "B", "C"].map { try context.insertItem($0) }
            try context.save()
            let keys = items.map { $0.objectID.primaryKey! }
            #expect(try context.objectID(forEntity: "Item", primaryKey: keys[1]) == items[1].objectID)
            #expect(
                try context.objectID(forEntity: "Item", primaryKey: keys[1]).uriRepresentation().absoluteString.hasSuffix(
                    "/Item/p\(keys[1])"))
            #expect(try context.existingObject(ofEntity: "Item", primaryKey: keys[2]) === items[2], "uniqued with the registered object")

            let fresh = store.newContext()
            try fresh.performAndWait {
                let fault = try fresh.object(ofEntity: "Item", primaryKey: keys[0])
                #expect(fault.isFault)
                #expect(try fault.value(forKey: "code") as? String == "A")
                let found = try fresh.existingObjects(ofEntity: "Item", primaryKeys: [keys[2], 9_999, keys[0]])
                #expect(
                    try found.map { try $0.value(forKey: "code") as? String } == ["C", "A"], "in the keys' order, missing keys left out")
                #expect(found[1] === fault, "the registered object, loaded")

                let missing = try #require(throws: ObjectGraphError.self) { try fresh.existingObject(ofEntity: "Item", primaryKey: 9_999) }
                #expect(missing.kind == .objectNotFound)
                let unknown = try #require(throws: ObjectGraphError.self) { try fresh.objectID(forEntity: "Itme", primaryKey: 1) }
                #expect(unknown.kind == .unknownEntity)
                #expect(unknown.message.contains("did you mean 'Item'"), "\(unknown.message)")
                let zero = try #require(throws: ObjectGraphError.self) { try fresh.objectID(forEntity: "Item", primaryKey: 0) }
                #expect(zero.kind == .invalidOperation)
            }
            context.delete(items[1])
            try context.save()
            try store.newContext().performAndWait {
                let other = store.newContext()
                let gone = try #require(throws: ObjectGraphError.self) {
                    try other.performAndWait { try other.existingObject(ofEntity: "Item", primaryKey: keys[1]) }
                }
                #expect(gone.kind == .objectNotFound)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aKeyOfAParentEntityLeadsToTheRowsOwnEntity(kind: StoreKind) throws {
        let store = try TestStore(kind, model: InheritanceModel.load)
        let context = store.newContext()
        try context.performAndWait {
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue("Dune", forKey: "title")
            try book.setValue("B1", forKey: "sku")
            try book.setValue(Int32(412), forKey: "pages")
            try context.save()
            let key = try #require(book.objectID.primaryKey)
            let fresh = store.newContext()
            try fresh.performAndWait {
                #expect(try fresh.objectID(forEntity: "Item", primaryKey: key).entity.name == "Book")
                #expect(try fresh.existingObject(ofEntity: "Item", primaryKey: key).value(forKey: "pages") as? Int32 == 412)
                #expect(try fresh.objectIDs(forEntity: "Item", primaryKeys: [key, key + 100]).count == 1)
                let none = try #require(throws: ObjectGraphError.self) { try fresh.objectID(forEntity: "Item", primaryKey: key + 100) }
                #expect(none.kind == .objectNotFound)
            }
        }
    }
}
