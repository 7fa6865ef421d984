import Foundation

/// Why a JSON value in a model file cannot stand for a value of an attribute type: what was expected.
struct ModelLiteralMismatch: Error {
    let expected: String
}

extension AttributeValue {
    /// The value a model file writes as `node` for an attribute of `type` (a `default`, `minValue`
    /// or `maxValue`).
    ///
    /// Integers (all widths) must be written as whole numbers, without fraction or exponent, and
    /// fit the width; doubles and floats must be finite in their type; decimals are numbers or
    /// strings such as `"12.50"`, read exactly; dates are ISO-8601 strings only (see
    /// `ModelDateLiteral`); binary is base64; uuid a UUID string; uri an absolute URL written in
    /// its final (percent-encoded) form; json any JSON value.
    static func fromModelLiteral(_ node: JSONNode, type: AttributeType) -> Result<AttributeValue, ModelLiteralMismatch> {
        let value: AttributeValue?
        switch type {
        case .integer16, .integer32, .integer64:
            let range = type.integerRange ?? Int64.min...Int64.max
            guard case .number(let text) = node.value, let integer = Int64(text), range.contains(integer) else {
                return .failure(ModelLiteralMismatch(expected: "a whole number between \(range.lowerBound) and \(range.upperBound)"))
            }
            value = .integer(integer)
        case .double:
            value = numberText(node).flatMap { Double($0) }.flatMap { $0.isFinite ? .double($0) : nil }
        case .float:
            value = numberText(node).flatMap { Float($0) }.flatMap { $0.isFinite ? .float($0) : nil }
        case .decimal:
            value = decimalLiteral(node).map { .decimal($0) }
        case .string:
            value = node.stringValue.map { .string($0) }
        case .boolean:
            if case .boolean(let flag) = node.value { value = .boolean(flag) } else { value = nil }
        case .date:
            value = node.stringValue.flatMap(ModelDateLiteral.parse).map { .date($0) }
        case .binary:
            value = node.stringValue.flatMap { Data(base64Encoded: $0) }.map { .binary($0) }
        case .uuid:
            value = node.stringValue.flatMap { UUID(uuidString: $0) }.map { .uuid($0) }
        case .uri:
            value = node.stringValue.flatMap(absoluteURL).map { .uri($0) }
        case .json:
            value = .json(JSONDocument(validatedData: Data(node.canonicalText.utf8)))
        }
        if let value { return .success(value) }
        return .failure(ModelLiteralMismatch(expected: expectedLiteral(for: type)))
    }

    /// How `self` orders against `other` when both are numbers of one kind or both dates; `nil`
    /// for values with no order a model's limits can use.
    func modelOrder(comparedTo other: AttributeValue) -> ComparisonResult? {
        switch (self, other) {
        case (.integer(let a), .integer(let b)): order(a, b)
        case (.double(let a), .double(let b)): order(a, b)
        case (.float(let a), .float(let b)): order(a, b)
        case (.decimal(let a), .decimal(let b)): order(a, b)
        case (.date(let a), .date(let b)): order(a, b)
        default: nil
        }
    }

    /// The length `minLength`/`maxLength` limit: characters of a string, bytes of binary data.
    var modelLength: Int? {
        switch self {
        case .string(let text): text.count
        case .binary(let data): data.count
        default: nil
        }
    }

    /// The value as a model file would show it in a message (dates in ISO-8601).
    var modelLiteralText: String {
        if case .date(let date) = self { return UTCDateText.iso8601(date) }
        return debugText
    }
}

private func order<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
    a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
}

private func numberText(_ node: JSONNode) -> String? {
    if case .number(let text) = node.value { return text }
    return nil
}

/// A decimal written as a JSON number or as a string holding a JSON number, read exactly.
private func decimalLiteral(_ node: JSONNode) -> Decimal? {
    let text: String
    switch node.value {
    case .number(let literal): text = literal
    case .string(let string):
        // The string must be a JSON number literal itself: Decimal(string:) alone would accept "12abc".
        guard case .number? = (try? ModelJSONParser.parse(string.utf8))?.value else { return nil }
        text = string
    default: return nil
    }
    guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !decimal.isNaN else { return nil }
    return decimal
}

/// `text` as an absolute URL, provided it is already in the form the URL keeps (so the stored
/// `absoluteString` is exactly what the model file says).
private func absoluteURL(_ text: String) -> URL? {
    guard let url = URL(string: text), url.scheme != nil, url.absoluteString == text else { return nil }
    return url
}

private func expectedLiteral(for type: AttributeType) -> String {
    switch type {
    case .integer16, .integer32, .integer64: "a whole number"
    case .double: "a number within the range of a double"
    case .float: "a number within the range of a float (±3.4e38)"
    case .decimal: "a number, or a string holding a number such as \"12.50\""
    case .string: "a string"
    case .boolean: "true or false"
    case .date: ModelDateLiteral.expected
    case .binary: "a base64 string such as \"aGVsbG8=\""
    case .uuid: "a UUID string such as \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\""
    case .uri: "an absolute URL string such as \"https://example.com/\", with spaces and special characters percent-encoded"
    case .json: "any JSON value"
    }
}
