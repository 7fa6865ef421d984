import ArgumentParser
import Foundation
import ObjectGraph

/// `objectgraph generate MODEL.json --output DIR`: writes the model's classes, as the build
/// plugin does, for projects that commit generated code.
struct GenerateCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate Swift classes for a model's entities.",
        discussion: """
            Writes one Swift file per model (MODEL.objectgraph.swift) into the output directory: a \
            ManagedObject subclass per entity with typed properties, relationship helpers, name \
            constants and the key-path table #Predicate uses. The build plugin generates the same \
            code on every build. For an invalid model, prints every problem as a compiler \
            diagnostic and exits with status 1.
            """
    )

    @Argument(help: "The model files.", completion: .file(extensions: ["json"]))
    var models: [String]

    @Option(name: [.short, .customLong("output")], help: "The directory to write the generated files into.", completion: .directory)
    var outputDirectory: String

    @Option(help: "The access level of the generated declarations (internal or public).")
    var access: String = "internal"

    func output() -> CommandOutput {
        guard let accessLevel = ClassGenerator.AccessLevel(rawValue: access) else {
            return CommandOutput(
                standardError: "error: --access must be internal or public, not '\(access)'\n", exitCode: .validationFailure)
        }
        var written: [String] = []
        var problems: [String] = []
        for path in models {
            let modelURL = URL(fileURLWithPath: path)
            let outputURL = URL(fileURLWithPath: outputDirectory).appendingPathComponent(
                ModelCodeGeneration.outputFileName(forModelAt: modelURL))
            do {
                try ModelCodeGeneration.generate(modelAt: modelURL, to: outputURL, accessLevel: accessLevel)
                written.append("wrote \(outputURL.path)")
            } catch {
                problems.append(ModelCodeGeneration.diagnostics(for: error, modelAt: modelURL))
            }
        }
        return CommandOutput(
            standardOutput: written.isEmpty ? "" : written.joined(separator: "\n") + "\n",
            standardError: problems.isEmpty ? "" : problems.joined(separator: "\n") + "\n",
            exitCode: problems.isEmpty ? .success : .failure)
    }
}
