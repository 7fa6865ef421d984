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
            let target = URL(fileURLWithPath: to)
            let source = try StoreFile.openReadOnly(URL(fileURLWithPath: store))
            defer { source.removePersistentStore() }
            try source.backup(to: target)
            let copy = try StoreFile.openReadOnly(target)
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
