import Foundation
import Testing

@testable import ObjectGraph

/// Entities with a `primaryKey` attribute: the attribute's value is the row's key and the object
/// ID's, it is unique, at least 1 and fixed once saved. On every store.
@Suite struct PrimaryKeyConformanceTests {
    static let json = """
        { "name": "Keys", "version": 1, "entities": [
          { "name": "Person", "primaryKey": "id", "attributes": [
              { "name": "id", "type": "integer64" }, { "name": "name", "type": "string" } ],
            "relationships": [ { "name": "pets", "destination": "Pet", "toMany": true, "inverse": "owner" } ] },
          { "name": "Pet", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [ { "name": "owner", "destination": "Person", "optional": true, "inverse": "pets" } ] } ] }
        """

    private static func store(_ kind: StoreKind) throws -> TestStore {
        try TestStore(kind, model: { try ManagedObjectModel(data: Data(json.utf8)) })
    }

    /// Saves people with these keys and names.
    private static func savePeople(_ people: [(Int, String)], in store: TestStore) throws {
        try store.withNewContext { context throws in
            for (id, name) in people { try context.insertPerson(id, name) }
            try context.save()
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theKeyIsTheObjectIDAndSurvivesAReopen(kind: StoreKind) throws {
        let store = try Self.store(kind)
        let uri = try store.withNewContext { context throws in
            let ann = try context.insertPerson(42, "Ann")
            #expect(ann.objectID.isTemporaryID)
            try context.save()
            #expect(!ann.objectID.isTemporaryID)
            #expect(ann.objectID.uriRepresentation().lastPathComponent == "p42")
            return ann.objectID.uriRepresentation()
        }
        try store.reopen()
        try store.withNewContext { context throws in
            let id = try #require(store.container.persistentStoreCoordinator.managedObjectID(forURIRepresentation: uri))
            let ann = try context.existingObject(with: id)
            #expect(try ann.get("name", as: String.self) == "Ann")
            #expect(try ann.get("id", as: Int.self) == 42)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func predicatesAndSortsReadTheKey(kind: StoreKind) throws {
        let store = try Self.store(kind)
        try Self.savePeople([(7, "Gus"), (3, "Cy"), (12, "Lea"), (5, "Eve")], in: store)
        try store.reopen()
        try store.withNewContext { context throws in
            #expect(try context.objects("Person", where: "id == 12").map(\.label) == ["Lea"])
            #expect(try context.objects("Person", where: "id IN {3, 5, 99}", sortedBy: ["name"]).map(\.label) == ["Cy", "Eve"])
            #expect(try context.objects("Person", where: "id BETWEEN {4, 10}", sortedBy: ["-id"]).map(\.label) == ["Gus", "Eve"])
            #expect(try context.objects("Person", sortedBy: ["id"]).map(\.label) == ["Cy", "Eve", "Gus", "Lea"])
            #expect(try context.count(for: request("Person", where: "id > 4")) == 3)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func relationshipsNameObjectsByTheirKeys(kind: StoreKind) throws {
        let store = try Self.store(kind)
        try store.withNewContext { context throws in
            let ann = try context.insertPerson(42, "Ann")
            let rex = try context.insertNewObject(forEntityName: "Pet")
            try rex.setValue("Rex", forKey: "name")
            try rex.setValue(ann, forKey: "owner")
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { context throws in
            let pets = try context.objects("Pet", where: "owner.id == 42")
            #expect(pets.count == 1)
            let owner = try #require(try pets.first?.relatedObject(forKey: "owner"))
            #expect(owner.objectID.uriRepresentation().lastPathComponent == "p42")
            #expect(try owner.get("name", as: String.self) == "Ann")
            #expect(try context.objects("Person", where: "ANY pets.name == 'Rex'").map(\.label) == ["Ann"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func obtainingPermanentIDsUsesTheKeys(kind: StoreKind) throws {
        let store = try Self.store(kind)
        try store.withNewContext { context throws in
            let ann = try context.insertPerson(42, "Ann")
            let bob = try context.insertPerson(7, "Bob")
            try context.obtainPermanentIDs(for: [ann, bob])
            #expect(ann.objectID.primaryKey == 42 && bob.objectID.primaryKey == 7)
            #expect(try context.existingObject(with: ann.objectID) === ann)
            try context.save()
        }
        #expect(try store.storedCount("Person", "id IN {7, 42}") == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func obtainingAPermanentIDNeedsAKey(kind: StoreKind) throws {
        let store = try Self.store(kind)
        try store.withNewContext { context throws in
            let nameless = try context.insertNewObject(forEntityName: "Person")
            let error = try #require(throws: ObjectGraphError.self) { try context.obtainPermanentIDs(for: [nameless]) }
            #expect(error.kind == .validation)
            #expect(error.key == "id")
            #expect(error.message.contains("id is Person's primary key and has no value yet"))
            #expect(nameless.objectID.isTemporaryID)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aMissingOrNonPositiveKeyIsAValidationError(kind: StoreKind) throws {
        let store = try Self.store(kind)
        try store.withNewContext { context throws in
            let keyless = try context.insertNewObject(forEntityName: "Person")
            try keyless.setValue("Keyless", forKey: "name")
            let missing = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(missing.kind == .validation)
            #expect(missing.validationFailures.map(\.key) == ["id"])

            try keyless.setValue(0, forKey: "id")
            let zero = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(zero.kind == .validation)
            #expect(zero.description.contains("id: is Person's primary key and must be at least 1, not 0"))
            #expect(context.hasChanges)
        }
        #expect(try store.storedCount("Person") == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func aTakenKeyIsAUniquenessViolationAndWritesNothing(kind: StoreKind) throws {
        let store = try Self.store(kind)
        try Self.savePeople([(42, "Ann")], in: store)
        try store.withNewContext { context throws in
            try context.insertPerson(43, "Bob")
            try context.insertPerson(42, "Impostor")
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            // A clash with a stored row is a merge conflict under the default `.error` policy
            // (a bare constraint violation before); a clash among new objects stays one (below).
            #expect(error.kind == .mergeConflict)
            #expect(error.message.contains("(id = 42; uniqueness constraint on id)"), "\(error.message)")
            #expect(error.message.contains("nothing was written"))
            #expect(context.insertedObjects.count == 2)
        }
        try store.reopen()
        try store.withNewContext { context throws in
            #expect(try context.objects("Person", sortedBy: ["id"]).map(\.label) == ["Ann"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func twoNewObjectsWithOneKeyAreAUniquenessViolation(kind: StoreKind) throws {
        let store = try Self.store(kind)
        try store.withNewContext { context throws in
            try context.insertPerson(5, "One")
            try context.insertPerson(5, "Other")
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.kind == .constraintViolation)
            #expect(error.message.contains("id = 5"))
        }
        #expect(try store.storedCount("Person") == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func objectTrumpUpdatesTheRowWithTheKey(kind: StoreKind) throws {
        let store = try Self.store(kind)
        try Self.savePeople([(42, "Ann")], in: store)
        try store.withNewContext { context throws in
            context.mergePolicy = .mergeByPropertyObjectTrump
            try context.insertPerson(42, "Ann Upserted")
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { context throws in
            #expect(try context.objects("Person").map(\.label) == ["Ann Upserted"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aSavedObjectKeepsItsKey(kind: StoreKind) throws {
        let store = try Self.store(kind)
        try Self.savePeople([(42, "Ann")], in: store)
        try store.withNewContext { context throws in
            let ann = try #require(try context.objects("Person").first)
            try ann.setValue(43, forKey: "id")
            try ann.setValue("Renamed", forKey: "name")
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.kind == .validation)
            #expect(error.description.contains("id: is Person's primary key: a saved Person keeps its key (42), it cannot become 43"))
            context.rollback()
            #expect(try ann.get("id", as: Int.self) == 42)
        }
        try store.reopen()
        try store.withNewContext { context throws in
            #expect(try context.objects("Person", where: "id == 42").map(\.label) == ["Ann"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aChildContextSavesKeyedObjectsThroughItsParent(kind: StoreKind) throws {
        let store = try Self.store(kind)
        let parent = store.newContext(name: "parent")
        try parent.performAndWait {
            let child = parent.newChildContext()
            try child.performAndWait {
                let ann = try child.insertPerson(42, "Ann")
                let rex = try child.insertNewObject(forEntityName: "Pet")
                try rex.setValue("Rex", forKey: "name")
                try rex.setValue(ann, forKey: "owner")
                try child.save()
            }
            try parent.save()
        }
        try store.reopen()
        try store.withNewContext { context throws in
            let rex = try #require(try context.objects("Pet").first)
            #expect(try rex.relatedObject(forKey: "owner")?.objectID.primaryKey == 42)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func batchInsertsUseTheKeys(kind: StoreKind) throws {
        let store = try Self.store(kind)
        try store.withNewContext { context throws in
            let result = try context.execute(
                BatchInsertRequest(entityName: "Person", objects: [["id": 100, "name": "B1"], ["id": 7, "name": "B2"]]))
            #expect(result.objectIDs.map(\.primaryKey) == [100, 7])
            let keyless = BatchInsertRequest(entityName: "Person", objects: [["name": "No key"]])
            let error = try #require(throws: ObjectGraphError.self) { try context.execute(keyless) }
            #expect(error.message.contains("id"))
        }
        #expect(try store.storedCount("Person") == 2)
        #expect(try store.storedCount("Person", "id == 7 AND name == 'B2'") == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func batchUpdatesCannotChangeKeys(kind: StoreKind) throws {
        let store = try Self.store(kind)
        try Self.savePeople([(42, "Ann")], in: store)
        try store.withNewContext { context throws in
            let error = try #require(throws: ObjectGraphError.self) {
                try context.execute(BatchUpdateRequest(entityName: "Person", propertiesToUpdate: ["id": 1]))
            }
            #expect(error.kind == .invalidOperation)
            #expect(error.message == "Person.id is Person's primary key: a batch update cannot change objects' keys")
        }
        #expect(try store.storedCount("Person", "id == 42") == 1)
    }
}

extension ManagedObjectContext {
    /// Inserts a `Person` with key `id`.
    @discardableResult
    fileprivate func insertPerson(_ id: Int, _ name: String) throws -> ManagedObject {
        let person = try insertNewObject(forEntityName: "Person")
        try person.setValue(id, forKey: "id")
        try person.setValue(name, forKey: "name")
        return person
    }
}
