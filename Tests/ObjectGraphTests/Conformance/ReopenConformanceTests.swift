import Foundation
import Testing

@testable import ObjectGraph

/// Data written, the store closed and opened again: every value and every object ID survives.
/// For the in-memory store, "reopening" is a new context on the same container.
@Suite struct ReopenConformanceTests {
    static let stamp = Date(timeIntervalSinceReferenceDate: 123456789.123456)
    static let uid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    static let link = URL(string: "https://example.com/päth?q=ü&x=1#frag")!
    static let payload = Payload(name: "p", tags: ["t"], count: 1, weights: ["w": 0.25], nested: .init(flag: false, note: nil))

    /// Sets every stored attribute of `item` to a non-default value.
    static func fill(_ item: ManagedObject) throws {
        try item.setValue("every value", forKey: "title")
        try item.setValue("a note", forKey: "note")
        try item.setValue(Int16.min, forKey: "i16")
        try item.setValue(Int32.max, forKey: "i32")
        try item.setValue(Int64.min, forKey: "i64")
        try item.setValue(Int16(5), forKey: "rating")
        try item.setValue(-Double.infinity, forKey: "dbl")
        try item.setValue(0.0, forKey: "price")
        try item.setValue(Float(-0.0), forKey: "flt")
        try item.setValue(Decimal(string: "-12345678901234.5678")!, forKey: "dec")
        try item.setValue(false, forKey: "flag")
        try item.setValue(stamp, forKey: "stamp")
        try item.setValue(Data(), forKey: "blob")
        try item.setValue(uid, forKey: "uid")
        try item.setValue(link, forKey: "link")
        try item.setValue(payload, forKey: "info")
    }

    @Test(arguments: StoreKind.allCases)
    func everyValueReadBackAfterReopen(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let uri = try store.withNewContext { context in
            let item = try context.insertItem("ALL-1")
            try Self.fill(item)
            try context.insertItem("DEFAULTS")
            try context.save()
            return item.objectID.uriRepresentation()
        }
        try store.reopen()
        try store.withNewContext { context in
            #expect(try context.count(for: request("Item")) == 2)
            let item = try #require(try context.item("ALL-1"))
            #expect(try item.get("title", as: String.self) == "every value")
            #expect(try item.get("note", as: String.self) == "a note")
            #expect(try item.get("i16", as: Int16.self) == Int16.min)
            #expect(try item.get("i32", as: Int32.self) == Int32.max)
            #expect(try item.get("i64", as: Int64.self) == Int64.min)
            #expect(try item.get("rating", as: Int16.self) == 5)
            #expect(try item.get("dbl", as: Double.self) == -Double.infinity)
            #expect(try item.get("price", as: Double.self) == 0)
            #expect(try item.get("flt", as: Float.self)?.bitPattern == Float(0).bitPattern)  // -0.0 is kept as +0.0
            #expect(try item.get("dec", as: Decimal.self) == Decimal(string: "-12345678901234.5678"))
            #expect(try item.get("flag", as: Bool.self) == false)
            #expect(try item.get("stamp", as: Date.self) == Self.stamp)
            #expect(try item.get("blob", as: Data.self) == Data())
            #expect(try item.get("uid", as: UUID.self) == Self.uid)
            #expect(try item.get("link", as: URL.self) == Self.link)
            #expect(try item.get("info", as: Payload.self) == Self.payload)
            #expect(try item.value(forKey: "scratch") == nil)

            let defaults = try #require(try context.item("DEFAULTS"))
            #expect(try defaults.get("note", as: String.self) == "none")
            #expect(try defaults.get("i32", as: Int32.self) == 7)
            #expect(try defaults.get("rating", as: Int16.self) == 3)
            #expect(try defaults.get("price", as: Double.self) == 9.5)
            #expect(try defaults.get("flag", as: Bool.self) == true)
            for key in ["title", "i16", "i64", "dbl", "flt", "dec", "stamp", "blob", "uid", "link", "info"] {
                #expect(try defaults.value(forKey: key) == nil, "\(key)")
            }

            // The object's URI still names it after the reopen.
            let objectID = try #require(store.container.persistentStoreCoordinator.managedObjectID(forURIRepresentation: uri))
            #expect(objectID == item.objectID)
            #expect(try context.existingObject(with: objectID) === item)
        }
    }

    /// Updates and deletes are durable too, and new rows get keys no earlier row had — not even
    /// the deleted last row's, so an old URI never names a new object.
    @Test(arguments: StoreKind.allCases)
    func updatesAndDeletesSurviveReopen(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let firstURIs = try store.withNewContext { context in
            let items = try ["A1", "B2", "C3"].map { try context.insertItem($0) }
            try context.save()
            try items[0].setValue("changed", forKey: "title")
            context.delete(items[2])
            try context.save()
            return items.map { $0.objectID.uriRepresentation() }
        }
        try store.reopen()
        try store.withNewContext { context in
            #expect(try context.objects("Item", sortedBy: ["code"]).map(\.label) == ["A1", "B2"])
            #expect(try context.item("A1")?.get("title", as: String.self) == "changed")
            let item = try context.insertItem("D4")
            try context.save()
            #expect(!firstURIs.contains(item.objectID.uriRepresentation()))
            let staleID = try #require(store.container.persistentStoreCoordinator.managedObjectID(forURIRepresentation: firstURIs[2]))
            let error = #expect(throws: ObjectGraphError.self) { try context.existingObject(with: staleID) }
            #expect(error?.kind == .objectNotFound)
        }
    }

    /// `close()` releases the store: contexts can no longer use it until it is loaded again, and a
    /// SQLite file is left checkpointed, with no write-ahead log beside it.
    @Test(arguments: StoreKind.allCases)
    func closingTheContainerReleasesTheStore(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let id = try store.savedItem("KEPT")
        store.container.close()
        store.container.close()  // closing twice does nothing more
        let context = store.newContext()
        let error = context.performAndWait {
            #expect(throws: ObjectGraphError.self) { try context.count(for: FetchRequest<ManagedObject>(entityName: "Item")) }
        }
        #expect(error?.kind == .invalidOperation)
        #expect(error?.message.hasPrefix("no persistent store is loaded") == true)
        if let directory = store.directory {
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(files.contains("Conformance.sqlite") && !files.contains("Conformance.sqlite-wal"), "\(files)")
        }
        try store.container.loadPersistentStores()
        // The SQLite file and the PostgreSQL database keep their objects; an in-memory store starts empty again.
        #expect(try store.storedCount("Item") == (kind.keepsDataWhenReopened ? 1 : 0))
        if kind.keepsDataWhenReopened { #expect(try store.withNewContext { try $0.existingObject(with: id).label } == "KEPT") }
    }
}
