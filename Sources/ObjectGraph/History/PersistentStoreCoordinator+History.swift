extension PersistentStoreCoordinator {
    /// The transactions of the attached store's persistent history that `request` (made by
    /// `PersistentHistoryChangeRequest.fetchHistory(after:)`) selects, oldest first. Merge one into
    /// a context with `context.mergeChanges(transaction.contextChanges)`. Throws when the store
    /// keeps no history (`recordsPersistentHistory`), or for another store's token.
    public func fetchHistory(_ request: PersistentHistoryChangeRequest) throws -> [PersistentHistoryTransaction] {
        guard request.operation == .fetch else {
            throw ObjectGraphError(
                .invalidOperation,
                "fetchHistory(_:) needs a fetch request (PersistentHistoryChangeRequest.fetchHistory(after:)); run a deleteHistory(before:) request with deleteHistory(_:)"
            )
        }
        return try requireStore().fetchHistory(request)
    }

    /// Deletes the transactions of the attached store's persistent history that `request` (made
    /// by `PersistentHistoryChangeRequest.deleteHistory(before:)`) selects; returns how many.
    /// Transaction numbers are never reused, so tokens kept elsewhere stay meaningful.
    @discardableResult
    public func deleteHistory(_ request: PersistentHistoryChangeRequest) throws -> Int {
        guard request.operation == .delete else {
            throw ObjectGraphError(
                .invalidOperation,
                "deleteHistory(_:) needs a delete request (PersistentHistoryChangeRequest.deleteHistory(before:)); run a fetchHistory(after:) request with fetchHistory(_:)"
            )
        }
        return try requireStore().deleteHistory(request)
    }

    /// The token of the newest transaction in the attached store's persistent history (even if
    /// it was deleted since), or nil when none was ever recorded: fetch after it later for
    /// what changed meanwhile.
    public func currentPersistentHistoryToken() throws -> PersistentHistoryToken? {
        try requireStore().currentHistoryToken()
    }
}
