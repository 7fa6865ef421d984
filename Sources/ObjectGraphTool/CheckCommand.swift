import ArgumentParser
import Foundation
import ObjectGraph

/// `objectgraph check STORE [--quick]`: the integrity check of a store file.
struct CheckCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a store's integrity: the file, its metadata, the references between objects.",
        discussion: "Opens the store read-only with the model it keeps; nothing is changed. Exits with status 1 when a problem is found."
    )

    @Argument(help: "The store file.", completion: .file())
    var store: String

    @Flag(help: "Run SQLite's quick_check (no index contents) instead of integrity_check.")
    var quick = false

    func output() -> CommandOutput {
        do {
            let coordinator = try StoreFile.openReadOnly(URL(fileURLWithPath: store))
            defer { coordinator.removePersistentStore() }
            let report = try coordinator.checkIntegrity(quick: quick)
            guard report.isSound else {
                return CommandOutput(
                    standardOutput:
                        "\(store): \(report.problems.count) \(report.problems.count == 1 ? "problem" : "problems")\n\(report)\n",
                    exitCode: .failure)
            }
            return CommandOutput(standardOutput: "\(store): ok\n")
        } catch {
            return CommandOutput(standardError: "\(store): \(error)\n", exitCode: .failure)
        }
    }
}
