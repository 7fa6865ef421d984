import Foundation

// What each of Foundation's predicate expressions stands for in a fetch predicate; the
// translator (SwiftPredicateTranslator.swift) refuses every expression not listed here that
// depends on the fetched object.

extension PredicateExpressions.Variable: TranslatablePredicateExpression {
    func translate(_ translator: inout SwiftPredicateTranslator) throws -> PredicateTerm {
        .path(try translator.path(of: key))
    }
}

extension PredicateExpressions.KeyPath: TranslatablePredicateExpression {
    func translate(_ translator: inout SwiftPredicateTranslator) throws -> PredicateTerm {
        let base = try translator.term(root)
        if case .subquery(let collection, let variable, let predicate) = base,
            let counted = Root.Output.self as? any CountableRelationship.Type
        {
            if keyPath == counted.countKeyPath { return .subqueryCount(collection: collection, variable: variable, predicate: predicate) }
            if keyPath == counted.isEmptyKeyPath {
                return .condition(
                    .comparison(
                        .subqueryCount(collection: collection, variable: variable, predicate: predicate), .equal, .value(.integer(0))))
            }
        }
        guard case .path(let path) = base else {
            throw SwiftPredicateTranslator.unsupported(self, "reads a property of \(base.phrase), which is not an object of the model")
        }
        if let entityClass = Root.Output.self as? any TypedManagedObject.Type {
            if let name = entityClass.propertyName(for: keyPath) { return .path(path + [name]) }
            throw ObjectGraphError(
                .unknownKey,
                "#Predicate: \(keyPath) is not a property of the model (\(entityClass.entityName) lists its key paths in propertyKeyPaths); computed properties cannot run as SQL",
                entityName: entityClass.entityName)
        }
        if let counted = Root.Output.self as? any CountableRelationship.Type {
            if keyPath == counted.countKeyPath { return .path(path + ["@count"]) }
            if keyPath == counted.isEmptyKeyPath {
                return .condition(.comparison(.keyPath(path + ["@count"]), .equal, .value(.integer(0))))
            }
        }
        throw SwiftPredicateTranslator.unsupported(self, "reads \(keyPath) of a \(Root.Output.self), which is not a class of the model")
    }
}

extension PredicateExpressions.Conjunction: TranslatablePredicateExpression {
    func translate(_ translator: inout SwiftPredicateTranslator) throws -> PredicateTerm {
        .condition(.and([try translator.condition(lhs), try translator.condition(rhs)]))
    }
}

extension PredicateExpressions.Disjunction: TranslatablePredicateExpression {
    func translate(_ translator: inout SwiftPredicateTranslator) throws -> PredicateTerm {
        .condition(.or([try translator.condition(lhs), try translator.condition(rhs)]))
    }
}

extension PredicateExpressions.Negation: TranslatablePredicateExpression {
    func translate(_ translator: inout SwiftPredicateTranslator) throws -> PredicateTerm {
        .condition(.not(try translator.condition(wrapped)))
    }
}

extension PredicateExpressions.Equal: TranslatablePredicateExpression {
    func translate(_ translator: inout SwiftPredicateTranslator) throws -> PredicateTerm {
        .condition(try translator.compare(try translator.term(lhs), .equal, try translator.term(rhs)))
    }
}

extension PredicateExpressions.NotEqual: TranslatablePredicateExpression {
    func translate(_ translator: inout SwiftPredicateTranslator) throws -> PredicateTerm {
        .condition(try translator.compare(try translator.term(lhs), .notEqual, try translator.term(rhs)))
    }
}

extension PredicateExpressions.Comparison: TranslatablePredicateExpression {
    func translate(_ translator: inout SwiftPredicateTranslator) throws -> PredicateTerm {
        let comparison: ComparisonOperator =
            switch op {
            case .lessThan: .less
            case .lessThanOrEqual: .lessOrEqual
            case .greaterThan: .greater
            case .greaterThanOrEqual: .greaterOrEqual
            }
        return .condition(try translator.compare(try translator.term(lhs), comparison, try translator.term(rhs)))
    }
}

extension PredicateExpressions.ForcedUnwrap: TranslatablePredicateExpression {
    func translate(_ translator: inout SwiftPredicateTranslator) throws -> PredicateTerm {
        try translator.term(inner)
    }
}

extension PredicateExpressions.NilCoalesce: TranslatablePredicateExpression {
    func translate(_ translator: inout SwiftPredicateTranslator) throws -> PredicateTerm {
        guard case .path(let path) = try translator.term(lhs), case .constant(let fallback) = try translator.term(rhs) else {
            throw SwiftPredicateTranslator.unsupported(self, "needs a property on the left and a value without the object on the right")
        }
        return .coalesced(path, fallback)
    }
}

extension PredicateExpressions.OptionalFlatMap: TranslatablePredicateExpression {
    func translate(_ translator: inout SwiftPredicateTranslator) throws -> PredicateTerm {
        guard case .path(let path) = try translator.term(wrapped) else {
            throw SwiftPredicateTranslator.unsupported(self, "needs an optional property of the object")
        }
        // Through a nil to-one, every key path beyond it is nil, in SQL and in memory alike.
        translator.bind(variable.key, to: path)
        return try translator.term(transform)
    }
}

