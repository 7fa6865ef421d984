import ArgumentParser
import Foundation
import ObjectGraph

/// `objectgraph schema MODEL.json`: prints the SQL that creates the model's SQLite store.
struct SchemaCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the SQL schema the SQLite store creates for a model."
    )

    @Argument(help: "The model file.", completion: .file(extensions: ["json"]))
    var model: String

    /// Every statement of the schema, each ended by `;` on its own line; or, for a model that does
    /// not load, the error on standard error (so it never ends up in a redirected schema file).
    func output() -> CommandOutput {
        do {
            let loaded = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: model))
            return CommandOutput(standardOutput: loaded.sqliteSchema().map { $0 + ";\n" }.joined())
        } catch {
            return CommandOutput(standardError: "\(error)\n", exitCode: .failure)
        }
    }
}
