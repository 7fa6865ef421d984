import Foundation
import Testing

@testable import ObjectGraph

/// `$VARIABLE` substitution, as `NSPredicate.withSubstitutionVariables(_:)`.
@Suite("Predicate variables")
struct PredicateVariableTests {
    @Test func variablesAreSubstitutedAnywhereAValueGoes() throws {
        let template = try FetchPredicate(format: "age > $minimum AND name IN $names AND age BETWEEN $range AND name BEGINSWITH[c] $prefix")
        #expect(template.substitutionVariables == ["minimum", "names", "prefix", "range"])
        #expect(template.description == "age > $minimum AND name IN $names AND age BETWEEN $range AND name BEGINSWITH[c] $prefix")
        let predicate = try template.withSubstitutionVariables([
            "minimum": 3, "names": ["a", "b"], "range": [1, 9], "prefix": "A", "unused": 1
        ])
        #expect(predicate.substitutionVariables.isEmpty)
        #expect(predicate.description == #"age > 3 AND name IN {"a", "b"} AND age BETWEEN {1, 9} AND name BEGINSWITH[c] "A""#)
        #expect(try PredicateFixtures.matches("age > $a", ["age": .integer(5)], substituting: ["a": 4]))
        #expect(try !PredicateFixtures.matches("age > $a", ["age": .integer(5)], substituting: ["a": 5]))
    }

    @Test func missingAndWrongValuesAreErrors() throws {
        let template = try FetchPredicate(format: "age > $minimum OR name IN $names")
        let missing = #expect(throws: ObjectGraphError.self) { try template.withSubstitutionVariables(["minimum": 1]) }
        #expect(missing?.kind == .invalidOperation)
        #expect(missing?.message == "the predicate uses the variable $names, but no value was given for it (given: $minimum)")
        let notArray = #expect(throws: ObjectGraphError.self) { try template.withSubstitutionVariables(["minimum": 1, "names": "x"]) }
        #expect(notArray?.message == "variable $names is String but it follows IN or BETWEEN, which need an array")
        let between = #expect(throws: ObjectGraphError.self) {
            try FetchPredicate(format: "age BETWEEN $r").withSubstitutionVariables(["r": [1]])
        }
        #expect(between?.message == "variable $r after BETWEEN must be an array of exactly two values, but it has 1")
        let unbound = #expect(throws: ObjectGraphError.self) {
            try template.bind(to: PredicateFixtures.person, in: PredicateFixtures.model)
        }
        #expect(
            unbound?.message
                == "the predicate still uses the variable $minimum; give it a value with withSubstitutionVariables(_:) before fetching")
        let nilValue = try FetchPredicate(format: "name == $n").withSubstitutionVariables(["n": nil])
        #expect(nilValue.description == "name == nil")
    }
}
