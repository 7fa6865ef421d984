import ArgumentParser

/// The `objectgraph` command-line tool: checks model files, shows what a store would hold and
/// holds, and migrates and copies stores.
@main
struct ObjectGraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "objectgraph",
        abstract: "Work with ObjectGraph models and stores.",
        discussion: "Models are JSON files in the format described in the ObjectGraph documentation.",
        subcommands: [
            ValidateCommand.self, SchemaCommand.self, GenerateCommand.self, InspectCommand.self, MigrateCommand.self, DiffCommand.self,
            CheckCommand.self, BackupCommand.self, DumpCommand.self, LoadCommand.self, RecoverCommand.self, CopyCommand.self
        ]
    )
}
