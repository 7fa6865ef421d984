import Foundation
import PackagePlugin

/// Generates the classes of every model in the target it is applied to, on every build: each file
/// in the target's directory whose name ends in `.objectgraph.json` becomes
/// `NAME.objectgraph.swift` in the plugin's work directory, compiled with the target. A model
/// error fails the build with compiler diagnostics pointing into the JSON file.
@main
struct ObjectGraphPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let generator = try context.tool(named: "ObjectGraphGenerator").url
        return target.sourceFiles
            .filter { $0.url.lastPathComponent.hasSuffix(Self.modelSuffix) }
            .map { file in
                let name = String(file.url.lastPathComponent.dropLast(Self.modelSuffix.count))
                let output = context.pluginWorkDirectoryURL.appending(path: "\(name).objectgraph.swift")
                return .buildCommand(
                    displayName: "Generating ObjectGraph classes from \(file.url.lastPathComponent)",
                    executable: generator,
                    arguments: [file.url.path, output.path],
                    inputFiles: [file.url],
                    outputFiles: [output])
            }
    }

    /// How model files are recognised among a target's files.
    static let modelSuffix = ".objectgraph.json"
}
