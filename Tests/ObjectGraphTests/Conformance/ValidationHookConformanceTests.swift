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
            #expect(error?.message.hasPrefix("\(item.objectID.shortDescription) is not valid: 3 validation failures") == true, "\(error?.message ?? "")")
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
