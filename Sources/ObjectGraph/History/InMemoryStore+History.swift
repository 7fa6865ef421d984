import Foundation

/// Persistent history in the in-memory store: the same transactions the SQLite store records,
/// kept in its state, so a program's tests see what its SQLite store would record.
extension InMemoryStore {
    /// Moves the transaction's pending history into the committed history (numbering it and its
    /// changes), at the end of a transaction that succeeded.
    func commitHistory(_ state: inout State) {
        guard let pending = state.pendingHistory else { return }
        state.pendingHistory = nil
        guard !pending.records.isEmpty else { return }
        state.lastHistoryTransaction += 1
        let number = state.lastHistoryTransaction
        // Change IDs numbered as the SQLite store numbers them.
        state.history.append(
            StoredHistoryTransaction(
                number: number, timestamp: Date(), contextName: pending.contextName, author: pending.author,
                changes: pending.records.enumerated().map {
                    (number * StoreSchema.changesPerTransaction + Int64($0.offset), $0.element)
                }))
    }

    func fetchHistory(_ request: PersistentHistoryChangeRequest) throws -> [PersistentHistoryTransaction] {
        try request.checkToken(storeIdentifier: identifier)
        let stored = try state.withLock { state in
            try Self.checkOpen(state)
            try requireHistory()
            return state.history
        }
        return request.results(stored, storeIdentifier: identifier, model: model, idSpaces: idSpaces)
    }

    func deleteHistory(_ request: PersistentHistoryChangeRequest) throws -> Int {
        try request.checkToken(storeIdentifier: identifier)
        return try state.withLock { state in
            try Self.checkOpen(state)
            try requireHistory()
            let before = state.history.count
            state.history.removeAll(where: request.deletes)
            return before - state.history.count
        }
    }

    func currentHistoryToken() throws -> PersistentHistoryToken? {
        try state.withLock { state in
            try Self.checkOpen(state)
            try requireHistory()
            return state.lastHistoryTransaction > 0
                ? PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: state.lastHistoryTransaction) : nil
        }
    }

    private func requireHistory() throws {
        guard storeDescription.recordsPersistentHistory else {
            throw ObjectGraphError(
                .invalidOperation,
                "The in-memory store keeps no persistent history: set recordsPersistentHistory on its description to record it")
        }
    }
}
