import ArgumentParser
import Foundation
import ObjectGraph

/// `objectgraph dump STORE --to FILE`: a store as SQL text.
struct DumpCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Write a store as SQL text: its schema, every row, its metadata.",
        discussion: "Reads one snapshot, even while a program uses the store. `objectgraph load` makes a store from the text again."
    )

    @Argument(help: "The store file.", completion: .file())
    var store: String

    @Option(help: "The new file to write.", completion: .file())
    var to: String

    func output() -> CommandOutput {
        do {
            let coordinator = try StoreFile.openReadOnly(URL(fileURLWithPath: store))
            defer { coordinator.removePersistentStore() }
            try coordinator.dump(to: URL(fileURLWithPath: to))
            return CommandOutput(standardOutput: "Dumped \(store) to \(to).\n")
        } catch {
            return CommandOutput(standardError: "\(error)\n", exitCode: .failure)
        }
    }
}
