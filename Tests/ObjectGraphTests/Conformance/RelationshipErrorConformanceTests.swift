import Foundation
import Testing

@testable import ObjectGraph

/// Misuse of relationships is a clear error that changes nothing, on every store alike.
@Suite struct RelationshipErrorConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func wrongValuesAndKeysAreRefusedWithoutChangingAnything(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let book = try context.insert("Book", ["title": "Dune"])
            let tag = try context.insert("Tag", ["name": "scifi"])

            let wrongType = #expect(throws: ObjectGraphError.self) { try book.setValue("Ann", forKey: "author") }
            #expect(wrongType?.kind == .typeMismatch)
            #expect(wrongType?.message == "Book.author is a to-one relationship to Author; expected an Author object or nil, found String")

            let wrongEntity = #expect(throws: ObjectGraphError.self) { try book.setValue(tag, forKey: "author") }
            #expect(wrongEntity?.kind == .typeMismatch)
            #expect(wrongEntity?.message.contains("Book.author holds Author objects; Tag/t") == true)

            let wrongKind = #expect(throws: ObjectGraphError.self) { try book.relatedObjects(forKey: "author") }
            #expect(wrongKind?.message == "Book.author is a to-one relationship; use relatedObject(forKey:)")

            let unknown = #expect(throws: ObjectGraphError.self) { try book.value(forKey: "auhtor") }
            #expect(unknown?.kind == .unknownKey)
            #expect(unknown?.message == "Book has no property named 'auhtor'; did you mean 'author'?")

            let attribute = #expect(throws: ObjectGraphError.self) { try book.addRelatedObject(tag, forKey: "title") }
            #expect(attribute?.message == "Book.title is an attribute, not a relationship")

            let unordered = #expect(throws: ObjectGraphError.self) { try tag.insertRelatedObject(book, at: 0, forKey: "books") }
            #expect(unordered?.message.contains("Tag.books is not ordered") == true)

            #expect(try book.relatedObject(forKey: "author") == nil)
            #expect(try book.relatedObjects(forKey: "tags").isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func objectsOfOtherContextsAndDeletedObjectsCannotBeRelated(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        let other = store.newContext()
        let foreign = try other.performAndWait { try other.insert("Author", ["name": "Ann"]) }
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let book = try context.insert("Book", ["title": "Dune"])
            let error = #expect(throws: ObjectGraphError.self) { try book.setValue(foreign, forKey: "author") }
            #expect(error?.kind == .invalidOperation)
            #expect(error?.message.contains("belongs to another context") == true)

            let author = try context.insert("Author", ["name": "Bob"])
            try context.save()
            context.delete(author)
            let deleted = #expect(throws: ObjectGraphError.self) { try book.setValue(author, forKey: "author") }
            #expect(deleted?.message.contains("it is deleted") == true)
            #expect(try book.relatedObject(forKey: "author") == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aOneWayReferenceToAnObjectThatIsNotSavedFailsTheSave(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let ann = try context.insert("Employee", ["name": "Ann"])
            let mentor = try context.insert("Employee", ["name": "Mentor"])
            try ann.setValue(mentor, forKey: "mentor")
            // Employee.mentor is one-way: nothing tells Ann that her mentor is gone.
            context.delete(mentor)
            let error = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(error?.kind == .invalidOperation)
            #expect(error?.message.contains("its relationship 'mentor' refers to Employee/t") == true)
            #expect(error?.message.contains("which is neither saved nor inserted in this save") == true)
            #expect(context.hasChanges)
        }
        #expect(try store.storedCount("Employee") == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func requiredRelationshipsAndCountsAreValidatedAtSave(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let team = try context.insert("Team", ["name": "Core"])
            try context.insert("Chapter", ["title": "orphan"])
            let error = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(error?.kind == .validation)
            #expect(error?.validationFailures.map(\.key) == ["members", "book"])
            #expect(error?.message.contains("members: at least one Employee is required") == true)
            #expect(error?.message.contains("book: a Book is required") == true)

            context.rollback()
            let crowd = try (1...4).map { try context.insert("Employee", ["name": "E\($0)"]) }
            let team2 = try context.insert("Team", ["name": "Big", "members": Set(crowd)])
            let tooMany = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(tooMany?.message.contains("members: holds 4 objects, more than the maximum 3") == true)
            try team2.removeRelatedObject(crowd[0], forKey: "members")
            try context.save()
            _ = team
        }
        #expect(try store.storedCount("Team") == 1)
        #expect(try store.storedCount("Employee") == 4)
    }
}
