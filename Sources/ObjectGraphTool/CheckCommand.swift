import ArgumentParser
import Foundation
import ObjectGraph
import ObjectGraphPostgres

/// `objectgraph check STORE [--quick]`: the integrity check of a store file or PostgreSQL store.
struct CheckCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a store's integrity: the file, its metadata, the references between objects.",
        discussion: """
            Opens the store with the model it keeps; nothing is changed (a file is opened read-only). \
            STORE is a store file or postgres://user:password@host:port/database, where the tables \
            and columns are checked instead of a file. Exits with status 1 when a problem is found.
            """
    )

    @Argument(help: "The store: a file or a postgres:// URL.", completion: .file())
    var store: String

    @Flag(help: "Run SQLite's quick_check (no index contents) instead of integrity_check.")
    var quick = false

    func output() -> CommandOutput {
        // A database URL is shown without its password.
        var shown = store
        do {
            let url = try CopyCommand.location(store)
            shown = CopyCommand.isPostgreSQL(url) ? CopyCommand.shown(url) : store
            let coordinator = try CopyCommand.isPostgreSQL(url) ? Self.openPostgreSQL(url) : StoreFile.openReadOnly(url)
            defer { coordinator.removePersistentStore() }
            let report = try coordinator.checkIntegrity(quick: quick)
            guard report.isSound else {
                return CommandOutput(
                    standardOutput:
                        "\(shown): \(report.problems.count) \(report.problems.count == 1 ? "problem" : "problems")\n\(report)\n",
                    exitCode: .failure)
            }
            return CommandOutput(standardOutput: "\(shown): ok\n")
        } catch {
            return CommandOutput(standardError: "\(shown): \(error)\n", exitCode: .failure)
        }
    }

    /// The PostgreSQL store at `url` with the model it keeps, never migrated. (A PostgreSQL store
    /// cannot be opened read-only; opening an existing store writes nothing.)
    static func openPostgreSQL(_ url: URL) throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(
            managedObjectModel: try PersistentStoreCoordinator.metadataForPersistentStore(postgresURL: url).model)
        var description = PersistentStoreDescription(postgresURL: url)
        description.shouldMigrateStoreAutomatically = false
        try coordinator.addPersistentStore(with: description)
        return coordinator
    }
}
