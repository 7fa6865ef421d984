import Foundation

/// A history transaction as a store keeps it, before it is turned into the public
/// `PersistentHistoryTransaction` for one request (filters applied, keys made object IDs).
struct StoredHistoryTransaction: Sendable {
    let number: Int64
    let timestamp: Date
    let contextName: String?
    let author: String?
    var changes: [(changeID: Int64, record: HistoryRecord)]
}

extension PersistentHistoryChangeRequest {
    /// Whether a fetch returns the transaction (after the bound, by one of the authors).
    func selects(_ transaction: StoredHistoryTransaction) -> Bool {
        let after =
            switch bound {
            case .token(let token): transaction.number > token?.transactionNumber ?? 0
            case .date(let date): transaction.timestamp > date
            }
        return after && (authors.map { transaction.author.map($0.contains) ?? false } ?? true)
    }

    /// Whether a delete removes the transaction (before the bound).
    func deletes(_ transaction: StoredHistoryTransaction) -> Bool {
        switch bound {
        case .token(let token): token.map { transaction.number < $0.transactionNumber } ?? true
        case .date(let date): transaction.timestamp < date
        }
    }

    /// The token a fetch or delete is bounded by must be this store's.
    func checkToken(storeIdentifier: String) throws {
        guard case .token(let token?) = bound, token.storeIdentifier != storeIdentifier else { return }
        throw ObjectGraphError(
            .invalidOperation, "The history token \(token) belongs to another store (this store's identifier is \(storeIdentifier))")
    }

    /// The transactions a fetch returns, as the public type: changes of the requested entities
    /// only (a transaction left with none is left out), keys as object IDs of `idSpaces`.
    func results(
        _ stored: [StoredHistoryTransaction], storeIdentifier: String, model: ManagedObjectModel, idSpaces: [ObjectIDSpace]
    ) -> [PersistentHistoryTransaction] {
        stored.filter(selects).compactMap { transaction in
            let changes = transaction.changes.compactMap { changeID, record -> PersistentHistoryChange? in
                let entity = model.entities[record.entityIndex]
                if let entityNames, !entityNames.contains(entity.name) { return nil }
                return PersistentHistoryChange(
                    changeID: changeID,
                    changedObjectID: ManagedObjectID(space: idSpaces[record.entityIndex], primaryKey: record.primaryKey),
                    changeType: record.type, updatedProperties: record.type == .update ? Set(record.properties) : nil,
                    tombstone: record.type == .delete
                        ? Dictionary(
                            record.tombstone.compactMap { name, value in value.anyValue.map { (name, $0) } },
                            uniquingKeysWith: { first, _ in first }) : nil)
            }
            guard !changes.isEmpty || (entityNames == nil && transaction.changes.isEmpty) else { return nil }
            return PersistentHistoryTransaction(
                token: PersistentHistoryToken(storeIdentifier: storeIdentifier, transactionNumber: transaction.number),
                timestamp: transaction.timestamp, contextName: transaction.contextName, author: transaction.author, changes: changes)
        }
    }
}
