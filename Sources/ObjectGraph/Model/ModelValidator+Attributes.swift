import Foundation

extension ModelValidator {
    static let attributeKeys = [
        "name", "type", "optional", "default", "minValue", "maxValue", "minLength", "maxLength", "regex",
        "indexed", "transient", "renamingIdentifier", "versionHashModifier", "preservesValueInHistoryOnDeletion", "valueTransformerName",
        "validation"
    ]

    /// The model-file type of transformable attributes: stored as `binary`, converted by the
    /// transformer their `valueTransformerName` names.
    static let transformableType = "transformable"

    /// Reads one attribute, checking each field against the attribute's type.
    mutating func readAttribute(_ node: JSONNode, at path: JSONPath, declared: inout DeclaredNames) -> PropertyReading<AttributeDraft> {
        let issuesBefore = log.issues.count
        guard let fields = readObject(node, at: path, expected: "an object describing an attribute", knownKeys: Self.attributeKeys) else {
            return .broken(nil)
        }
        let name = string("name", in: fields, required: true, expected: "the attribute's name")
        if let name { checkPropertyName(name, at: fields.path("name"), fields.position("name")) }
        if let name { checkUnique(name, in: fields, declared: &declared) }
        let (type, transformerName) = readTypeAndTransformer(fields)
        let isTransient = boolean("transient", in: fields) ?? false
        let isIndexed = boolean("indexed", in: fields) ?? false
        if isTransient && isIndexed {
            log.report(
                "found \"indexed\": true on a transient attribute, expected no index: transient attributes are not stored",
                at: fields.path("indexed"), fields.position("indexed"))
        }
        let preservesValue = boolean("preservesValueInHistoryOnDeletion", in: fields) ?? false
        if isTransient && preservesValue {
            log.report(
                "found \"preservesValueInHistoryOnDeletion\": true on a transient attribute, expected it only on stored attributes: history records stored values",
                at: fields.path("preservesValueInHistoryOnDeletion"), fields.position("preservesValueInHistoryOnDeletion"))
        }
        let renamingIdentifier = readRenamingIdentifier(fields, of: "attribute")
        guard let name, let type else { return .broken(name) }

        var draft = AttributeDraft(name: name, path: path, namePosition: fields.position("name"), type: type)
        draft.isOptional = boolean("optional", in: fields) ?? false
        draft.isTransient = isTransient
        draft.isIndexed = isIndexed
        draft.preservesValueInHistoryOnDeletion = preservesValue
        draft.renamingIdentifier = renamingIdentifier
        draft.valueTransformerName = transformerName
        draft.versionHashModifier = string(
            "versionHashModifier", in: fields, required: false, expected: Self.versionHashModifierExpectation)
        readValueLimits(into: &draft, fields)
        readLengthLimits(into: &draft, fields)
        readRegex(into: &draft, fields)
        readValidationPredicates(into: &draft, fields)
        readDefault(into: &draft, fields)
        return log.issues.count == issuesBefore ? .valid(draft) : .broken(name)
    }

    /// Reports the `name` of the property in `fields` when an earlier property of the same entity
    /// has the same name, ignoring case.
    mutating func checkUnique(_ name: String, in fields: JSONObjectFields, declared: inout DeclaredNames) {
        guard let earlier = declared.declare(name, at: fields.path) else { return }
        log.report(
            "found property name \"\(name)\" again (\(earlier.path) is \"\(earlier.name)\"; attributes and relationships share one namespace and names are compared ignoring case), expected a unique name",
            at: fields.path("name"), fields.position("name"))
    }

    /// The attribute's type, and for a `transformable` one (stored as `binary`) the name of its
    /// transformer, which it must have and other types must not.
    private mutating func readTypeAndTransformer(_ fields: JSONObjectFields) -> (AttributeType?, String?) {
        let type = readAttributeType(fields)
        let isTransformable = if case .string(Self.transformableType)? = fields["type"]?.value { true } else { false }
        guard let node = fields["valueTransformerName"] else {
            if isTransformable {
                log.report(
                    "found a transformable attribute without valueTransformerName, expected the name of a transformer registered with AttributeTransformers.register(_:forName:) (for Codable values, use the json type)",
                    at: fields.path("type"), fields.position("type"))
            }
            return (type, nil)
        }
        guard isTransformable else {
            log.report(
                "found valueTransformerName on \(type.map(attributePhrase) ?? "an attribute of unknown type"), expected it only on transformable attributes",
                at: fields.path("valueTransformerName"), node: node)
            return (type, nil)
        }
        if fields["default"] != nil {
            log.report(
                "found a default on a transformable attribute, expected none: its values exist only as the transformer makes them",
                at: fields.path("default"), fields.position("default"))
        }
        return (type, string("valueTransformerName", in: fields, required: true, expected: "the name of a registered transformer"))
    }

