import Foundation
import Testing

@testable import ObjectGraph

/// The context's registry of live objects: dense keys go to per-entity tables, the rest to a
/// dictionary, and every ID is found, replaced and removed wherever it went.
@Suite struct ObjectRegistryTests {
    private let model: ManagedObjectModel
    private let spaces: [ObjectIDSpace]
    private let otherStore: [ObjectIDSpace]

    init() throws {
        model = try ConformanceModel.load()
        spaces = ObjectIDSpace.spaces(for: model, storeIdentifier: "A")
        otherStore = ObjectIDSpace.spaces(for: model, storeIdentifier: "B")
    }

    private func object(_ space: ObjectIDSpace, _ key: Int64) -> ManagedObject {
        let object = ManagedObject(entity: space.entity, insertInto: nil)
        object.objectID = ManagedObjectID(space: space, primaryKey: key)
        return object
    }

    @Test func findsReplacesAndRemovesDenseAndSparseKeys() throws {
        var registry = ObjectRegistry()
        let item = spaces[try #require(model.entity(named: "Item")).index]
        // Keys 1…5,000 in order (a fetch), one far beyond them, one of another store's same entity.
        let objects = (1...5_000).map { object(item, Int64($0)) }
        let far = object(item, 9_000_000)
        let foreign = object(otherStore[item.entity.index], 7)
        for object in objects + [far, foreign] { registry[object.objectID] = .passUnretained(object) }
        #expect(registry.count == 5_002)
        for object in objects + [far, foreign] {
            #expect(registry[object.objectID]?.takeUnretainedValue() === object)
        }
        // The same key in the other store is another object.
        #expect(registry[ManagedObjectID(space: otherStore[item.entity.index], primaryKey: 8)] == nil)
        #expect(registry[ManagedObjectID(space: item, primaryKey: 5_001)] == nil)

        let replacement = object(item, 7)
        registry[replacement.objectID] = .passUnretained(replacement)
        #expect(registry.count == 5_002)
        #expect(registry[objects[6].objectID]?.takeUnretainedValue() === replacement)

        #expect(registry.removeValue(forKey: far.objectID)?.takeUnretainedValue() === far)
        registry[objects[0].objectID] = nil
        #expect(registry.removeValue(forKey: objects[0].objectID) == nil)
        #expect(registry.count == 5_000)
        #expect(registry[far.objectID] == nil && registry[objects[0].objectID] == nil)
        #expect(Set(registry.values.map { ObjectIdentifier($0.takeUnretainedValue()) }).count == 5_000)

        registry.removeAll()
        #expect(registry.isEmpty && registry[objects[1].objectID] == nil)
    }

    /// A key first held by the dictionary (beyond the table) moves to the table once it grows to
    /// it, without being counted twice.
    @Test func aKeyRegisteredBeforeItsTableGrewIsFoundOnce() throws {
        var registry = ObjectRegistry()
        let item = spaces[try #require(model.entity(named: "Item")).index]
        let early = object(item, 6_000)
        registry[early.objectID] = .passUnretained(early)
        let objects = (1...3_000).map { object(item, Int64($0)) }
        for object in objects { registry[object.objectID] = .passUnretained(object) }
        let again = object(item, 6_000)
        registry[again.objectID] = .passUnretained(again)
        #expect(registry.count == 3_001)
        #expect(registry[early.objectID]?.takeUnretainedValue() === again)
        registry[again.objectID] = nil
        #expect(registry.count == 3_000 && registry[early.objectID] == nil)
    }
}
