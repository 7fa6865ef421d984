import Foundation

/// One validation predicate of an attribute, from the model file's `"validation"` list, with the
/// text a failure gives: Core Data's validation predicates and warnings. The predicate is about
/// the attribute's value: `SELF` is the value and `length` its length (a string's characters,
/// binary data's bytes), as in `"SELF BEGINSWITH 'A'"` or `"length >= 2"`. A nil value is not
/// checked (`optional` says whether nil is allowed).
public struct ValidationPredicate: Sendable {
    /// The predicate as written in the model file.
    public let format: String
    /// The text of a failure (Core Data's validation warning).
    public let message: String
    /// The predicate bound to the row `[value, length]`.
    private let predicate: BoundPredicate

    /// The key `SELF` stands for once the predicate is bound.
    private static let valueKey = "SELF"

    /// Parses `format` and checks it against an attribute named `attributeName` of `type`; throws
    /// the parser's or the binder's error.
    init(format: String, message: String, attributeName: String, type: AttributeType) throws {
        let entity = EntityDescription(
            name: "\(attributeName)'s value",
            attributes: [
                AttributeDescription(name: Self.valueKey, type: type, isOptional: true, index: 0),
                AttributeDescription(name: "length", type: .integer64, isOptional: true, index: 1)
            ],
            index: 0)
        let model = ManagedObjectModel(
            name: "Validation", version: 1, entities: [entity], versionHash: "", canonicalJSON: Data(), sourceURL: nil)
        let parsed = try FetchPredicate(format: format)
        predicate = try FetchPredicate(node: parsed.node.readingSelf(as: Self.valueKey)).bind(to: entity, in: model)
        self.format = format
        self.message = message
    }

    /// Whether the non-nil `value` passes.
    func accepts(_ value: AttributeValue) -> Bool {
        let length: Int64 =
            switch value {
            case .string(let string): Int64(string.count)
            case .binary(let data): Int64(data.count)
            default: 0
            }
        return predicate.evaluate([value, .integer(length)])
    }
}

extension PredicateNode {
    /// The predicate with `SELF` (the empty key path) read as the key `name`.
    func readingSelf(as name: String) -> PredicateNode {
        func path(_ keyPath: [String]) -> [String] { keyPath.isEmpty ? [name] : keyPath }
        func operand(_ operand: PredicateOperand) -> PredicateOperand {
            if case .keyPath(let keyPath) = operand { return .keyPath(path(keyPath)) }
            return operand
        }
        switch self {
        case .comparison(let lhs, let op, let rhs): return .comparison(operand(lhs), op, operand(rhs))
        case .between(let keyPath, let lower, let upper): return .between(path(keyPath), lower: lower, upper: upper)
        case .membership(let keyPath, let values): return .membership(path(keyPath), values)
        case .text(let keyPath, let op, let options, let value): return .text(path(keyPath), op, options, value)
        case .and(let nodes): return .and(nodes.map { $0.readingSelf(as: name) })
        case .or(let nodes): return .or(nodes.map { $0.readingSelf(as: name) })
        case .not(let node): return .not(node.readingSelf(as: name))
        // A quantifier needs a to-many, which a value does not have: binding refuses it as it is.
        case .constant, .invalid, .quantified: return self
        }
    }
}