extension PredicateExpressions.SequenceContains: TranslatablePredicateExpression {
    func translate(_ translator: inout SwiftPredicateTranslator) throws -> PredicateTerm {
        guard case .constant(let values) = try translator.term(sequence), case .path(let path) = try translator.term(element),
            let list = values as? any Sequence
        else {
            throw SwiftPredicateTranslator.unsupported(self, "needs a captured array (or set) and a property of the object")
        }
        var members: [PredicateValue] = []
        for member in list { members.append(try SwiftPredicateTranslator.value(member, comparedWith: path)) }
        return .condition(.membership(path, members))
    }
}

extension PredicateExpressions.RangeExpressionContains: TranslatablePredicateExpression {
    func translate(_ translator: inout SwiftPredicateTranslator) throws -> PredicateTerm {
        guard case .constant(let bounds) = try translator.term(range), case .path(let path) = try translator.term(element),
            let range = bounds as? any PredicateRangeBounds
        else {
            throw SwiftPredicateTranslator.unsupported(self, "needs a range of values and a property of the object")
        }
        let lower = try SwiftPredicateTranslator.value(range.bounds.lower, comparedWith: path)
        let upper = try SwiftPredicateTranslator.value(range.bounds.upper, comparedWith: path)
        if range.bounds.includesUpper { return .condition(.between(path, lower: lower, upper: upper)) }
        return .condition(
            .and([
                .comparison(.keyPath(path), .greaterOrEqual, .value(lower)),
                .comparison(.keyPath(path), .less, .value(upper))
            ]))
    }
}

extension PredicateExpressions.CollectionContainsCollection: TranslatablePredicateExpression {
    func translate(_ translator: inout SwiftPredicateTranslator) throws -> PredicateTerm {
        try text(.contains, base, other, &translator, self)
    }
}

extension PredicateExpressions.SequenceStartsWith: TranslatablePredicateExpression {
    func translate(_ translator: inout SwiftPredicateTranslator) throws -> PredicateTerm {
        try text(.beginsWith, base, prefix, &translator, self)
    }
}

/// `property.contains(string)` and `property.starts(with: string)` as string operators.
private func text(
    _ op: TextOperator, _ base: any PredicateExpression, _ other: any PredicateExpression,
    _ translator: inout SwiftPredicateTranslator, _ expression: any PredicateExpression
) throws -> PredicateTerm {
    guard case .path(let path) = try translator.term(base), case .constant(let value) = try translator.term(other) else {
        throw SwiftPredicateTranslator.unsupported(expression, "needs a string property of the object and a string without it")
    }
    return .condition(.text(path, op, [], try SwiftPredicateTranslator.value(value, comparedWith: path)))
}

extension PredicateExpressions.SequenceContainsWhere: TranslatablePredicateExpression {
    func translate(_ translator: inout SwiftPredicateTranslator) throws -> PredicateTerm {
        let (collection, variable, predicate) = try members(of: sequence, self.variable.key, test, &translator, self)
        return .condition(
            .comparison(.subqueryCount(collection: collection, variable: variable, predicate: predicate), .greater, .value(.integer(0))))
    }
}

extension PredicateExpressions.SequenceAllSatisfy: TranslatablePredicateExpression {
    func translate(_ translator: inout SwiftPredicateTranslator) throws -> PredicateTerm {
        let (collection, variable, predicate) = try members(of: sequence, self.variable.key, test, &translator, self)
        return .condition(
            .comparison(.subqueryCount(collection: collection, variable: variable, predicate: .not(predicate)), .equal, .value(.integer(0)))
        )
    }
}

extension PredicateExpressions.Filter: TranslatablePredicateExpression {
    func translate(_ translator: inout SwiftPredicateTranslator) throws -> PredicateTerm {
        let (collection, variable, predicate) = try members(of: sequence, self.variable.key, filter, &translator, self)
        return .subquery(collection: collection, variable: variable, predicate: predicate)
    }
}

/// The to-many relationship a closure over its members (`contains(where:)`, `allSatisfy`,
/// `filter`) looks at, the SUBQUERY variable naming each member, and the closure's condition.
private func members(
    of sequence: any PredicateExpression, _ variable: PredicateExpressions.VariableID, _ test: any PredicateExpression,
    _ translator: inout SwiftPredicateTranslator, _ expression: any PredicateExpression
) throws -> (collection: [String], variable: String, predicate: PredicateNode) {
    guard case .path(let collection) = try translator.term(sequence) else {
        throw SwiftPredicateTranslator.unsupported(expression, "needs a to-many relationship of the object")
    }
    let name = translator.bindMember(variable)
    return (collection, name, try translator.condition(test))
}

/// `Set` and `Array`, the types of to-many relationships: their `count` and `isEmpty`.
protocol CountableRelationship {
    static var countKeyPath: AnyKeyPath { get }
    static var isEmptyKeyPath: AnyKeyPath { get }
}

extension Set: CountableRelationship {
    static var countKeyPath: AnyKeyPath { \Set<Element>.count }
    static var isEmptyKeyPath: AnyKeyPath { \Set<Element>.isEmpty }
}

extension Array: CountableRelationship {
    static var countKeyPath: AnyKeyPath { \[Element].count }
    static var isEmptyKeyPath: AnyKeyPath { \[Element].isEmpty }
}

/// A captured range's bounds.
protocol PredicateRangeBounds {
    var bounds: (lower: Any, upper: Any, includesUpper: Bool) { get }
}

extension ClosedRange: PredicateRangeBounds {
    var bounds: (lower: Any, upper: Any, includesUpper: Bool) { (lowerBound, upperBound, true) }
}

extension Range: PredicateRangeBounds {
    var bounds: (lower: Any, upper: Any, includesUpper: Bool) { (lowerBound, upperBound, false) }
}
