import ArgumentParser
import Foundation
import ObjectGraph

/// `objectgraph diff OLD.json NEW.json`: what changed between two model versions, and whether
/// a store of the older one migrates to the newer by inference.
struct DiffCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what changed between two model versions and whether migration can infer it.",
        discussion: "Exits with status 1 when a store of the older model cannot migrate to the newer one by inference."
    )

    @Argument(help: "The older model file.", completion: .file(extensions: ["json"]))
    var older: String

    @Argument(help: "The newer model file.", completion: .file(extensions: ["json"]))
    var newer: String

    func output() -> CommandOutput {
        do {
            let old = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: older))
            let new = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: newer))
            let differences = new.differences(from: old)
            var lines = [
                "'\(old.name)' version \(old.version) → '\(new.name)' version \(new.version): \(differences.changes.isEmpty ? "no changes" : "\(differences.changes.count) \(differences.changes.count == 1 ? "change" : "changes")")"
            ]
            lines += differences.changes.map { "  \($0)" }
            if differences.isInferable {
                lines.append("A store of version \(old.version) migrates to version \(new.version) by inference.")
            } else {
                lines.append(
                    "Not inferable: \(differences.issues.count) \(differences.issues.count == 1 ? "change" : "changes") cannot be carried across:"
                )
                lines += differences.issues.map { "  \($0)" }
            }
            return CommandOutput(
                standardOutput: lines.joined(separator: "\n") + "\n", exitCode: differences.isInferable ? .success : .failure)
        } catch {
            return CommandOutput(standardError: "\(error)\n", exitCode: .failure)
        }
    }
}
