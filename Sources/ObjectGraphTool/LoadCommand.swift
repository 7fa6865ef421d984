import ArgumentParser
import Foundation
import ObjectGraph

/// `objectgraph load DUMP --into NEW`: a store made from a dump.
struct LoadCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Make a new store from a dump written by `objectgraph dump`.",
        discussion: "One transaction: a dump that fails half-way leaves no file. Never overwrites a file."
    )

    @Argument(help: "The dump file.", completion: .file())
    var dump: String

    @Option(help: "The new store file.", completion: .file())
    var into: String

    func output() -> CommandOutput {
        do {
            try PersistentStoreCoordinator.loadStore(fromDump: URL(fileURLWithPath: dump), into: URL(fileURLWithPath: into))
            return CommandOutput(standardOutput: "Loaded \(dump) into \(into).\n")
        } catch {
            return CommandOutput(standardError: "\(error)\n", exitCode: .failure)
        }
    }
}
