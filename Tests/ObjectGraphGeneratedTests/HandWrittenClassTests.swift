import Foundation
import ObjectGraph
import Testing

/// A class written by hand against the documented protocols, with key-based accessors.
final class Note: ManagedObject, EntityClass, TypedManagedObject {
    static let entityName = "Note"
    static var propertyKeyPaths: [AnyKeyPath: String] { [\Note.text: "text"] }

    var text: String? {
        get { try? value(forKey: "text", as: String.self) }
        set { try? setValue(newValue, forKey: "text") }
    }

    /// Never stored: computed from a stored property.
    var shout: String { (text ?? "").uppercased() }
}

@Suite struct HandWrittenClassTests {
    @Test(arguments: StoreKind.allCases)
    func aHandWrittenClassIsFetchedAndInsertedAsItself(_ kind: StoreKind) throws {
        let json =
            #"{ "name": "Notes", "version": 1, "entities": [ { "name": "Note", "attributes": [ { "name": "text", "type": "string", "optional": true } ] } ] }"#
        let model = try ManagedObjectModel(data: Data(json.utf8))
        try model.register(Note.self)
        let container = PersistentContainer(name: "Notes", managedObjectModel: model)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ObjectGraphNotes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        if kind == .sqlite {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            container.persistentStoreDescriptions = [PersistentStoreDescription(url: directory.appendingPathComponent("Notes.sqlite"))]
        } else {
            container.persistentStoreDescriptions = [.inMemory]
        }
        try container.loadPersistentStores()
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let note = Note(context: container.viewContext)
        note.text = "hello"
        try container.viewContext.save()
        let other = container.newBackgroundContext()
        let shout = try other.performAndWait { try other.fetch(Note.fetchRequest()).map(\.shout) }
        #expect(shout == ["HELLO"])
        #expect(Note.propertyKeyPaths[\Note.text] == "text")
    }
}
