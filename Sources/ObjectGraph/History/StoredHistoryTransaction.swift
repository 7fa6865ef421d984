import Foundation

/// A history transaction as a store keeps it, before it is turned into the public
/// `PersistentHistoryTransaction` for one request (filters applied, keys made object IDs).
package struct StoredHistoryTransaction: Sendable {
    package let number: Int64
    package let timestamp: Date
    package let contextName: String?
    package let author: String?
    package var changes: [(changeID: Int64, record: HistoryRecord)]

    package init(
        number: Int64, timestamp: Date, contextName: String?, author: String?, changes: [(changeID: Int64, record: HistoryRecord)]
    ) {
        self.number = number
        self.timestamp = timestamp
        self.contextName = contextName
        self.author = author
        self.changes = changes
    }
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
    package func checkToken(storeIdentifier: String) throws {
        guard case .token(let token?) = bound, token.storeIdentifier != storeIdentifier else { return }
        throw ObjectGraphError(
            .invalidOperation, "The history token \(token) belongs to another store (this store's identifier is \(storeIdentifier))")
    }

    /// The transactions a fetch returns, as the public type: changes of the requested entities
    /// only (a transaction left with none is left out), keys as object IDs of `idSpaces`.
    package func results(
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

/// Stored transactions as a store reads them back: each transaction's row (its blob decoded,
/// change IDs numbered), then the tombstone values of its deletions, from whichever tables the
/// store keeps them in.
package struct StoredHistoryReader {
    package private(set) var transactions: [StoredHistoryTransaction] = []
    /// Where each deletion's record is, for its tombstone values.
    private var deletions: [Int64: (transaction: Int, change: Int, entity: EntityDescription)] = [:]
    private let model: ManagedObjectModel
    /// Where the store is, for the error about a damaged transaction.
    private let location: String

    package init(model: ManagedObjectModel, location: String) {
        self.model = model
        self.location = location
    }

    /// Adds the transaction `number`, its changes in `blob` as `HistoryRecordCoding` wrote them.
    package mutating func add(number: Int64, timestamp: Date, contextName: String?, author: String?, blob: [UInt8]) throws {
        guard let records = HistoryRecordCoding.decode(blob, model: model) else {
            throw ObjectGraphError(
                .corruptStore, "The persistent history of the store at \(location) is damaged: transaction \(number) cannot be read")
        }
        var transaction = StoredHistoryTransaction(
            number: number, timestamp: timestamp, contextName: contextName, author: author, changes: [])
        for (position, record) in records {
            let changeID = number * StoreSchema.changesPerTransaction + Int64(position)
            if record.type == .delete {
                deletions[changeID] = (transactions.count, transaction.changes.count, model.entities[record.entityIndex])
            }
            transaction.changes.append((changeID, record))
        }
        transactions.append(transaction)
    }

    /// The smallest change ID of a deletion added, or nil when there is none: tombstones from it
    /// on are the ones to read.
    package var firstDeletion: Int64? { deletions.keys.min() }

    /// Adds the tombstone value of `attribute` to the deletion `change`; `value` reads it as the
    /// attribute's type. Values of changes not added, of attributes the model no longer has, or
    /// that do not read as the attribute's type now (nil) are left out.
    package mutating func addTombstone(change: Int64, attribute name: String, value: (AttributeType) -> AttributeValue?) {
        guard let place = deletions[change], let attribute = place.entity.attribute(named: name), let value = value(attribute.type)
        else { return }
        transactions[place.transaction].changes[place.change].record.tombstone.append((name, value))
    }
}
