import Foundation
import Testing

@testable import ObjectGraph

/// Inferred migration of tables shared by an inheritance hierarchy: a renamed sub-entity, a new
/// sub-entity attribute, a new parent entity, and references and ordered positions that name
/// entities — every object keeps its key, its entity and its place.
@Suite struct HierarchyMigrationTests {
    static let version1 = """
        { "name": "Drawing", "version": 1, "entities": [
          { "name": "Shape", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [ { "name": "parts", "destination": "Part", "toMany": true, "ordered": true, "inverse": "shape" } ] },
          { "name": "Circle", "parent": "Shape", "attributes": [ { "name": "radius", "type": "double" } ] },
          { "name": "Square", "parent": "Shape", "attributes": [ { "name": "side", "type": "double" } ] },
          { "name": "Part", "attributes": [ { "name": "label", "type": "string" } ],
            "relationships": [ { "name": "shape", "destination": "Shape", "inverse": "parts" } ] }
        ] }
        """

    static let version2 = """
        { "name": "Drawing", "version": 2, "entities": [
          { "name": "Shape", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [ { "name": "parts", "destination": "Part", "toMany": true, "ordered": true, "inverse": "shape" } ] },
          { "name": "Circle", "parent": "Shape", "attributes": [
              { "name": "radius", "type": "double" }, { "name": "color", "type": "string", "default": "red" } ] },
          { "name": "Box", "parent": "Shape", "renamingIdentifier": "Square",
            "attributes": [ { "name": "width", "type": "double", "renamingIdentifier": "side" } ] },
          { "name": "Thing", "abstract": true, "attributes": [ { "name": "createdBy", "type": "string", "optional": true } ] },
          { "name": "Part", "parent": "Thing", "attributes": [ { "name": "label", "type": "string" } ],
            "relationships": [ { "name": "shape", "destination": "Shape", "inverse": "parts" } ] }
        ] }
        """

    @Test(arguments: MigrationStore.kinds) func aHierarchysRowsKeepTheirEntitiesKeysReferencesAndOrder(_ kind: StoreKind) throws {
        let store = try MigrationStore(kind, name: "Drawing")
        defer { withExtendedLifetime(store) {} }
        let url = store.url
        let (circleKey, squareKey, partKeys) = try {
            let container = try InferredMigrationTests.open(url, Self.version1)
            defer { container.persistentStoreCoordinator.removePersistentStore() }
            let context = container.newBackgroundContext()
            return try context.performAndWait { () throws -> (Int64, Int64, [Int64]) in
                let circle = try context.insertNewObject(forEntityName: "Circle")
                try circle.setValue("sun", forKey: "name")
                try circle.setValue(2.5, forKey: "radius")
                let square = try context.insertNewObject(forEntityName: "Square")
                try square.setValue("window", forKey: "name")
                try square.setValue(4.0, forKey: "side")
                let parts = try ["c", "a", "b"].map { label in
                    let part = try context.insertNewObject(forEntityName: "Part")
                    try part.setValue(label, forKey: "label")
                    return part
                }
                try square.setValue(parts, forKey: "parts")
                try context.save()
                return (circle.objectID.primaryKey!, square.objectID.primaryKey!, parts.map { $0.objectID.primaryKey! })
            }
        }()

        let container = try InferredMigrationTests.open(url, Self.version2)
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let shapes = try context.objects("Shape", sortedBy: ["name"])
            #expect(shapes.map(\.entity.name) == ["Circle", "Box"])
            #expect(shapes.map { $0.objectID.primaryKey! } == [circleKey, squareKey])
            #expect(try shapes[0].get("color", as: String.self) == "red")
            #expect(try shapes[0].get("radius", as: Double.self) == 2.5)
            #expect(try shapes[1].get("width", as: Double.self) == 4.0)
            let parts = try #require(try shapes[1].value(forKey: "parts") as? [ManagedObject])
            #expect(try parts.map { try $0.get("label", as: String.self) } == ["c", "a", "b"])
            #expect(parts.map { $0.objectID.primaryKey! } == partKeys)
            #expect(parts.allSatisfy { (try? $0.value(forKey: "shape") as? ManagedObject) === shapes[1] })
            let things = try context.objects("Thing")
            #expect(things.count == 3 && things.allSatisfy { $0.entity.name == "Part" })
            #expect(try context.objects("Part", where: "shape.name == 'window'").count == 3)
        }
    }
}