    private mutating func readAttributeType(_ fields: JSONObjectFields) -> AttributeType? {
        let validTypes = AttributeType.allCases.map(\.rawValue) + [Self.transformableType]
        let expected = "an attribute type (one of \(validTypes.joined(separator: ", ")))"
        guard let text = string("type", in: fields, required: true, expected: expected) else { return nil }
        if text == Self.transformableType { return .binary }
        if let type = AttributeType(rawValue: text) { return type }
        var message = "found unknown attribute type \"\(text)\", expected \(expected)"
        if let suggestion = closestName(to: text, among: validTypes) { message += "; did you mean \"\(suggestion)\"?" }
        log.report(message, at: fields.path("type"), fields.position("type"))
        return nil
    }

    /// `minValue`/`maxValue`: numbers for numeric attributes, ISO-8601 dates for date attributes.
    private mutating func readValueLimits(into draft: inout AttributeDraft, _ fields: JSONObjectFields) {
        for key in ["minValue", "maxValue"] {
            guard let node = fields[key] else { continue }
            guard draft.type.isNumeric || draft.type == .date else {
                log.report(
                    "found \(key) on \(attributePhrase(draft.type)), expected \(key) only on numeric and date attributes",
                    at: fields.path(key), node: node)
                continue
            }
            guard let value = literal(node, for: draft.type, at: fields.path(key)) else { continue }
            if key == "minValue" { draft.minimum = value } else { draft.maximum = value }
        }
        if let minimum = draft.minimum, let maximum = draft.maximum, minimum.modelOrder(comparedTo: maximum) == .orderedDescending {
            log.report(
                "found minValue \(minimum.modelLiteralText) greater than maxValue \(maximum.modelLiteralText), expected minValue <= maxValue",
                at: fields.path("minValue"), fields.position("minValue"))
        }
    }

    /// `minLength`/`maxLength`: non-negative whole numbers, for string and binary attributes.
    private mutating func readLengthLimits(into draft: inout AttributeDraft, _ fields: JSONObjectFields) {
        for key in ["minLength", "maxLength"] where fields[key] != nil && draft.type != .string && draft.type != .binary {
            log.report(
                "found \(key) on \(attributePhrase(draft.type)), expected \(key) only on string and binary attributes",
                at: fields.path(key), fields.position(key))
        }
        guard draft.type == .string || draft.type == .binary else { return }
        draft.minLength = integer("minLength", in: fields, minimum: 0)
        draft.maxLength = integer("maxLength", in: fields, minimum: 0)
        checkOrder("minLength", draft.minLength, "maxLength", draft.maxLength, in: fields)
    }

    /// `validation`: a list of `{"predicate": …, "message": …}`, each predicate about the value
    /// (`SELF`, `length`) and valid for the attribute's type.
    private mutating func readValidationPredicates(into draft: inout AttributeDraft, _ fields: JSONObjectFields) {
        let expected = "an array of {\"predicate\": …, \"message\": …} objects"
        guard let elements = array("validation", in: fields, expected: expected) else { return }
        for (position, element) in elements.enumerated() {
            let path = fields.path("validation").index(position)
            guard
                let rule = readObject(
                    element, at: path, expected: "a {\"predicate\": …, \"message\": …} object", knownKeys: ["predicate", "message"]),
                let format = string("predicate", in: rule, required: true, expected: "a predicate about the value (SELF, length)"),
                let message = string("message", in: rule, required: true, expected: "the text a failure gives")
            else { continue }
            do {
                draft.validationPredicates.append(
                    try ValidationPredicate(format: format, message: message, attributeName: draft.name, type: draft.type))
            } catch {
                log.report(
                    "found predicate \"\(format)\", which is not a valid predicate about a \(draft.type.rawValue) value (SELF is the value, length its length): \(error)",
                    at: rule.path("predicate"), rule.position("predicate"))
            }
        }
    }

