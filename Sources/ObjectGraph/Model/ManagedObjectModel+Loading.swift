import Foundation
import Logging

extension ManagedObjectModel {
    /// Loads and validates the JSON model file at `url`.
    ///
    /// Throws an `ObjectGraphError` of kind `.invalidModel` when the file cannot be read, is not
    /// valid JSON, or describes an inconsistent model; its `issues` list every problem with the
    /// file, the JSON path, the line and column, and what was found and expected.
    public convenience init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let issue = ModelIssue(file: url.path, path: "", message: "cannot read the model file: \(error.localizedDescription)")
            throw ModelIssueLog.error(for: [issue], displayName: url.lastPathComponent)
        }
        try self.init(data: data, file: url.path, sourceURL: url)
    }

    /// Loads every version of one model from a folder of JSON files, one per version (the
    /// layout `Models/Library/1.json`, `2.json`, …; the file names do not matter, the `"version"`
    /// inside does): the newest version, with the others as its `previousVersions`. Throws when
    /// the folder holds no model, models of different names, or two files of one version.
    public convenience init(versionsIn directory: URL) throws {
        let files = ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
        let versions = try files.map(ManagedObjectModel.init(contentsOf:)).sorted { $0.version < $1.version }
        guard let newest = versions.last, let url = newest.sourceURL else {
            throw ObjectGraphError(
                .invalidModel, "No model versions in \(directory.path): expected one JSON model file per version (1.json, 2.json, …)")
        }
        if let other = versions.first(where: { $0.name != newest.name }) {
            throw ObjectGraphError(
                .invalidModel,
                "\(directory.path) holds versions of more than one model ('\(other.name)' in \(other.sourceURL?.lastPathComponent ?? "?"), '\(newest.name)' in \(url.lastPathComponent)); keep one model's versions per folder"
            )
        }
        for (earlier, later) in zip(versions, versions.dropFirst()) where earlier.version == later.version {
            throw ObjectGraphError(
                .invalidModel,
                "\(directory.path) holds two files of version \(later.version) of '\(newest.name)': \(earlier.sourceURL?.lastPathComponent ?? "?") and \(later.sourceURL?.lastPathComponent ?? "?")"
            )
        }
        try self.init(data: try Data(contentsOf: url), file: url.path, sourceURL: url, previousVersions: Array(versions.dropLast()))
    }

    /// Loads and validates a JSON model from `data`. `sourceName` (a file name, say) is used in
    /// error messages in place of a path.
    public convenience init(data: Data, sourceName: String? = nil) throws {
        try self.init(data: data, file: sourceName, sourceURL: nil)
    }

    /// Loads the model `name` (with or without `.json`) from `bundle`: `name.json` at the bundle's
    /// resource root, or in its `Models` subdirectory.
    public convenience init(named name: String, in bundle: Bundle) throws {
        let baseName = Self.baseName(name)
        guard let url = Self.modelURL(baseName, in: bundle) else {
            throw Self.modelNotFound(
                baseName, place: "bundle \(bundle.bundlePath) (looked for \(baseName).json at its root and in Models/)",
                available: Self.modelURLs(in: bundle))
        }
        try self.init(contentsOf: url)
    }

    /// `baseName.json` at `bundle`'s resource root or in its `Models` subdirectory.
    static func modelURL(_ baseName: String, in bundle: Bundle) -> URL? {
        bundle.url(forResource: baseName, withExtension: "json")
            ?? bundle.url(forResource: baseName, withExtension: "json", subdirectory: "Models")
    }

    /// Every `.json` file where `modelURL(_:in:)` looks, for "did you mean".
    static func modelURLs(in bundle: Bundle) -> [URL] {
        (bundle.paths(forResourcesOfType: "json", inDirectory: nil) + bundle.paths(forResourcesOfType: "json", inDirectory: "Models"))
            .map { URL(fileURLWithPath: $0) }
    }

    /// Loads the model `name` (with or without `.json`) from `name.json` in `directory`.
    public convenience init(named name: String, inDirectory directory: URL) throws {
        let baseName = Self.baseName(name)
        let url = directory.appendingPathComponent(baseName + ".json")
        guard FileManager.default.fileExists(atPath: url.path) else {
            let contents =
                (try? FileManager.default.contentsOfDirectory(at: directory.resolvingSymlinksInPath(), includingPropertiesForKeys: nil))
                ?? []
            throw Self.modelNotFound(
                baseName, place: "directory \(directory.path)", available: contents.filter { $0.pathExtension == "json" })
        }
        try self.init(contentsOf: url)
    }

    /// Parses, validates and builds the model; `file` names the source in issues.
    convenience init(data: Data, file: String?, sourceURL: URL?, previousVersions: [ManagedObjectModel] = []) throws {
        let displayName = file.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "<data>"
        let root: JSONNode
        do {
            root = try ModelJSONParser.parse(data)
        } catch {
            let issue = ModelIssue(
                file: file, path: "", message: "malformed JSON: \(error.message)",
                line: error.position.line, column: error.position.column)
            throw ModelIssueLog.error(for: [issue], displayName: displayName)
        }
        switch ModelValidator.validate(root, file: file) {
        case .invalid(let issues):
            throw ModelIssueLog.error(for: issues, displayName: displayName)
        case .valid(let draft):
            let entities = ModelBuilder.makeEntities(draft)
            self.init(
                name: draft.name, version: draft.version, entities: entities,
                versionHash: ModelVersionHash.compute(for: entities),
                canonicalJSON: Data(root.canonicalText.utf8), sourceURL: sourceURL, previousVersions: previousVersions)
            let overflows = sqliteTablesOverColumnLimit()
            guard overflows.isEmpty else {
                throw ModelIssueLog.error(
                    for: overflows.map { root, columns in
                        let draft = draft.entities[root.index]
                        let members = kinds(of: root).count
                        return ModelIssue(
                            file: file, path: draft.path.description,
                            message:
                                "\(root.name)\(members > 1 ? " and its \(members - 1) sub-entities, which share its table," : "") would need a table of \(columns) columns (attributes, to-one relationships and ObjectGraph's own), more than the \(Self.maximumSQLiteColumns) SQLite allows; move attributes into related entities",
                            line: draft.namePosition.line, column: draft.namePosition.column)
                    }, displayName: displayName)
            }
            let logger = Logger(label: "ObjectGraph.Model")
            for warning in warnings { logger.warning("\(displayName): \(warning)") }
        }
    }

    static func baseName(_ name: String) -> String {
        name.hasSuffix(".json") ? String(name.dropLast(5)) : name
    }

    static func modelNotFound(_ name: String, place: String, available: [URL]) -> ObjectGraphError {
        let names = available.map { $0.deletingPathExtension().lastPathComponent }.sorted()
        var message = "no model named \"\(name)\" in \(place)"
        if let suggestion = closestName(to: name, among: names) {
            message += "; did you mean \"\(suggestion)\"?"
        } else if !names.isEmpty {
            message += "; the models there are \(names.joined(separator: ", "))"
        }
        var error = ObjectGraphError(.invalidModel, message)
        error.issues = [ModelIssue(file: nil, path: "", message: message)]
        return error
    }
}
