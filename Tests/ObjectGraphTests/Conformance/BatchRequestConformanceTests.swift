import Foundation
import Testing

@testable import ObjectGraph

/// Batch insert, update and delete go straight to the store, in one transaction, the same way on
/// every store; merging brings live contexts up to date.
@Suite struct BatchRequestConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func insertUpdateDeleteAndMerge(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let live = store.newContext(name: "live")
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let inserted = try context.execute(
                BatchInsertRequest(entityName: "Person", objects: (1...10).map { ["name": "P\($0)", "age": $0 * 10] }))
            #expect(inserted.count == 10)
            #expect(inserted.objectIDs.allSatisfy { !$0.isTemporaryID })
            #expect(context.registeredObjects.isEmpty, "no objects were made")
        }
        #expect(try store.storedCount("Person") == 10)

        // A live context holding objects, one of them with an unsaved change.
        let (p1, p2) = try live.performAndWait { () throws in
            let p1 = try #require(try live.objects("Person", where: "name == 'P1'").first)
            let p2 = try #require(try live.objects("Person", where: "name == 'P2'").first)
            try p2.setValue("mine", forKey: "city")
            return (p1, p2)
        }

        let updated = try store.withNewContext { (context: ManagedObjectContext) throws in
            try context.execute(
                BatchUpdateRequest(
                    entityName: "Person", predicate: try FetchPredicate(format: "age <= 50"), propertiesToUpdate: ["city": "Oslo", "age": 5]
                ))
        }
        #expect(updated.count == 5)
        #expect(try store.storedCount("Person", "city == 'Oslo' AND age == 5") == 5)
        ManagedObjectContext.mergeChanges(from: updated, into: [live])
        try live.performAndWait { () throws in
            #expect(try p1.value(forKey: "city", as: String.self) == "Oslo")
            // p2's unsaved city clashes with the batch's: its merge waits for the save's merge policy.
            #expect(try p2.value(forKey: "city", as: String.self) == "mine", "an unsaved change survives the merge")
            #expect(try p2.value(forKey: "age", as: Int.self) == 20)
        }

        let deleted = try store.withNewContext { (context: ManagedObjectContext) throws in
            try context.execute(BatchDeleteRequest(entityName: "Person", predicate: try FetchPredicate(format: "city == 'Oslo'")))
        }
        #expect(deleted.count == 5)
        #expect(try store.storedCount("Person") == 5)
        ManagedObjectContext.mergeChanges(from: deleted, into: [live])
        try live.performAndWait { () throws in
            // As in Core Data (the object used to leave the context): still registered, marked
            // deleted with nothing to save, its last values readable, and no longer fetched.
            #expect(p1.managedObjectContext === live)
            #expect(p1.isDeleted && !p1.hasChanges && !live.hasChanges)
            #expect(live.registeredObject(for: p1.objectID) === p1)
            #expect(try p1.value(forKey: "name", as: String.self) == "P1")
            #expect(try live.objects("Person").count == 5)
            #expect(try !live.objects("Person").contains(p1))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func badBatchesWriteNothing(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            _ = try context.execute(BatchInsertRequest(entityName: "Item", objects: [["code": "A1"], ["code": "B2"]]))
            let duplicate = #expect(throws: ObjectGraphError.self) {
                try context.execute(BatchInsertRequest(entityName: "Item", objects: [["code": "C3"], ["code": "A1"]]))
            }
            #expect(duplicate?.kind == .constraintViolation)
            let unique = #expect(throws: ObjectGraphError.self) {
                try context.execute(BatchUpdateRequest(entityName: "Item", propertiesToUpdate: ["code": "Z9"]))
            }
            #expect(unique?.kind == .constraintViolation)
            #expect(
                unique?.message
                    == "Cannot update Item objects: the new values break the uniqueness constraint on code; nothing was written.")
            let required = #expect(throws: ObjectGraphError.self) {
                try context.execute(BatchUpdateRequest(entityName: "Item", propertiesToUpdate: ["code": nil]))
            }
            #expect(required?.message.contains("Item.code is required but the batch update sets it to nil") == true)
            let wrongType = #expect(throws: ObjectGraphError.self) {
                try context.execute(BatchUpdateRequest(entityName: "Item", propertiesToUpdate: ["code": 3]))
            }
            #expect(wrongType?.kind == .typeMismatch)
            let unknown = #expect(throws: ObjectGraphError.self) { try context.execute(BatchDeleteRequest(entityName: "Itme")) }
            #expect(unknown?.kind == .unknownEntity)
        }
        #expect(try store.storedCount("Item") == 2)
        #expect(try store.storedCount("Item", "code == 'C3'") == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func batchDeleteClearsLinksToDeletedObjects(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let ann = try context.insert("Author", ["name": "Ann"])
            let dune = try context.insert("Book", ["title": "Dune", "author": ann])
            try dune.addRelatedObject(try context.insert("Tag", ["name": "scifi"]), forKey: "tags")
            try context.save()
            _ = try context.execute(BatchDeleteRequest(entityName: "Author"))
            _ = try context.execute(BatchDeleteRequest(entityName: "Tag"))
        }
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let dune = try context.one("Book", "title", "Dune")
            #expect(try dune.relatedObject(forKey: "author") == nil)
            #expect(try dune.relatedObjects(forKey: "tags").isEmpty)
        }
    }
}

