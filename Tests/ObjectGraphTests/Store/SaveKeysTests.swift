import Foundation
import Testing

@testable import ObjectGraph

/// A save finds the key it gave each new row by the row's temporary ID: through an array when the
/// save's temporary numbers are close together, through a dictionary when they are far apart.
/// Either way an ID the save does not insert has no key, and says so.
struct SaveKeysTests {
    private static let space = ObjectIDSpace(entity: PredicateFixtures.person, storeIdentifier: "S")

    private static func keys(numbers: [UInt64], rowKeys: [Int64]) -> SaveKeys {
        let inserts = numbers.map { number in
            SaveRequest.Insert(
                objectID: ManagedObjectID(space: space, temporaryNumber: number),
                values: ValueRow(repeating: .null, count: PredicateFixtures.person.rowWidth))
        }
        return SaveKeys(idSpaces: [space], inserts: SaveRequest.Inserts(inserts), rowKeys: rowKeys)
    }

    private static func key(of number: UInt64, in keys: SaveKeys, space: ObjectIDSpace = space) throws -> Int64 {
        try keys.key(
            of: ManagedObjectID(space: space, temporaryNumber: number), referencedBy: ManagedObjectID(space: space, primaryKey: 1),
            through: "author")
    }

    @Test(arguments: [
        [UInt64(500), 501, 503, 502],  // close together: found by position
        [UInt64(7), 9_000_000, 12, 40_000_000_000]  // far apart: found by hashing
    ])
    func everyInsertIsFoundByItsTemporaryID(numbers: [UInt64]) throws {
        let keys = Self.keys(numbers: numbers, rowKeys: [11, 12, 13, 14])
        for (number, expected) in zip(numbers, [Int64(11), 12, 13, 14]) {
            #expect(try Self.key(of: number, in: keys) == expected)
        }
    }

    @Test(arguments: [[UInt64(500), 501, 503], [UInt64(7), 9_000_000]])
    func anIDTheSaveDoesNotInsertHasNoKey(numbers: [UInt64]) throws {
        let keys = Self.keys(numbers: numbers, rowKeys: Array(1...Int64(numbers.count)))
        let missing: [UInt64] = [1, 502, 504, 100_000_000]
        for number in missing {
            let error = #expect(throws: ObjectGraphError.self) { try Self.key(of: number, in: keys) }
            #expect(
                error?.message.contains("refers to Person/t\(number) (unsaved), which is neither saved nor inserted in this save") == true)
        }
        // The same number in another store's space is another object.
        let elsewhere = ObjectIDSpace(entity: PredicateFixtures.person, storeIdentifier: "Other")
        #expect(throws: ObjectGraphError.self) { try Self.key(of: numbers[0], in: keys, space: elsewhere) }
    }

    @Test func aSavedIDIsItsOwnKey() throws {
        let keys = Self.keys(numbers: [1], rowKeys: [5])
        let saved = ManagedObjectID(space: Self.space, primaryKey: 42)
        #expect(try keys.key(of: saved, referencedBy: saved, through: "author") == 42)
    }
}
