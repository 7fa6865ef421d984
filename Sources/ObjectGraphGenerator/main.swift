// The build plugin's generator: `ObjectGraphGenerator MODEL.json OUTPUT.swift` writes the model's
// classes, or prints every problem of the model as a compiler diagnostic and fails the build.
import Foundation
import ObjectGraph

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let modelPath = arguments.first, let outputPath = arguments.last else {
    FileHandle.standardError.write(Data("usage: ObjectGraphGenerator MODEL.json OUTPUT.swift\n".utf8))
    exit(2)
}
let modelURL = URL(fileURLWithPath: modelPath)
do {
    try ModelCodeGeneration.generate(modelAt: modelURL, to: URL(fileURLWithPath: outputPath))
} catch {
    FileHandle.standardError.write(Data((ModelCodeGeneration.diagnostics(for: error, modelAt: modelURL) + "\n").utf8))
    exit(1)
}
