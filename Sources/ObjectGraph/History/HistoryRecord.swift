/// One object's change as a store writes it into its persistent history.
package struct HistoryRecord: Sendable {
    package let entityIndex: Int
    package let primaryKey: Int64
    package let type: PersistentHistoryChangeType
    /// The stored properties an update changed.
    package var properties: [String] = []
    /// A deletion's values of the attributes marked `preservesValueInHistoryOnDeletion`.
    package var tombstone: [(name: String, value: AttributeValue)] = []
}

/// The history of one store transaction while it is written: who saved, and what changed. A
/// store gathers it request by request inside the transaction and writes it before committing,
/// so history and data never disagree.
package struct PendingHistory: Sendable {
    package var contextName: String?
    package var author: String?
    package var records: [HistoryRecord] = []

    package init() {}

    /// Takes in `request`'s context and the records of its deletions, before its rows are
    /// deleted (`tombstone` reads a row's preserved values; see `SaveRequest.deletionRecords`).
    package mutating func recordDeletions(
        of request: SaveRequest,
        tombstone: (EntityDescription, Int64, [AttributeDescription]) throws -> [(name: String, value: AttributeValue)]
    ) throws {
        // A batch's requests all carry the same context; the first one's is the transaction's.
        contextName = contextName ?? request.contextName
        author = author ?? request.author
        records += try request.deletionRecords(tombstone: tombstone)
    }

    /// Throws when the transaction has more changes than its change IDs can number.
    package func checkSize() throws {
        guard Int64(records.count) < StoreSchema.changesPerTransaction else {
            throw ObjectGraphError(
                .invalidOperation,
                "A transaction of \(records.count) changes is more than persistent history records in one transaction (\(StoreSchema.changesPerTransaction - 1))"
            )
        }
    }
}

extension SaveRequest {
    /// The records of the request's deletions; `tombstone` reads a row's preserved values, and is
    /// called only for entities that preserve some, before the rows are deleted.
    func deletionRecords(
        tombstone: (EntityDescription, Int64, [AttributeDescription]) throws -> [(name: String, value: AttributeValue)]
    ) throws -> [HistoryRecord] {
        try deletes.compactMap { objectID in
            guard let key = objectID.primaryKey else { return nil }
            let preserved = objectID.entity.attributes.filter(\.preservesValueInHistoryOnDeletion)
            return HistoryRecord(
                entityIndex: objectID.entity.index, primaryKey: key, type: .delete,
                tombstone: preserved.isEmpty ? [] : try tombstone(objectID.entity, key, preserved))
        }
    }

    /// The records of the request's inserts (`rowKeys[i]` the key of `inserts[i]`), updates (the
    /// stored properties they changed) and to-many changes of objects it neither inserts nor
    /// deletes (as updates of that relationship).
    package func writeRecords(rowKeys: [Int64]) -> [HistoryRecord] {
        var records = zip(inserts, rowKeys).map { HistoryRecord(entityIndex: $0.objectID.entity.index, primaryKey: $1, type: .insert) }
        var updateAt: [ManagedObjectID: Int] = [:]
        for update in updates {
            let entity = update.objectID.entity
            let names = update.changedAttributes.filter { $0 >= entity.attributes.count || !entity.attributes[$0].isTransient }.map(
                entity.propertyName(atSlot:))
            guard let key = update.objectID.primaryKey, !names.isEmpty else { continue }
            updateAt[update.objectID] = records.count
            records.append(HistoryRecord(entityIndex: entity.index, primaryKey: key, type: .update, properties: names))
        }
        let deleted = Set(deletes)
        // Inserts with permanent IDs obtained in advance are the only ones a change can name by key.
        let inserted = relationshipChanges.isEmpty ? [] : Set(inserts.lazy.map(\.objectID).filter { !$0.isTemporaryID })
        for change in relationshipChanges {
            guard let key = change.objectID.primaryKey, !deleted.contains(change.objectID), !inserted.contains(change.objectID) else {
                continue
            }
            if let index = updateAt[change.objectID] {
                if !records[index].properties.contains(change.relationship.name) {
                    records[index].properties.append(change.relationship.name)
                }
            } else {
                updateAt[change.objectID] = records.count
                records.append(
                    HistoryRecord(
                        entityIndex: change.objectID.entity.index, primaryKey: key, type: .update, properties: [change.relationship.name]))
            }
        }
        return records
    }
}
