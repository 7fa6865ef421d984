import Foundation
import Testing

@testable import ObjectGraph

/// A row's values move into the object made from it (see `MovableValues`).
@Suite struct ManagedObjectRowTests {
    @Test(arguments: StoreKind.allCases)
    func theFirstObjectMadeFromARowTakesItsValuesAndASecondStartsAsAFault(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let id = try store.savedItem("A1", ["title": "kept"])
        try store.withNewContext { context in
            var snapshot = try context.storedSnapshot(of: id)
            let stored = snapshot.values
            var isTaken = false
            let (first, second) = withUnsafeMutablePointer(to: &snapshot.values) { values in
                withUnsafeMutablePointer(to: &isTaken) { isTaken in
                    let row = ManagedObjectRow(
                        objectID: id, storedValues: MovableValues(values: values, isTaken: isTaken),
                        version: snapshot.version, context: context, asFault: false)
                    return (ManagedObject(row: row), ManagedObject(row: row))
                }
            }
            #expect(!first.isFault && first.values == stored)
            #expect(second.isFault && second.values.isEmpty)
            // The second loads its row from the store when it is read, like any fault.
            #expect(try second.get("title", as: String.self) == "kept")
            #expect(try first.get("title", as: String.self) == "kept")
            #expect(isTaken && snapshot.values.isEmpty)
        }
    }
}
