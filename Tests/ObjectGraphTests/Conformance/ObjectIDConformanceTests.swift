import Foundation
import Testing

@testable import ObjectGraph

/// Temporary and permanent IDs, URIs, and resolving IDs in other contexts.
@Suite struct ObjectIDConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func temporaryBeforeSavePermanentAfter(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let a = try context.insertItem("A1")
            let b = try context.insertItem("B2")
            let temporaryID = a.objectID
            #expect(a.objectID.isTemporaryID && b.objectID.isTemporaryID)
            #expect(a.objectID != b.objectID)
            #expect(context.registeredObject(for: temporaryID) === a)
            try context.save()
            #expect(!a.objectID.isTemporaryID && !b.objectID.isTemporaryID)
            #expect(a.objectID != b.objectID)
            #expect(a.objectID != temporaryID)
            #expect(context.registeredObject(for: a.objectID) === a)
            #expect(context.registeredObject(for: temporaryID) == nil)
            #expect(a.objectID.entity.name == "Item")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func uriRepresentationRoundTrips(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let coordinator = store.container.persistentStoreCoordinator
        try store.withNewContext { context in
            let item = try context.insertItem("A1")
            let temporaryURI = item.objectID.uriRepresentation()
            #expect(coordinator.managedObjectID(forURIRepresentation: temporaryURI) == item.objectID)
            try context.save()
            let person = try context.insertPerson("P")
            try context.save()

            for objectID in [item.objectID, person.objectID] {
                let uri = objectID.uriRepresentation()
                #expect(uri.scheme == "x-objectgraph")
                #expect(uri.absoluteString.contains(objectID.entity.name))
                let resolved = try #require(coordinator.managedObjectID(forURIRepresentation: uri), "\(uri)")
                #expect(resolved == objectID)
                #expect(resolved.hashValue == objectID.hashValue)
                #expect(resolved.entity === objectID.entity)
                #expect(try context.existingObject(with: resolved) === context.registeredObject(for: objectID))
            }
            // Malformed URIs and unknown entities resolve to nothing.
            #expect(coordinator.managedObjectID(forURIRepresentation: URL(string: "https://example.com/Item/p1")!) == nil)
            let unknownEntity = item.objectID.uriRepresentation().absoluteString.replacingOccurrences(of: "/Item/", with: "/Nope/")
            #expect(coordinator.managedObjectID(forURIRepresentation: URL(string: unknownEntity)!) == nil)
            let otherStore = "x-objectgraph://0B8E2C4A-0000-4000-8000-000000000000/Item/p1"
            #expect(coordinator.managedObjectID(forURIRepresentation: URL(string: otherStore)!) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func obtainPermanentIDsBeforeSave(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let ids = try store.withNewContext { context in
            let items = try ["A1", "B2", "C3"].map { try context.insertItem($0) }
            let person = try context.insertPerson("P")
            try context.obtainPermanentIDs(for: items + [person])
            let ids = (items + [person]).map(\.objectID)
            #expect(ids.allSatisfy { !$0.isTemporaryID })
            #expect(Set(ids).count == 4)
            #expect(items.allSatisfy { $0.isInserted })
            #expect(items.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
            // Asking again changes nothing.
            try context.obtainPermanentIDs(for: items)
            #expect(items.map(\.objectID) == Array(ids.prefix(3)))

            try context.save()
            #expect((items + [person]).map(\.objectID) == ids)
            #expect(!context.hasChanges)
            return ids
        }
        try store.withNewContext { context in
            let codes = try ids.prefix(3).map { try context.existingObject(with: $0).label }
            #expect(codes == ["A1", "B2", "C3"])
            #expect(try context.existingObject(with: ids[3]).label == "P")
            // Later inserts never reuse a reserved key.
            let later = try context.insertItem("D4")
            try context.save()
            #expect(!ids.contains(later.objectID))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func existingObjectOnMissingIDsThrowsObjectNotFound(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let coordinator = store.container.persistentStoreCoordinator
        let (deletedID, temporaryID) = try store.withNewContext { context in
            let item = try context.insertItem("A1")
            try context.save()
            let deletedID = item.objectID
            context.delete(item)
            try context.save()
            return (deletedID, try context.insertItem("B2").objectID)
        }
        let unknownURI = URL(string: deletedID.uriRepresentation().absoluteString.replacingOccurrences(of: "/p", with: "/p99999"))!
        let unknownID = try #require(coordinator.managedObjectID(forURIRepresentation: unknownURI))
        try store.withNewContext { context throws in
            for objectID in [deletedID, unknownID, temporaryID] {
                let error = #expect(throws: ObjectGraphError.self, "\(objectID)") { try context.existingObject(with: objectID) }
                #expect(error?.kind == .objectNotFound)
                #expect(error?.entityName == "Item")
                #expect(error?.objectID == objectID)
                #expect(error?.message.contains("no Item with ID") == true, "\(error?.message ?? "")")
            }
            // object(with:) makes a fault without asking the store; using it fails the same way.
            let fault = context.object(with: deletedID)
            #expect(fault.isFault)
            let error = #expect(throws: ObjectGraphError.self) { try fault.value(forKey: "code") }
            #expect(error?.kind == .objectNotFound)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func idsResolveInABackgroundContext(kind: StoreKind) async throws {
        let store = try TestStore(kind)
        let ids = try store.withNewContext { context in
            let items = try ["A1", "B2"].map { (code: String) in try context.insertItem(code, ["title": "t-" + code]) }
            try context.save()
            return items.map(\.objectID)
        }
        let background = store.container.newBackgroundContext()
        let titles = try await background.perform {
            try ids.map { try background.existingObject(with: $0).get("title", as: String.self) }
        }
        #expect(titles == ["t-A1", "t-B2"])
        // Changes made there through the ID are saved and visible everywhere.
        try await background.perform {
            try background.existingObject(with: ids[0]).setValue("from background", forKey: "title")
            try background.save()
        }
        #expect(try store.withNewContext { try $0.existingObject(with: ids[0]).get("title", as: String.self) } == "from background")
    }
}
