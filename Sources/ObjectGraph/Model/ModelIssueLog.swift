/// A JSON path such as `entities[2].attributes[0].type`, naming a value inside a model file.
struct JSONPath: Sendable, CustomStringConvertible {
    /// The path of the document itself (printed as an empty string).
    static let root = JSONPath(description: "")

    let description: String

    /// The path of member `key` of the object at this path.
    func key(_ key: String) -> JSONPath {
        JSONPath(description: description.isEmpty ? key : "\(description).\(key)")
    }

    /// The path of element `index` of the array at this path.
    func index(_ index: Int) -> JSONPath {
        JSONPath(description: "\(description)[\(index)]")
    }
}

/// Collects every problem found while reading a model, so a model is refused once with all of
/// them rather than one at a time.
struct ModelIssueLog {
    /// The file (or source name) the issues are reported against.
    let file: String?
    private(set) var issues: [ModelIssue] = []

    init(file: String?) {
        self.file = file
    }

    /// Records that the value at `path`, which starts at `position`, is wrong.
    mutating func report(_ message: String, at path: JSONPath, _ position: SourcePosition?) {
        issues.append(ModelIssue(file: file, path: path.description, message: message, line: position?.line, column: position?.column))
    }

    /// Records a problem with `node` itself, at `path`.
    mutating func report(_ message: String, at path: JSONPath, node: JSONNode) {
        report(message, at: path, node.position)
    }

    /// The `.invalidModel` error listing every issue, one per line, under a summary naming the file.
    static func error(for issues: [ModelIssue], displayName: String) -> ObjectGraphError {
        let count = issues.count == 1 ? "1 problem" : "\(issues.count) problems"
        let lines = ["\(displayName): \(count) in the model:"] + issues.map { "  \($0)" }
        var error = ObjectGraphError(.invalidModel, lines.joined(separator: "\n"))
        error.issues = issues
        return error
    }
}