/// A batch insert filled by a closure, written in chunks inside one transaction.
@Suite struct GeneratedBatchInsertConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func closureFilledRowsAreInsertedAtomically(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let count = 12_345
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let result = try context.execute(
                BatchInsertRequest(entityName: "Person", count: count) { index, values in
                    try values.setValue("P\(index)", forKey: "name")
                    try values.setValue(index % 90, forKey: "age")
                })
            #expect(result.count == count)
            #expect(Set(result.objectIDs).count == count)
            // A failure in the last chunk leaves nothing of the earlier ones.
            let failing = #expect(throws: ObjectGraphError.self) {
                try context.execute(
                    BatchInsertRequest(entityName: "Person", count: 11_000) { index, values in
                        try values.setValue("Q\(index)", forKey: "name")
                        try values.setValue(index == 10_999 ? "old" : 1, forKey: "age")
                    })
            }
            #expect(failing?.kind == .typeMismatch)
            let unknown = #expect(throws: ObjectGraphError.self) {
                try context.execute(
                    BatchInsertRequest(entityName: "Person", count: 1) { _, values in try values.setValue(1, forKey: "agee") })
            }
            #expect(unknown?.message == "Person has no attribute named 'agee'; did you mean 'age'?")
        }
        #expect(try store.storedCount("Person") == count)
        #expect(try store.storedCount("Person", "name BEGINSWITH 'Q'") == 0)
        #expect(try store.storedCount("Person", "age == 89") == count / 90 + (count % 90 > 89 ? 1 : 0))
    }
}

/// What a batch insert's fill closure sets is what the store holds, however it sets it.
@Suite struct BatchInsertValuesConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func typedValuesAreStoredAsTheyAre(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let stamp = Date(timeIntervalSinceReferenceDate: 123.25)
        let uid = UUID()
        let link = try #require(URL(string: "https://example.com/a?b=1"))
        try store.withNewContext { (context: ManagedObjectContext) throws in
            _ = try context.execute(
                BatchInsertRequest(entityName: "Item", count: 1) { _, values in
                    try values.setValue("T1", forKey: "code")
                    try values.setValue(Int16(-3), forKey: "i16")
                    try values.setValue(Int32(70_000), forKey: "i32")
                    try values.setValue(Int(1 << 40), forKey: "i64")
                    try values.setValue(2.5, forKey: "dbl")
                    try values.setValue(Float(0.5), forKey: "flt")
                    try values.setValue(Decimal(string: "1.25")!, forKey: "dec")
                    try values.setValue(false, forKey: "flag")
                    try values.setValue(stamp, forKey: "stamp")
                    try values.setValue(Data([1, 2, 3]), forKey: "blob")
                    try values.setValue(uid, forKey: "uid")
                    try values.setValue(link, forKey: "link")
                })
            let item = try #require(try context.item("T1"))
            #expect(try item.value(forKey: "i16", as: Int16.self) == -3)
            #expect(try item.value(forKey: "i32", as: Int32.self) == 70_000)
            #expect(try item.value(forKey: "i64", as: Int64.self) == 1 << 40)
            #expect(try item.value(forKey: "dbl", as: Double.self) == 2.5)
            #expect(try item.value(forKey: "flt", as: Float.self) == 0.5)
            #expect(try item.value(forKey: "dec", as: Decimal.self) == Decimal(string: "1.25"))
            #expect(try item.value(forKey: "flag", as: Bool.self) == false)
            #expect(try item.value(forKey: "stamp", as: Date.self) == stamp)
            #expect(try item.value(forKey: "blob", as: Data.self) == Data([1, 2, 3]))
            #expect(try item.value(forKey: "uid", as: UUID.self) == uid)
            #expect(try item.value(forKey: "link", as: URL.self) == link)
            #expect(try item.value(forKey: "note", as: String.self) == "none", "unset attributes keep their defaults")

            // A typed value that does not fit is refused as an untyped one is.
            let typed = #expect(throws: ObjectGraphError.self) {
                try context.execute(
                    BatchInsertRequest(entityName: "Item", count: 1) { _, values in try values.setValue(Int32(70_000), forKey: "i16") })
            }
            let untyped = #expect(throws: ObjectGraphError.self) {
                try context.execute(
                    BatchInsertRequest(entityName: "Item", count: 1) { _, values in
                        try values.setValue(Int32(70_000) as Any?, forKey: "i16")
                    })
            }
            #expect(typed?.kind == .typeMismatch)
            #expect(typed?.message == untyped?.message)
        }
        #expect(try store.storedCount("Item") == 1)
    }

    /// Keys set in another order, or fewer of them, from one object to the next still land on
    /// their own attributes; every object starts from the defaults.
    @Test(arguments: StoreKind.allCases)
    func keysMaySwitchOrderFromObjectToObject(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            _ = try context.execute(
                BatchInsertRequest(entityName: "Person", count: 300) { index, values in
                    let name = String(repeating: "n", count: index % 40) + "\(index)"
                    switch index % 3 {
                    case 0:
                        try values.setValue(name, forKey: "name")
                        try values.setValue(index, forKey: "age")
                        try values.setValue("c\(index)", forKey: "city")
                    case 1:
                        try values.setValue(index, forKey: "age")
                        try values.setValue(name, forKey: "name")
                    default:
                        try values.setValue("c\(index)", forKey: "city")
                        try values.setValue(name, forKey: "name")
                    }
                })
            for person in try context.objects("Person") {
                let name = try #require(try person.value(forKey: "name", as: String.self))
                let index = try #require(Int(name.drop { $0 == "n" }))
                #expect(name.count(where: { $0 == "n" }) == index % 40)
                #expect(try person.value(forKey: "age", as: Int.self) == (index % 3 == 2 ? nil : index))
                #expect(try person.value(forKey: "city", as: String.self) == (index % 3 == 1 ? nil : "c\(index)"))
            }
        }
        #expect(try store.storedCount("Person") == 300)
    }

    @Test(arguments: StoreKind.allCases)
    func aMissingRequiredValueWritesNothing(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let missing = #expect(throws: ObjectGraphError.self) {
                try context.execute(
                    BatchInsertRequest(entityName: "Person", count: 7_000) { index, values in
                        if index != 6_500 { try values.setValue("P\(index)", forKey: "name") }
                    })
            }
            #expect(missing?.kind == .constraintViolation)
            #expect(missing?.key == "name")
            #expect(missing?.message.hasSuffix("Person.name is required but has no value; nothing was written.") == true)
        }
        #expect(try store.storedCount("Person") == 0)
    }

    /// A sub-entity's required attribute lives in a column its hierarchy's table lets be NULL:
    /// the store checks it itself.
    @Test(arguments: StoreKind.allCases)
    func aSubEntitysMissingRequiredValueWritesNothing(kind: StoreKind) throws {
        let store = try TestStore(kind, model: InheritanceModel.load)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let missing = #expect(throws: ObjectGraphError.self) {
                try context.execute(
                    BatchInsertRequest(entityName: "Book", count: 2) { index, values in
                        try values.setValue("Dune \(index)", forKey: "title")
                        try values.setValue("B\(index)", forKey: "sku")
                        if index == 0 { try values.setValue(412, forKey: "pages") }
                    })
            }
            #expect(missing?.kind == .constraintViolation)
            #expect(missing?.key == "pages")
            #expect(missing?.message.hasSuffix("Book.pages is required but has no value; nothing was written.") == true)
        }
        #expect(try store.storedCount("Item") == 0)
    }
}

