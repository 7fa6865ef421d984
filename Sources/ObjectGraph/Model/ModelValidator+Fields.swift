/// One JSON object being read as a model element: its members by key (first occurrence) and its path.
struct JSONObjectFields {
    let node: JSONNode
    let path: JSONPath
    let members: [String: JSONMember]

    subscript(key: String) -> JSONNode? { members[key]?.value }

    /// The path of member `key`, whether or not it is present.
    func path(_ key: String) -> JSONPath { path.key(key) }

    /// Where member `key`'s value starts, or where the object starts when the member is absent.
    func position(_ key: String) -> SourcePosition { members[key]?.value.position ?? node.position }
}

/// "found …" text for a value: scalars as written with their kind, containers by kind.
func found(_ node: JSONNode) -> String {
    switch node.value {
    case .null, .array, .object: node.foundDescription
    case .boolean, .number, .string: "\(node.foundDescription) (\(node.kindDescription))"
    }
}

extension ModelValidator {
    /// `node` as an object whose keys must come from `knownKeys`; reports a non-object, unknown
    /// keys (suggesting the closest known one) and repeated keys.
    mutating func readObject(_ node: JSONNode, at path: JSONPath, expected: String, knownKeys: [String]) -> JSONObjectFields? {
        guard case .object(let members) = node.value else {
            log.report("found \(found(node)), expected \(expected)", at: path, node: node)
            return nil
        }
        var byKey: [String: JSONMember] = [:]
        for member in members {
            let memberPath = path.key(member.key)
            if byKey[member.key] != nil {
                log.report(
                    "found the key \"\(member.key)\" a second time in the same object, expected each key once", at: memberPath,
                    member.keyPosition)
                continue
            }
            byKey[member.key] = member
            guard !knownKeys.contains(member.key) else { continue }
            var message = "found unknown field \"\(member.key)\""
            if let suggestion = closestName(to: member.key, among: knownKeys) {
                message += "; did you mean \"\(suggestion)\"?"
            } else {
                message += ", expected one of: \(knownKeys.joined(separator: ", "))"
            }
            log.report(message, at: memberPath, member.keyPosition)
        }
        return JSONObjectFields(node: node, path: path, members: byKey)
    }

    /// Reports a required field that is absent, at the position of the object that lacks it.
    mutating func reportMissing(_ key: String, in fields: JSONObjectFields, expected: String) {
        log.report("missing required field \"\(key)\", expected \(expected)", at: fields.path(key), node: fields.node)
    }

    /// A string field; `nil` (with an issue) when it is not a string, or when it is required and absent.
    mutating func string(_ key: String, in fields: JSONObjectFields, required: Bool, expected: String = "a string") -> String? {
        guard let node = fields[key] else {
            if required { reportMissing(key, in: fields, expected: expected) }
            return nil
        }
        guard case .string(let text) = node.value else {
            log.report("found \(found(node)), expected \(expected)", at: fields.path(key), node: node)
            return nil
        }
        return text
    }

    /// A Boolean field; `nil` when absent or (with an issue) not `true`/`false`.
    mutating func boolean(_ key: String, in fields: JSONObjectFields) -> Bool? {
        guard let node = fields[key] else { return nil }
        guard case .boolean(let flag) = node.value else {
            log.report("found \(found(node)), expected true or false", at: fields.path(key), node: node)
            return nil
        }
        return flag
    }

    /// A whole-number field of at least `minimum`; `nil` when absent (reported if `required`) or invalid.
    mutating func integer(_ key: String, in fields: JSONObjectFields, required: Bool = false, minimum: Int) -> Int? {
        let expected = "a whole number of at least \(minimum)"
        guard let node = fields[key] else {
            if required { reportMissing(key, in: fields, expected: expected) }
            return nil
        }
        guard case .number(let text) = node.value, let value = Int(text), value >= minimum else {
            log.report("found \(found(node)), expected \(expected)", at: fields.path(key), node: node)
            return nil
        }
        return value
    }

    /// An array field; `nil` when absent (reported if `required`) or (with an issue) not an array.
    mutating func array(_ key: String, in fields: JSONObjectFields, required: Bool = false, expected: String) -> [JSONNode]? {
        guard let node = fields[key] else {
            if required { reportMissing(key, in: fields, expected: expected) }
            return nil
        }
        guard case .array(let elements) = node.value else {
            log.report("found \(found(node)), expected \(expected)", at: fields.path(key), node: node)
            return nil
        }
        return elements
    }

    /// Reports a lower limit above its upper limit, for pairs such as `minLength`/`maxLength`.
    mutating func checkOrder(_ minimumKey: String, _ minimum: Int?, _ maximumKey: String, _ maximum: Int?, in fields: JSONObjectFields) {
        guard let minimum, let maximum, minimum > maximum, let node = fields[minimumKey] else { return }
        log.report(
            "found \(minimumKey) \(minimum) greater than \(maximumKey) \(maximum), expected \(minimumKey) <= \(maximumKey)",
            at: fields.path(minimumKey), node: node)
    }
}
