import ArgumentParser
import Foundation
import ObjectGraph

/// `objectgraph schema MODEL.json`: prints the SQL that creates the model's SQLite store.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the SQL schema the SQLite store creates for a model."
    )

    @Argument(help: "The model file.", completion: .file(extensions: ["json"]))
    var model: String

    func run() throws {
        let loaded: ManagedObjectModel
        do {
            loaded = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: model))
        } catch {
            // The SQL goes to standard output; problems go to standard error so they never end up
            // in a redirected schema file.
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode.failure
        }
        for statement in loaded.sqliteSchema() {
            print(statement, terminator: ";\n")
        }
    }
}
