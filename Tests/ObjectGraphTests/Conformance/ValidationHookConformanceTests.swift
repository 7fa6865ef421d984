import Foundation
import Testing

@testable import ObjectGraph

/// Core Data's validation methods: `validateForInsert()`, `validateForUpdate()` and
/// `validateForDelete()` run the model's rules for a program checking an object before it saves,
/// and `validateValue(_:forKey:)` is the per-key override point that they and `save()` call.
@Suite struct ValidationHookConformanceTests {
    /// Refuses titles with an exclamation mark, and otherwise keeps the model's rules.
    final class CalmItem: ManagedObject {
        struct Exclaimed: Error, Equatable {
            let title: String
        }

        override func validateValue(_ value: inout Any?, forKey key: String) throws {
            if key == "title", let title = value as? String, title.contains("!") { throw Exclaimed(title: title) }
            try super.validateValue(&value, forKey: key)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func validateForInsertChecksTheModelsRulesBeforeASave(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("bad", ["title": String(repeating: "t", count: 21), "rating": 9])
            let error = #expect(throws: ObjectGraphError.self) { try item.validateForInsert() }
            #expect(error?.kind == .validation)
            #expect(error?.validationFailures.map(\.key) == ["code", "title", "rating"])
            #expect(
                error?.message.hasPrefix("\(item.objectID.shortDescription) is not valid: 3 validation failures") == true,
                "\(error?.message ?? "")")
            try item.setValue("GOOD", forKey: "code")
            try item.setValue("fine", forKey: "title")
            try item.setValue(2, forKey: "rating")
            try item.validateForInsert()
            try context.save()
        }
        #expect(try store.storedCount("Item") == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func validateForUpdateChecksTheChangedProperties(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let id = try store.savedItem("A1")
        try store.withNewContext { context in
            let item = try context.existingObject(with: id)
            try item.validateForUpdate()
            try item.setValue(9, forKey: "rating")
            let error = #expect(throws: ObjectGraphError.self) { try item.validateForUpdate() }
            #expect(error?.validationFailures.map(\.key) == ["rating"])
            #expect(error?.validationFailures.first?.reason == "9 is above the maximum 5")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func validateForDeleteChecksDenyRules(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let acme = try context.insert("Publisher", ["name": "Acme"])
            try context.insert("Book", ["title": "Dune", "publisher": acme])
            try context.save()
            let error = #expect(throws: ObjectGraphError.self) { try acme.validateForDelete() }
            #expect(error?.validationFailures.map(\.key) == ["catalog"])
            #expect(error?.validationFailures.first?.reason.contains("its delete rule is deny") == true)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aPerKeyValidatorRunsInValidationAndSaveAndItsErrorSurfacesAsItself(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insert(CalmItem.self, entity: "Item")
            try item.setValue("A1", forKey: "code")
            try item.setValue("Hello!", forKey: "title")
            let direct = #expect(throws: ObjectGraphError.self) { try item.validateForInsert() }
            #expect(direct?.validationFailures.map(\.key) == ["title"])
            #expect(direct?.validationFailures.first?.underlyingError as? CalmItem.Exclaimed == CalmItem.Exclaimed(title: "Hello!"))

            // The save reports it once, beside the model's own failures (not twice through super).
            try item.setValue(9, forKey: "rating")
            let saving = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(saving?.validationFailures.compactMap(\.key).sorted() == ["rating", "title"])
            let failure = try #require(saving?.validationFailures.first { $0.key == "title" })
            #expect(failure.underlyingError as? CalmItem.Exclaimed == CalmItem.Exclaimed(title: "Hello!"))

            try item.setValue("Hello", forKey: "title")
            try item.setValue(1, forKey: "rating")
            try context.save()
            // An update is checked in the keys it changes.
            try item.setValue("Bye!", forKey: "title")
            let update = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(update?.validationFailures.map(\.key) == ["title"])
        }
        #expect(try store.storedCount("Item", "title == 'Hello'") == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func validateValueChecksTheModelsRulesForOneValue(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            let item = try context.insertItem("A1")
            var tooHigh: Any? = 6
            let error = #expect(throws: ObjectGraphError.self) { try item.validateValue(&tooHigh, forKey: "rating") }
            #expect(error?.validationFailures.first?.reason == "6 is above the maximum 5")
            var fine: Any? = 4
            try item.validateValue(&fine, forKey: "rating")
            #expect(try item.get("rating", as: Int.self) == 3, "validating sets nothing")
        }
    }
}