    /// `regex`: string attributes only, and it must compile.
    private mutating func readRegex(into draft: inout AttributeDraft, _ fields: JSONObjectFields) {
        guard let node = fields["regex"] else { return }
        guard draft.type == .string else {
            log.report(
                "found regex on \(attributePhrase(draft.type)), expected regex only on string attributes", at: fields.path("regex"),
                node: node)
            return
        }
        guard let pattern = string("regex", in: fields, required: false, expected: "a regular expression") else { return }
        guard (try? NSRegularExpression(pattern: pattern)) != nil else {
            log.report(
                "found regex \"\(pattern)\", which does not compile, expected a valid ICU regular expression", at: fields.path("regex"),
                node: node)
            return
        }
        draft.regex = pattern
    }

    /// `default`: a literal of the attribute's type that also satisfies the attribute's own limits.
    private mutating func readDefault(into draft: inout AttributeDraft, _ fields: JSONObjectFields) {
        guard let node = fields["default"] else { return }
        let path = fields.path("default")
        if case .null = node.value {
            log.report(
                "found null, expected a \(draft.type.rawValue) value (leave out \"default\" when there is none)", at: path, node: node)
            return
        }
        guard let value = literal(node, for: draft.type, at: path) else { return }
        draft.defaultValue = value
        if let minimum = draft.minimum, value.modelOrder(comparedTo: minimum) == .orderedAscending {
            log.report(
                "found default \(value.modelLiteralText), expected a value of at least minValue \(minimum.modelLiteralText)", at: path,
                node: node)
        }
        if let maximum = draft.maximum, value.modelOrder(comparedTo: maximum) == .orderedDescending {
            log.report(
                "found default \(value.modelLiteralText), expected a value of at most maxValue \(maximum.modelLiteralText)", at: path,
                node: node)
        }
        if let length = value.modelLength {
            let unit = draft.type == .string ? "characters" : "bytes"
            if let minLength = draft.minLength, length < minLength {
                log.report("found a default of \(length) \(unit), expected at least minLength \(minLength)", at: path, node: node)
            }
            if let maxLength = draft.maxLength, length > maxLength {
                log.report("found a default of \(length) \(unit), expected at most maxLength \(maxLength)", at: path, node: node)
            }
        }
        if let pattern = draft.regex, case .string(let text) = value, !matchesEntirely(text, pattern: pattern) {
            log.report("found default \(found(node)), expected a string matching the regex \"\(pattern)\" entirely", at: path, node: node)
        }
    }

    private mutating func literal(_ node: JSONNode, for type: AttributeType, at path: JSONPath) -> AttributeValue? {
        switch AttributeValue.fromModelLiteral(node, type: type) {
        case .success(let value): return value
        case .failure(let mismatch):
            log.report("found \(found(node)), expected \(mismatch.expected) for \(attributePhrase(type))", at: path, node: node)
            return nil
        }
    }
}

/// Whether `pattern` matches all of `text`, not just part of it (the `regex` rule's meaning).
func matchesEntirely(_ text: String, pattern: String) -> Bool {
    wholeStringExpression(pattern).map { matchesEntirely(text, $0) } ?? false
}

/// `pattern` compiled to match whole strings only, or `nil` when it is not a valid expression.
func wholeStringExpression(_ pattern: String) -> NSRegularExpression? {
    try? NSRegularExpression(pattern: "\\A(?:\(pattern))\\z")
}

/// Whether `expression` (from `wholeStringExpression`) matches `text`.
func matchesEntirely(_ text: String, _ expression: NSRegularExpression) -> Bool {
    expression.firstMatch(in: text, range: NSRange(text.startIndex..<text.endIndex, in: text)) != nil
}

/// "a string attribute", "an integer32 attribute".
private func attributePhrase(_ type: AttributeType) -> String {
    let article = type.rawValue.first.map { "aeiou".contains($0) } == true ? "an" : "a"
    return "\(article) \(type.rawValue) attribute"
}
