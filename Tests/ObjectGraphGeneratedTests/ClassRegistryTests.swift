import Foundation
import ObjectGraph
import Testing

/// Registering classes for entities, and what happens when a class does not fit.
@Suite struct ClassRegistryTests {
    private static func unregisteredModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(contentsOf: Bundle.module.url(forResource: "Catalog.objectgraph", withExtension: "json")!)
    }

    @Test func typedFetchOfAnUnregisteredClassIsATypeMismatchThatSaysWhatToDo() throws {
        let container = PersistentContainer(name: "Catalog", managedObjectModel: try Self.unregisteredModel())
        container.persistentStoreDescriptions = [.inMemory]
        try container.loadPersistentStores()
        let tag = try container.viewContext.insertNewObject(forEntityName: "Tag")
        #expect(type(of: tag) == ManagedObject.self)
        try tag.setValue("x", forKey: "name")
        let error = try #require(throws: ObjectGraphError.self) { try container.viewContext.fetch(Tag.fetchRequest()) }
        #expect(error.kind == .typeMismatch)
        #expect(error.message.contains("register the class for Tag with ManagedObjectModel.register(_:)"))
    }

    @Test func registrationIsRefusedOnceACoordinatorUsesTheModel() throws {
        let model = try Self.unregisteredModel()
        _ = PersistentStoreCoordinator(managedObjectModel: model)
        let error = try #require(throws: ObjectGraphError.self) { try model.register(Tag.self) }
        #expect(error.kind == .invalidOperation)
        #expect(error.message.contains("register classes before creating the container or coordinator"))
    }

    @Test func aSubentityClassMustInheritFromItsParentEntitysClass() throws {
        let model = try Self.unregisteredModel()
        let error = try #require(throws: ObjectGraphError.self) { try model.register(Employee.self, StrayManager.self) }
        #expect(error.kind == .typeMismatch)
        #expect(error.message.contains("StrayManager (for Manager) must be a subclass of Employee (for Employee)"))
    }

    @Test func classesFromAnotherVersionOfTheModelAreRefused() throws {
        let json =
            #"{ "name": "Catalog", "version": 2, "entities": [ { "name": "Tag", "attributes": [ { "name": "label", "type": "string" } ] } ] }"#
        let model = try ManagedObjectModel(data: Data(json.utf8))
        let error = try #require(throws: ObjectGraphError.self) { try model.register(Tag.self) }
        #expect(error.kind == .typeMismatch)
        #expect(error.message.contains("generated from another version of the model 'Catalog'"))
    }

    @Test func anUnknownEntityNameIsRefused() throws {
        let model = try Self.unregisteredModel()
        #expect(throws: ObjectGraphError.self) { try model.register(Orphan.self) }
    }
}

/// A class for Manager that does not inherit from Employee's class.
private final class StrayManager: ManagedObject, EntityClass {
    static let entityName = "Manager"
}

private final class Orphan: ManagedObject, EntityClass {
    static let entityName = "Orphan"
}
