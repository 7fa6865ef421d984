import Foundation
import Logging

/// What loading a damaged SQLite store did when its description's `recoversDamagedStore` was on:
/// why the store could not be loaded, where the damaged files went, and what was recovered.
public struct DamagedStoreRecovery: Sendable {
    /// The error loading met.
    public let cause: ObjectGraphError
    /// Where the damaged store file now is (its `-wal` and `-shm` files beside it).
    public let damagedStoreURL: URL
    public let report: SalvageReport

    /// The sentence errors about damaged stores end with: what the user can do.
    static func hint(for path: String) -> String {
        "PersistentStoreCoordinator.recover(damaged:into:) or `objectgraph recover \(path) --into NEW.sqlite` copies every readable row into a new store, and the description's recoversDamagedStore does that when loading"
    }

    /// Salvages the store `description` names into a new file, moves the damaged files aside and
    /// the new store into their place. Throws `cause` when nothing could be recovered (the file
    /// may not be a store at all), leaving every file where it was.
    static func salvage(
        _ description: PersistentStoreDescription, model: ManagedObjectModel, cause: ObjectGraphError
    ) throws -> DamagedStoreRecovery {
        guard let url = description.url else { throw cause }
        let path = SQLiteStoreState.fileSystemPath(url)
        let folder = url.deletingLastPathComponent()
        let recovered = SQLiteStoreState.fileSystemPath(
            folder.appendingPathComponent(".\(url.lastPathComponent).recovered-\(UUID().uuidString)"))
        let report = try StoreSalvage(damagedPath: path, targetPath: recovered, givenModel: model, progress: nil).run()
        guard report.rowsRecovered > 0 || report.modelCameFromDamagedFile else {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: recovered + suffix) }
            throw cause
        }
        let stamp = Date().formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: false).timeSeparator(.omitted).dateSeparator(.omitted))
        let aside = SQLiteStoreState.fileSystemPath(
            folder.appendingPathComponent("\(url.deletingPathExtension().lastPathComponent).damaged-\(stamp).sqlite"))
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            guard rename(path + suffix, aside + suffix) == 0 else {
                throw ObjectGraphError(
                    .storeUnavailable,
                    "Cannot move the damaged store \(path)\(suffix) aside to \(aside)\(suffix) (\(String(cString: strerror(errno)))); the recovered store is at \(recovered)"
                )
            }
        }
        guard rename(recovered, path) == 0 else {
            throw ObjectGraphError(
                .storeUnavailable,
                "Cannot move the recovered store \(recovered) to \(path) (\(String(cString: strerror(errno)))); the damaged store was moved to \(aside)"
            )
        }
        Logger(label: "ObjectGraph.Store").warning(
            "The store at \(path) was damaged (\(cause.message)); it was moved to \(aside) and its readable rows recovered into a new store in its place. \(report)"
        )
        return DamagedStoreRecovery(cause: cause, damagedStoreURL: URL(fileURLWithPath: aside), report: report)
    }
}
