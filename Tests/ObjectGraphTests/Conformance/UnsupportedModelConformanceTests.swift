import Foundation
import Testing
@testable import ObjectGraph

/// Models this version of the stores cannot hold are refused by every store alike, and abstract
/// entities cannot be instantiated.
@Suite struct UnsupportedModelConformanceTests {
    private static let relationshipModel = """
    { "name": "Shop", "version": 1, "entities": [
      { "name": "Order", "attributes": [ { "name": "number", "type": "integer64" } ],
        "relationships": [ { "name": "lines", "destination": "Line", "toMany": true, "inverse": "order" } ] },
      { "name": "Line", "attributes": [ { "name": "sku", "type": "string" } ],
        "relationships": [ { "name": "order", "destination": "Order", "inverse": "lines" } ] } ] }
    """

    private static let abstractModel = """
    { "name": "Shapes", "version": 1, "entities": [
      { "name": "Shape", "abstract": true, "attributes": [ { "name": "label", "type": "string" } ] } ] }
    """

    @Test(arguments: StoreKind.allCases)
    func relationshipModelsAreRefusedByEveryStore(kind: StoreKind) throws {
        let error = #expect(throws: ObjectGraphError.self) {
            _ = try TestStore(kind, model: { try ManagedObjectModel(data: Data(Self.relationshipModel.utf8)) })
        }
        #expect(error?.kind == .invalidOperation)
        #expect(error?.message.contains("relationships are not supported by this version of the store yet (Order.lines, Line.order)") == true)
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
