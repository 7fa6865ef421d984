import Foundation
import Testing

@testable import ObjectGraph

/// Abstract entities cannot be instantiated, in every store alike.
@Suite struct AbstractEntityConformanceTests {
    private static let abstractModel = """
        { "name": "Shapes", "version": 1, "entities": [
          { "name": "Shape", "abstract": true, "attributes": [ { "name": "label", "type": "string" } ] } ] }
        """

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
