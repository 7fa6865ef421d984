import ArgumentParser
import Foundation
import ObjectGraph

/// `objectgraph inspect STORE`: what a store file holds and which model wrote it.
struct InspectCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show which model wrote a store, its hashes, and how many objects each entity has.",
        discussion: "Opens the store read-only, with the model it keeps; nothing is changed."
    )

    @Argument(help: "The store file.", completion: .file())
    var store: String

    func output() -> CommandOutput {
        do {
            let url = URL(fileURLWithPath: store)
            let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(at: url)
            let counts = try Self.ownObjectCounts(at: url, model: metadata.model)
            var lines = [
                "\(store): ObjectGraph store \(metadata.storeIdentifier), created \(metadata.createdAt)",
                "  model:    \(metadata.modelName), version \(metadata.modelVersion)",
                "  hash:     \(metadata.modelVersionHash)",
                "  entities:"
            ]
            let width = metadata.model.entities.map(\.name.count).max() ?? 0
            for entity in metadata.model.entities {
                let name = entity.name.padding(toLength: width, withPad: " ", startingAt: 0)
                let count = counts[entity.name] ?? 0
                lines.append(
                    "    \(name)  \(count) \(count == 1 ? "object" : "objects")  \(metadata.entityVersionHashesByName[entity.name] ?? "")")
            }
            return CommandOutput(standardOutput: lines.joined(separator: "\n") + "\n")
        } catch {
            return CommandOutput(standardError: "\(error)\n", exitCode: .failure)
        }
    }

    /// How many objects of each entity (not counting its sub-entities') the store holds.
    private static func ownObjectCounts(at url: URL, model: ManagedObjectModel) throws -> [String: Int] {
        let coordinator = try StoreFile.openReadOnly(url)
        defer { coordinator.removePersistentStore() }
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait {
            var counts: [String: Int] = [:]
            for entity in model.entities {
                var request = FetchRequest<ManagedObject>(entityName: entity.name)
                request.includesSubentities = false
                counts[entity.name] = try context.count(for: request)
            }
            return counts
        }
    }
}
