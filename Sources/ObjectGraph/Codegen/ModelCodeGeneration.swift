import Foundation

/// Generating a model file's classes into a Swift file: what `objectgraph generate` and the build
/// plugin's generator both run.
package enum ModelCodeGeneration {
    /// The generated file's name for a model file: `Library.json` and `Library.objectgraph.json`
    /// both give `Library.objectgraph.swift` (a name no hand-written file is likely to have: two
    /// files of one name in a module do not build).
    package static func outputFileName(forModelAt modelURL: URL) -> String {
        var base = modelURL.lastPathComponent
        for suffix in [".json", ".objectgraph"] where base.hasSuffix(suffix) { base.removeLast(suffix.count) }
        return base + ".objectgraph.swift"
    }

    /// Loads and validates the model at `modelURL` and writes its classes to `outputURL` (left
    /// untouched when its contents would not change, so nothing recompiles needlessly). Throws
    /// the model's `.invalidModel` error, or a readable error when a file cannot be written.
    package static func generate(modelAt modelURL: URL, to outputURL: URL, accessLevel: ClassGenerator.AccessLevel = .internal) throws {
        let model = try ManagedObjectModel(contentsOf: modelURL)
        let source = ClassGenerator(model: model, sourceFileName: modelURL.lastPathComponent, accessLevel: accessLevel).source()
        let data = Data(source.utf8)
        if (try? Data(contentsOf: outputURL)) == data { return }
        do {
            try FileManager.default.createDirectory(at: outputURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: outputURL, options: .atomic)
        } catch {
            throw ObjectGraphError(
                .invalidOperation, "cannot write the generated classes to \(outputURL.path): \(error.localizedDescription)")
        }
    }

    /// `error` as compiler diagnostics, one line each (`file:line:column: error: path: message`),
    /// so IDEs and build logs point at the place in the model file.
    package static func diagnostics(for error: any Error, modelAt modelURL: URL) -> String {
        guard let error = error as? ObjectGraphError, !error.issues.isEmpty else {
            return "\(modelURL.path): error: \(error)"
        }
        return error.issues.map { issue in
            var location = issue.file ?? modelURL.path
            location += ":\(issue.line ?? 1):\(issue.column ?? 1)"
            let path = issue.path.isEmpty ? "" : "\(issue.path): "
            return "\(location): error: \(path)\(issue.message)"
        }.joined(separator: "\n")
    }
}
