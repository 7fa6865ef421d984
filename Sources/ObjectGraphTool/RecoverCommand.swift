import ArgumentParser
import Foundation
import ObjectGraph

/// `objectgraph recover DAMAGED --into NEW [--model FILE]`: salvage of a damaged store.
struct RecoverCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Copy every readable row of a damaged store into a new store.",
        discussion: """
            Reads the damaged file's pages directly, so a damaged header, schema, index or table page \
            costs only the rows it held. Uses the model kept in the damaged file, or --model when that \
            cannot be read. Never changes the damaged file; never overwrites a file. Prints what was \
            recovered per entity and what was skipped; exit status 1 when nothing could be recovered.
            """
    )

    @Argument(help: "The damaged store file (its -wal file beside it is read too).", completion: .file())
    var damaged: String

    @Option(help: "The new store file to write.", completion: .file())
    var into: String

    @Option(help: "The model JSON file, used when the damaged file's own model cannot be read.", completion: .file())
    var model: String?

    @Sendable private static func printProgress(_ progress: SalvageProgress) {
        let phase = progress.phase == .reading ? "reading pages" : "writing rows"
        FileHandle.standardError.write(Data("\r\(phase): \(progress.completed) of \(progress.total)\u{1B}[K".utf8))
    }

    func output() -> CommandOutput {
        do {
            let given = try model.map { try ManagedObjectModel(contentsOf: URL(fileURLWithPath: $0)) }
            // A progress line only for a person watching a terminal, rewritten in place.
            let showsProgress = isatty(STDERR_FILENO) == 1
            let report = try PersistentStoreCoordinator.recover(
                damaged: URL(fileURLWithPath: damaged), into: URL(fileURLWithPath: into), model: given,
                progress: showsProgress ? Self.printProgress : nil)
            if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            let text = "\(report)\nWrote \(into).\n"
            return report.rowsRecovered > 0 ? CommandOutput(standardOutput: text) : CommandOutput(standardOutput: text, exitCode: .failure)
        } catch {
            return CommandOutput(standardError: "\(error)\n", exitCode: .failure)
        }
    }
}
