import Foundation
import Testing
@testable import ObjectGraph

/// Models this version of the stores cannot hold are refused by every store alike, and abstract
/// entities cannot be instantiated.
@Suite struct UnsupportedModelConformanceTests {
    private static let inheritanceModel = """
    { "name": "Shop", "version": 1, "entities": [
      { "name": "Item", "attributes": [ { "name": "sku", "type": "string" } ] },
      { "name": "Book", "parent": "Item", "attributes": [ { "name": "pages", "type": "integer32" } ] } ] }
    """

    private static let abstractModel = """
    { "name": "Shapes", "version": 1, "entities": [
      { "name": "Shape", "abstract": true, "attributes": [ { "name": "label", "type": "string" } ] } ] }
    """

    @Test(arguments: StoreKind.allCases)
    func inheritanceModelsAreRefusedByEveryStore(kind: StoreKind) throws {
        let error = #expect(throws: ObjectGraphError.self) {
            _ = try TestStore(kind, model: { try ManagedObjectModel(data: Data(Self.inheritanceModel.utf8)) })
        }
        #expect(error?.kind == .invalidOperation)
        #expect(error?.message.contains("entity inheritance is not supported by this version of the store yet (Book inherits from Item)") == true)
    }

    @Test(arguments: StoreKind.allCases)
    func abstractEntitiesCannotBeInserted(kind: StoreKind) throws {
        let store = try TestStore(kind, model: { try ManagedObjectModel(data: Data(Self.abstractModel.utf8)) })
        let context = store.newContext()
        let error = #expect(throws: ObjectGraphError.self) { _ = try context.insertNewObject(forEntityName: "Shape") }
        #expect(error?.kind == .invalidOperation)
        #expect(error?.message.contains("the entity is abstract") == true)
        #expect(!context.hasChanges)
    }
}
