import Foundation
import ObjectGraph
import Testing

/// The stores the generated classes are tested against.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case inMemory

    var testDescription: String { rawValue }
}

/// A loaded container for the Catalog model with the generated classes registered: a SQLite file
/// in a fresh temporary directory, or an in-memory store. Removed when the value goes away.
final class CatalogStore {
    let kind: StoreKind
    private(set) var container: PersistentContainer
    private let directory: URL?

    init(_ kind: StoreKind) throws {
        self.kind = kind
        if kind == .sqlite {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ObjectGraphGenerated-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            self.directory = directory
        } else {
            self.directory = nil
        }
        container = try Self.loadedContainer(kind, directory: directory)
    }

    deinit {
        container.persistentStoreCoordinator.removePersistentStore()
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    var context: ManagedObjectContext { container.viewContext }

    /// The Catalog model, loaded as a program would, with the generated classes registered.
    static func loadModel() throws -> ManagedObjectModel {
        let model = try ManagedObjectModel(contentsOf: Bundle.module.url(forResource: "Catalog.objectgraph", withExtension: "json")!)
        try model.register(CatalogClasses.all)
        return model
    }

    private static func loadedContainer(_ kind: StoreKind, directory: URL?) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Catalog", managedObjectModel: try loadModel())
        container.persistentStoreDescriptions = [
            directory.map { PersistentStoreDescription(url: $0.appendingPathComponent("Catalog.sqlite")) } ?? .inMemory
        ]
        try container.loadPersistentStores()
        return container
    }

    /// Closes a SQLite store and opens its file again with a freshly loaded model, as a restarted
    /// program would; an in-memory store keeps its container and gets a new context instead.
    func reopened() throws -> ManagedObjectContext {
        guard kind == .sqlite else { return container.newBackgroundContext() }
        container.persistentStoreCoordinator.removePersistentStore()
        container = try Self.loadedContainer(kind, directory: directory)
        return container.viewContext
    }
}
