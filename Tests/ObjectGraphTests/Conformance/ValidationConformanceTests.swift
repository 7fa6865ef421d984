import Foundation
import Testing

@testable import ObjectGraph

/// A save validates every object first and reports every failure in one error; nothing is
/// written and the context keeps its changes.
@Suite struct ValidationConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func everyFailureIsReportedInOneError(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            try context.insertItem("SAVED")
            try context.save()
        }
        try store.withNewContext { context in
            let valid = try context.insertItem("OK-1")
            let empty = try context.insertItem("")  // minLength 1
            let lower = try context.insertItem("lower", ["rating": 9])  // regex, maxValue 5
            let missing = try context.insertItem(nil, ["rating": -1, "price": -0.5])  // required, minValue 0, minValue 0
            let long = try context.insertItem("LONG-CODE-1234", ["title": String(repeating: "x", count: 21), "blob": Data(count: 65)])
            let saved = try #require(try context.item("SAVED"))
            try saved.setValue(nil, forKey: "note")  // required, on an update

            let error = #expect(throws: ObjectGraphError.self) { try context.save() }
            let failures = error?.validationFailures ?? []
            #expect(error?.kind == .validation)
            #expect(failures.count == 10)
            #expect(error?.message.contains("10 validation failures") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("nothing was written") == true)

            func reason(_ object: ManagedObject, _ key: String) -> String? {
                let matching = failures.filter { $0.objectID == object.objectID && $0.key == key }
                #expect(matching.count <= 1)
                return matching.first?.reason
            }
            #expect(reason(empty, "code")?.contains("shorter than the minimum 1") == true)
            #expect(reason(lower, "code")?.contains("does not match the pattern") == true)
            #expect(reason(lower, "rating")?.contains("above the maximum 5") == true)
            #expect(reason(missing, "code")?.contains("required") == true)
            #expect(reason(missing, "rating")?.contains("below the minimum 0") == true)
            #expect(reason(missing, "price")?.contains("below the minimum") == true)
            #expect(reason(long, "code")?.contains("longer than the maximum 12") == true)
            #expect(reason(long, "title")?.contains("longer than the maximum 20") == true)
            #expect(reason(long, "blob")?.contains("65 bytes") == true)
            #expect(reason(saved, "note")?.contains("required") == true)
            #expect(failures.allSatisfy { $0.entityName == "Item" })
            #expect(!failures.contains { $0.objectID == valid.objectID })
            // Each failure names its object and key in the message.
            for failure in failures {
                #expect(error?.message.contains(failure.description) == true, "\(failure)")
            }

            // Nothing was written, and the context still holds every change.
            #expect(try store.storedCount("Item") == 1)
            #expect(try store.withNewContext { try $0.item("SAVED")?.get("note", as: String.self) } == "none")
            #expect(context.hasChanges)
            #expect(context.insertedObjects.count == 5)
            #expect(context.updatedObjects == [saved])
            #expect(valid.objectID.isTemporaryID)

            // Fixed, the same context saves.
            try empty.setValue("E-1", forKey: "code")
            try lower.setValue("LOWER", forKey: "code")
            try lower.setValue(5, forKey: "rating")
            try missing.setValue("M-1", forKey: "code")
            try missing.setValue(0, forKey: "rating")
            try missing.setValue(0.0, forKey: "price")
            try long.setValue("LONG", forKey: "code")
            try long.setValue(String(repeating: "x", count: 20), forKey: "title")
            try long.setValue(Data(count: 64), forKey: "blob")
            try saved.setValue("fixed", forKey: "note")
            try context.save()
            #expect(!context.hasChanges)
        }
        #expect(try store.storedCount("Item") == 6)
        #expect(try store.withNewContext { try $0.item("SAVED")?.get("note", as: String.self) } == "fixed")
    }

    /// Rules hold at their bounds: the limits themselves are valid.
    @Test(arguments: StoreKind.allCases)
    func boundaryValuesAreValid(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { context in
            try context.insertItem("A", ["rating": 0, "price": 0.0, "title": ""])
            try context.insertItem("Z23456789-AB", ["rating": 5, "title": String(repeating: "é", count: 20), "blob": Data(count: 64)])
            try context.save()
        }
        #expect(try store.storedCount("Item") == 2)
    }

    /// Transient attributes are validated like stored ones (Core Data's rule), though never stored.
    @Test(arguments: StoreKind.allCases)
    func transientAttributesAreValidatedToo(kind: StoreKind) throws {
        let json = """
            { "name": "Drafts", "version": 1, "entities": [ { "name": "Draft", "attributes": [
                { "name": "title", "type": "string" },
                { "name": "status", "type": "string", "transient": true, "maxLength": 4 },
                { "name": "note", "type": "string", "transient": true, "optional": true, "regex": "[a-z]+" } ] } ] }
            """
        let store = try TestStore(kind, model: { try ManagedObjectModel(data: Data(json.utf8)) })
        try store.withNewContext { context throws in
            let draft = try context.insertNewObject(forEntityName: "Draft")
            try draft.setValue("First", forKey: "title")
            try draft.setValue("Bad Note", forKey: "note")
            let error = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(error?.kind == .validation)
            #expect(error?.validationFailures.map(\.key) == ["status", "note"])
            try draft.setValue("LONGER", forKey: "status")
            try draft.setValue("fine", forKey: "note")
            let long = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(long?.validationFailures.map(\.key) == ["status"])
            try draft.setValue("done", forKey: "status")
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { context throws in
            let draft = try #require(try context.objects("Draft").first)
            // Not stored: a fresh context reads the transient as unset; an update of another
            // attribute does not re-validate it.
            #expect(try draft.value(forKey: "status") == nil)
            try draft.setValue("Second", forKey: "title")
            try context.save()
        }
    }
}
