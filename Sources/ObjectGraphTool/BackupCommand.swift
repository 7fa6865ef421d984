import ArgumentParser
import Foundation
import ObjectGraph

/// `objectgraph backup STORE --to FILE`: a consistent copy of a store, even while a program uses it.
struct BackupCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy a store into a new file, consistently, even while a program uses it.",
        discussion: "Uses SQLite's backup API in one read transaction; the copy is checked afterwards. Never overwrites a file."
    )

    @Argument(help: "The store file.", completion: .file())
    var store: String

    @Option(help: "The new file to write.", completion: .file())
    var to: String

    func output() -> CommandOutput {
        do {
            let url = URL(fileURLWithPath: store), target = URL(fileURLWithPath: to)
            let model = try PersistentStoreCoordinator.metadataForPersistentStore(at: url).model
            let source = PersistentStoreCoordinator(managedObjectModel: model)
            var description = PersistentStoreDescription(url: url)
            description.isReadOnly = true
            try source.addPersistentStore(with: description)
            defer { source.removePersistentStore() }
            try source.backup(to: target)
            let copy = PersistentStoreCoordinator(managedObjectModel: model)
            var copyDescription = PersistentStoreDescription(url: target)
            copyDescription.isReadOnly = true
            try copy.addPersistentStore(with: copyDescription)
            defer { copy.removePersistentStore() }
            let report = try copy.checkIntegrity(quick: true)
            guard report.isSound else {
                return CommandOutput(standardError: "\(to): the copy failed its integrity check:\n\(report)\n", exitCode: .failure)
            }
            return CommandOutput(standardOutput: "Backed up \(store) to \(to) (integrity check: ok).\n")
        } catch {
            return CommandOutput(standardError: "\(error)\n", exitCode: .failure)
        }
    }
}
