import Foundation

extension ManagedObjectModel {
    /// Loads the model `name` (with or without `.json`) from the program's own bundles, as Core
    /// Data's `NSPersistentContainer(name:)` finds its model: the main bundle, then the resource
    /// bundles SwiftPM puts beside the executable (`<Package>_<Target>.resources`, what a target's
    /// `resources: [.process("Models")]` becomes), in name order; `name.json` at a bundle's root
    /// or in its `Models` subdirectory. A library or test target's own resources are surest with
    /// `init(named:in: .module)`.
    public convenience init(named name: String) throws {
        let baseName = Self.baseName(name)
        let bundles = Self.programBundles()
        if let url = bundles.lazy.compactMap({ Self.modelURL(baseName, in: $0) }).first {
            try self.init(contentsOf: url)
            return
        }
        let available = bundles.flatMap(Self.modelURLs(in:))
        throw Self.modelNotFound(
            baseName,
            place:
                "the program's bundles (\(bundles.map(\.bundlePath).joined(separator: ", "))); a target's own resources load with ManagedObjectModel(named:in: .module)",
            available: available)
    }

    /// The main bundle and the SwiftPM resource bundles beside it, in name order.
    private static func programBundles() -> [Bundle] {
        let directory = Bundle.main.bundleURL
        let resourceBundles = ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "resources" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
            .compactMap(Bundle.init(url:))
        return [Bundle.main] + resourceBundles
    }
}
