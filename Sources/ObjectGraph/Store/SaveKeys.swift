/// The primary keys of one save's inserted rows, assigned before any row is written so that rows
/// of the same save can refer to each other (a new book to its new author) in any order.
///
/// A class confined to the store's queue for the length of one save: the map from temporary IDs
/// to keys is built only when a row first refers to an unsaved object, so a save of objects
/// without such references (most large inserts) never hashes their IDs.
package final class SaveKeys {
    /// The save's inserts, and the key of each, in order.
    private let inserts: SaveRequest.Inserts
    private let rowKeys: [Int64]
    /// The store's ID space of each entity.
    let idSpaces: [ObjectIDSpace]
    // Where each temporary ID's insert is, made on the first lookup of one. Temporary numbers
    // count up across the process, so one save's are nearly dense: an array indexed from the
    // lowest number then finds an insert without hashing. Sparse numbers (objects inserted long
    // apart) use a dictionary. Unchecked: the keys are confined to one save on the store's queue.
    @exclusivity(unchecked) private var positionsAreMade = false
    /// The lowest temporary number of the inserts, when `densePositions` is used.
    @exclusivity(unchecked) private var lowestNumber: UInt64 = 0
    /// `densePositions[number - lowestNumber]` is the insert's position plus one, 0 for none.
    @exclusivity(unchecked) private var densePositions: [Int32] = []
    /// The insert's position by ID, when the numbers are too sparse for `densePositions`.
    @exclusivity(unchecked) private var sparsePositions: [ManagedObjectID: Int]?

    /// The keys of `inserts`, `rowKeys[i]` being the key of `inserts[i]`.
    package init(idSpaces: [ObjectIDSpace], inserts: SaveRequest.Inserts = [], rowKeys: [Int64] = []) {
        self.idSpaces = idSpaces
        self.inserts = inserts
        self.rowKeys = rowKeys
    }

    /// The key this save gave the temporary `objectID`, if it inserts that object.
    private func assignedKey(of objectID: ManagedObjectID) -> Int64? {
        guard let number = objectID.temporaryNumber else { return nil }
        if !positionsAreMade { makePositions() }
        let found: Int?
        if let sparsePositions {
            found = sparsePositions[objectID]
        } else if number >= lowestNumber, number - lowestNumber < UInt64(densePositions.count) {
            let position = Int(densePositions[Int(number - lowestNumber)])
            found = position > 0 ? position - 1 : nil
        } else {
            found = nil
        }
        // The same number in another entity (an ID made from a URI) is another object.
        guard let found, inserts.objectID(at: found) == objectID else { return nil }
        return rowKeys[found]
    }

    private func makePositions() {
        positionsAreMade = true
        var low = UInt64.max
        var high = UInt64.min
        var count = 0
        for index in inserts.indices {
            guard let number = inserts.objectID(at: index).temporaryNumber else { continue }
            low = min(low, number)
            high = max(high, number)
            count += 1
        }
        guard count > 0 else { return }
        guard keysFitDenseArray(span: high - low, count: count), inserts.count < Int32.max else {
            var positions = [ManagedObjectID: Int](minimumCapacity: count)
            for index in inserts.indices {
                let objectID = inserts.objectID(at: index)
                if objectID.isTemporaryID { positions[objectID] = index }
            }
            sparsePositions = positions
            return
        }
        // Filled locally: each write to the stored property would check it is uniquely held.
        var positions = [Int32](repeating: 0, count: Int(high - low) + 1)
        for index in inserts.indices {
            if let number = inserts.objectID(at: index).temporaryNumber { positions[Int(number - low)] = Int32(index + 1) }
        }
        lowestNumber = low
        densePositions = positions
    }

    /// The primary key of `objectID`, saved or assigned by this save, or an error naming who refers
    /// to the unsaved object (`source` and `relationship` are made only for the error).
    package func key(
        of objectID: ManagedObjectID, referencedBy source: @autoclosure () -> ManagedObjectID,
        through relationship: @autoclosure () -> String
    ) throws -> Int64 {
        if let key = objectID.primaryKey ?? assignedKey(of: objectID) { return key }
        let source = source()
        let relationship = relationship()
        throw ObjectGraphError(
            .invalidOperation,
            "Cannot save \(source.shortDescription): its relationship '\(relationship)' refers to \(objectID.shortDescription), which is neither saved nor inserted in this save (it was deleted, or never inserted); nothing was written.",
            entityName: source.entity.name, objectID: source, key: relationship)
    }

    /// The store's permanent ID for `objectID`.
    func permanentID(
        of objectID: ManagedObjectID, referencedBy source: ManagedObjectID, through relationship: String
    ) throws -> ManagedObjectID {
        if !objectID.isTemporaryID { return objectID }
        return ManagedObjectID(
            space: idSpaces[objectID.entity.index], primaryKey: try key(of: objectID, referencedBy: source, through: relationship))
    }

    /// `values` with every to-one destination given its permanent ID.
    package func resolvingReferences(in values: ValueRow, of objectID: ManagedObjectID) throws -> ValueRow {
        var values = values
        for relationship in objectID.entity.toOneRelationships {
            guard case .object(let destination) = values[relationship.slot], destination.isTemporaryID else { continue }
            values[relationship.slot] = .object(try permanentID(of: destination, referencedBy: objectID, through: relationship.name))
        }
        return values
    }

    /// The primary key of an object that must already be saved, to `action` (delete, update) it.
    package static func savedKey(of objectID: ManagedObjectID, _ action: String) throws -> Int64 {
        guard let key = objectID.primaryKey else {
            throw ObjectGraphError(
                .invalidOperation, "Cannot \(action) \(objectID.shortDescription) in the store: it has never been saved",
                entityName: objectID.entity.name, objectID: objectID)
        }
        return key
    }

    /// A value row must hold one value per attribute and to-one relationship of its entity.
    /// Inlined, so that callers make `objectID`'s closure only for a failure (made before the
    /// call, it retains what it captures, for every row of an insert).
    @inline(__always)
    package static func checkRow(
        _ values: ValueRow, of entity: EntityDescription, _ objectID: @autoclosure () -> ManagedObjectID
    ) throws {
        let expected = entity.rowWidth
        guard values.count == expected else {
            let objectID = objectID()
            throw ObjectGraphError(
                .invalidOperation,
                "Cannot save \(objectID.shortDescription): its row has \(values.count) values for \(expected) properties",
                entityName: entity.name, objectID: objectID)
        }
    }
}