/// Batch updates and deletes report exactly the objects they changed, with their entities, on a
/// table of its own and on a table a hierarchy shares.
@Suite struct BatchResultConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func theObjectsChangedAreTheOnesReported(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            _ = try context.execute(
                BatchInsertRequest(entityName: "Person", count: 50) { index, values in
                    try values.setValue("P\(index)", forKey: "name")
                    try values.setValue(index, forKey: "age")
                })
            let young = Set(try context.objects("Person", where: "age < 20").map(\.objectID))
            #expect(young.count == 20)
            let updated = try context.execute(
                BatchUpdateRequest(
                    entityName: "Person", predicate: try FetchPredicate(format: "age < 20"), propertiesToUpdate: ["city": "Oslo"]))
            #expect(Set(updated.objectIDs) == young)
            #expect(updated.count == 20)
            let deleted = try context.execute(BatchDeleteRequest(entityName: "Person", predicate: try FetchPredicate(format: "age < 20")))
            #expect(Set(deleted.objectIDs) == young)
            #expect(deleted.count == 20)
        }
        #expect(try store.storedCount("Person") == 30)
    }

    @Test(arguments: StoreKind.allCases)
    func subEntitiesInASharedTableAreReportedAsThemselves(kind: StoreKind) throws {
        let store = try TestStore(kind, model: InheritanceModel.load)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let dune = try context.insert("Book", ["title": "Dune", "sku": "B1", "pages": 412])
            let algebra = try context.insert("Textbook", ["title": "Algebra", "sku": "T1", "pages": 300, "subject": "math"])
            _ = try context.insert("Magazine", ["title": "Wired", "sku": "M1", "issue": 7])
            try context.save()

            let books = try context.execute(BatchUpdateRequest(entityName: "Book", propertiesToUpdate: ["pages": 5]))
            #expect(Set(books.objectIDs) == [dune.objectID, algebra.objectID])
            #expect(Set(books.objectIDs.map(\.entity.name)) == ["Book", "Textbook"])

            var ownOnly = BatchUpdateRequest(entityName: "Book", propertiesToUpdate: ["pages": 6])
            ownOnly.includesSubentities = false
            #expect(try context.execute(ownOnly).objectIDs == [dune.objectID])
        }
        #expect(try store.storedCount("Book", "pages == 6") == 1)
        #expect(try store.storedCount("Textbook", "pages == 5") == 1)
        #expect(try store.storedCount("Magazine") == 1)
    }
}
