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
