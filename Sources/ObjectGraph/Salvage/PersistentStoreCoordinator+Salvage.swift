import Foundation

extension PersistentStoreCoordinator {
    /// Copies every readable row of the damaged SQLite store at `damagedURL` (and its `-wal`
    /// file) into a new store at `storeURL`, made from the model the damaged file's metadata
    /// records, or from `model` when that cannot be read. The damaged file's pages are read
    /// directly, so a damaged header, schema, index or table page costs only the rows it held;
    /// what cannot be read, or does not fit the model, is skipped; indexes are built anew; a
    /// relationship to an object that was lost is set to nil (a join pair with a lost object
    /// is dropped). The new store keeps the store identifier, so object URIs still resolve. The
    /// damaged files are not changed; `storeURL` must not exist. `progress` is called as pages
    /// are read and rows written.
    @discardableResult
    public static func recover(
        damaged damagedURL: URL, into storeURL: URL, model: ManagedObjectModel? = nil,
        progress: (@Sendable (SalvageProgress) -> Void)? = nil
    ) throws -> SalvageReport {
        try StoreSalvage(
            damagedPath: SQLiteStoreState.fileSystemPath(damagedURL), targetPath: SQLiteStoreState.fileSystemPath(storeURL),
            givenModel: model, progress: progress
        ).run()
    }
}
