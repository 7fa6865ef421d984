import ArgumentParser
import Foundation
import ObjectGraph

/// `objectgraph migrate STORE --model MODEL [--dry-run]`: migrates a store to a model version,
/// or shows the plan.
struct MigrateCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a store to a model version, or show the plan with --dry-run.",
        discussion: """
            MODEL is a model file, or a folder with one file per version (1.json, 2.json, …), \
            whose newest version is the target; a store then migrates through each version in \
            between. With --dry-run, prints every SQL statement the migration would run, step by \
            step, and changes nothing. A change that cannot be inferred is listed with its JSON \
            path, and the command exits with status 1. On a terminal, a progress line shows \
            the rows copied.
            """
    )

    @Argument(help: "The store file.", completion: .file())
    var store: String

    @Option(help: "The model file, or a folder of model versions.", completion: .file(extensions: ["json"]))
    var model: String

    @Flag(help: "Print the plan and change nothing.")
    var dryRun = false

    func output() -> CommandOutput {
        do {
            let storeURL = URL(fileURLWithPath: store), modelURL = URL(fileURLWithPath: model)
            var isDirectory: ObjCBool = false
            let isFolder = FileManager.default.fileExists(atPath: model, isDirectory: &isDirectory) && isDirectory.boolValue
            let target = isFolder ? try ManagedObjectModel(versionsIn: modelURL) : try ManagedObjectModel(contentsOf: modelURL)
            let before = try PersistentStoreCoordinator.metadataForPersistentStore(at: storeURL)
            guard let plan = try PersistentStoreCoordinator.migrationPlan(forStoreAt: storeURL, to: target) else {
                return CommandOutput(standardOutput: "\(store) is already at '\(target.name)' version \(target.version); nothing to do.\n")
            }
            if dryRun {
                return CommandOutput(
                    standardOutput:
                        "Plan for \(store), '\(before.modelName)' version \(before.modelVersion) → '\(target.name)' version \(target.version) (nothing was changed):\n\(plan)\n"
                )
            }
            let container = PersistentContainer(name: target.name, managedObjectModel: target)
            var description = PersistentStoreDescription(url: storeURL)
            // A progress line for a person watching, rewritten in place; none in a log or a pipe.
            if isatty(STDERR_FILENO) != 0 {
                description.migrationProgressHandler = { progress in
                    FileHandle.standardError.write(Data("\r\u{1B}[K\(progress)\(progress.step == "done" ? "\n" : "")".utf8))
                }
            }
            container.persistentStoreDescriptions = [description]
            try container.loadPersistentStores()
            container.persistentStoreCoordinator.removePersistentStore()
            return CommandOutput(
                standardOutput:
                    "Migrated \(store) from '\(before.modelName)' version \(before.modelVersion) to '\(target.name)' version \(target.version).\n"
            )
        } catch {
            return CommandOutput(standardError: "\(error)\n", exitCode: .failure)
        }
    }
}
