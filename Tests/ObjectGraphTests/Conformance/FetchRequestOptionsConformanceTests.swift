import Foundation
import Testing

@testable import ObjectGraph

/// Core Data's fetch request options: the typed `entity`, `includesPropertyValues`,
/// `shouldRefreshRefetchedObjects`, and batch deletes by object ID.
@Suite struct FetchRequestOptionsConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func aRequestMadeFromAnEntityFetchesItsObjects(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            try context.insertPerson("Ann")
            try context.insertItem("A1")
            let person = try #require(context.model?.entity(named: "Person"))
            var request = FetchRequest<ManagedObject>(entity: person)
            #expect(request.entityName == "Person")
            #expect(try context.fetch(request).map { try $0.get("name", as: String.self) } == ["Ann"])
            request.entityName = "Item"
            #expect(request.entity == nil, "a name naming another entity drops the typed entity")
            #expect(try context.fetch(request).count == 1)
            request.entityName = "Persn"
            let error = #expect(throws: ObjectGraphError.self) { try context.fetch(request) }
            #expect(error?.kind == .unknownEntity)
            #expect(error?.message.contains("did you mean 'Person'") == true, "\(error?.message ?? "")")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func withoutPropertyValuesFetchedObjectsAreFaultsThatLoadWhenUsed(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            for name in ["Ann", "Bob"] { try context.insertPerson(name) }
            try context.save()
        }
        try store.withNewContext { context in
            var request = FetchRequest<ManagedObject>(
                entityName: "Person", predicate: nil, sortDescriptors: [FetchSortDescriptor(key: "name")])
            request.includesPropertyValues = false
            let unsaved = try context.insertPerson("Cy")
            let people = try context.fetch(request)
            #expect(people.count == 3)
            #expect(people.filter { $0 !== unsaved }.allSatisfy { $0.isFault && $0.values.isEmpty })
            #expect(people.last === unsaved, "unsaved inserts take part as in any fetch")
            #expect(try people.map { try $0.get("name", as: String.self) } == ["Ann", "Bob", "Cy"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func refetchedObjectsTakeTheStoredValuesWhenAsked(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let id = try store.savedItem("A1", ["title": "first", "note": "mine"])
        try store.withNewContext { context in
            let item = try context.existingObject(with: id)
            try item.setValue("local note", forKey: "note")
            try store.withNewContext { other in
                try other.existingObject(with: id).setValue("second", forKey: "title")
                try other.save()
            }
            var request = FetchRequest<ManagedObject>(entityName: "Item")
            _ = try context.fetch(request)
            #expect(try item.get("title", as: String.self) == "first", "by default a fetch keeps the values the context holds")
            request.shouldRefreshRefetchedObjects = true
            #expect(try context.fetch(request).first === item)
            #expect(try item.get("title", as: String.self) == "second")
            #expect(try item.get("note", as: String.self) == "local note", "unsaved changes stay on top")
            try context.save()
        }
        #expect(try store.storedCount("Item", "title == 'second' AND note == 'local note'") == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func aBatchDeleteByObjectIDsDeletesThoseObjects(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let ids = try store.withNewContext { context in
            let ids = try ["A1", "B2", "C3"].map { try context.insertItem($0) }
            let person = try context.insertPerson("Ann")
            try context.save()
            return ids.map(\.objectID) + [person.objectID]
        }
        try store.withNewContext { context in
            let result = try context.execute(BatchDeleteRequest(objectIDs: [ids[0], ids[2]]))
            #expect(Set(result.objectIDs) == [ids[0], ids[2]])
            #expect(try context.execute(BatchDeleteRequest(objectIDs: [])).count == 0)
            let mixed = #expect(throws: ObjectGraphError.self) { try context.execute(BatchDeleteRequest(objectIDs: [ids[1], ids[3]])) }
            #expect(mixed?.kind == .invalidOperation)
        }
        #expect(try store.storedCount("Item") == 1)
        #expect(try store.storedCount("Item", "code == 'B2'") == 1)
        #expect(try store.storedCount("Person") == 1)
    }
}