/// Validation predicates in the model file (Core Data's validation predicates and warnings): about
/// the attribute's value, checked at save and by the validation methods, on every store alike.
@Suite struct ValidationPredicateConformanceTests {
    static let model = """
        { "name": "Labels", "version": 1, "entities": [
          { "name": "Label", "attributes": [
            { "name": "text", "type": "string", "optional": true, "validation": [
              { "predicate": "length >= 2", "message": "a label needs two characters at least" },
              { "predicate": "NOT (SELF BEGINSWITH ' ')", "message": "a label starts with a letter" } ] },
            { "name": "weight", "type": "integer32", "default": 1, "validation": [
              { "predicate": "SELF BETWEEN {1, 9}", "message": "weights go from 1 to 9" } ] } ] } ] }
        """

    @Test(arguments: StoreKind.allCases)
    func aFailingPredicateGivesItsMessageKeyValueAndPredicate(kind: StoreKind) throws {
        let store = try TestStore(kind, model: { try ManagedObjectModel(data: Data(Self.model.utf8)) })
        try store.withNewContext { context in
            let label = try context.insertNewObject(forEntityName: "Label")
            try label.setValue("x", forKey: "text")
            try label.setValue(12, forKey: "weight")
            let error = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(error?.validationFailures.map(\.key) == ["text", "weight"])
            #expect(
                error?.validationFailures.first?.reason
                    == "a label needs two characters at least (\"x\" fails the validation predicate length >= 2)")
            #expect(
                error?.validationFailures.last?.reason == "weights go from 1 to 9 (12 fails the validation predicate SELF BETWEEN {1, 9})")
            #expect(error?.validationFailures.first?.violatedPredicate?.format == "length >= 2")
            #expect(error?.validationFailures.first?.violatedPredicate?.message == "a label needs two characters at least")
            try label.setValue(" ab", forKey: "text")
            try label.setValue(9, forKey: "weight")
            let second = #expect(throws: ObjectGraphError.self) { try label.validateForInsert() }
            #expect(
                second?.validationFailures.map(\.reason) == [
                    "a label starts with a letter (\" ab\" fails the validation predicate NOT (SELF BEGINSWITH ' '))"
                ])
            try label.setValue(nil, forKey: "text")  // nil is not checked: the attribute is optional
            try context.save()
            try label.setValue("ok", forKey: "text")
            try context.save()
        }
        #expect(try store.storedCount("Label", "text == 'ok' AND weight == 9") == 1)
    }

    @Test func aPredicateThatDoesNotFitTheValueIsRefusedAtLoad() {
        ModelFixtures.expectSingleIssue(
            ModelFixtures.thing(
                attributes:
                    #"{ "name": "n", "type": "integer16", "validation": [ { "predicate": "SELF BEGINSWITH 'a'", "message": "m" } ] }"#),
            path: "entities[0].attributes[0].validation[0].predicate", "which is not a valid predicate about a integer16 value")
        ModelFixtures.expectSingleIssue(
            ModelFixtures.thing(
                attributes: #"{ "name": "n", "type": "string", "validation": [ { "predicate": "length >=", "message": "m" } ] }"#),
            path: "entities[0].attributes[0].validation[0].predicate", "not a valid predicate")
        ModelFixtures.expectSingleIssue(
            ModelFixtures.thing(attributes: #"{ "name": "n", "type": "string", "validation": [ { "predicate": "length > 1" } ] }"#),
            path: "entities[0].attributes[0].validation[0].message", "missing required field")
    }
}
