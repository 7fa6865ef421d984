import ArgumentParser
import Foundation
import ObjectGraph

/// `objectgraph validate MODEL.json...`: loads each model and prints a summary, or every problem.
struct ValidateCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check model files and summarise them.",
        discussion: """
            Prints each valid model's name, version, version hash and entities. For an invalid \
            model, prints every problem with its file, line, column and JSON path, and exits with \
            status 1.
            """
    )

    @Argument(help: "The model files to check.", completion: .file(extensions: ["json"]))
    var models: [String]

    /// One section per model, in argument order, separated by blank lines: a summary for a valid
    /// model, every problem for an invalid one. Fails if any model is invalid.
    func output() -> CommandOutput {
        var failed = false
        var sections: [String] = []
        for path in models {
            do {
                let model = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: path))
                sections.append(summary(of: model, path: path))
            } catch {
                failed = true
                sections.append("\(error)")
            }
        }
        return CommandOutput(
            standardOutput: sections.joined(separator: "\n\n") + "\n",
            exitCode: failed ? .failure : .success
        )
    }

    private func summary(of model: ManagedObjectModel, path: String) -> String {
        var lines = [
            "\(URL(fileURLWithPath: path).lastPathComponent): valid",
            "  model:    \(model.name), version \(model.version)",
            "  hash:     \(model.versionHash)",
            "  entities: \(model.entities.count)"
        ]
        let width = model.entities.map(\.name.count).max() ?? 0
        for entity in model.entities {
            let name = entity.name.padding(toLength: width, withPad: " ", startingAt: 0)
            lines.append("    \(name)  \(details(of: entity))")
        }
        lines += model.warnings.map { "  warning: \($0)" }
        return lines.joined(separator: "\n")
    }

    private func details(of entity: EntityDescription) -> String {
        let transient = entity.attributes.filter(\.isTransient).count
        var parts = [counted(entity.attributes.count, "attribute") + (transient > 0 ? " (\(transient) transient)" : "")]
        if let key = entity.primaryKey, entity.parentName == nil { parts.append("primary key \(key)") }
        if !entity.relationships.isEmpty { parts.append(counted(entity.relationships.count, "relationship")) }
        if !entity.uniquenessConstraints.isEmpty { parts.append(counted(entity.uniquenessConstraints.count, "uniqueness constraint")) }
        if !entity.indexes.isEmpty { parts.append(counted(entity.indexes.count, "compound index", plural: "compound indexes")) }
        if entity.isAbstract { parts.append("abstract") }
        if let parent = entity.parentName { parts.append("parent \(parent)") }
        return parts.joined(separator: ", ")
    }

    private func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }
}
