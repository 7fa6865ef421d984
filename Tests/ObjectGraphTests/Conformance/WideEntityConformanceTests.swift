import Foundation
import Testing

@testable import ObjectGraph

/// An entity with more properties than one word of change bits holds (70 attributes, then its
/// relationships): changes to the properties past the 64th are tracked, saved, merged and
/// rolled back like the first ones.
@Suite struct WideEntityConformanceTests {
    static let attributeCount = 70

    static func load() throws -> ManagedObjectModel {
        let attributes = (0..<attributeCount).map { #"{ "name": "c\#($0)", "type": "integer64", "optional": true }"# }
        let json = """
            { "name": "Wide", "version": 1, "entities": [
              { "name": "Sheet", "attributes": [ \(attributes.joined(separator: ", ")) ],
                "relationships": [ { "name": "owner", "destination": "Owner", "inverse": "sheets" } ] },
              { "name": "Owner", "attributes": [ { "name": "name", "type": "string" } ],
                "relationships": [ { "name": "sheets", "destination": "Sheet", "toMany": true, "inverse": "owner" } ] }
            ] }
            """
        return try ManagedObjectModel(data: Data(json.utf8))
    }

    /// A reopened store of `kind` holding one sheet with `c0` = 0 and `c69` = 69, owned by "first".
    private static func reopenedStoreWithASheet(_ kind: StoreKind) throws -> TestStore {
        let store = try TestStore(kind, model: load)
        try store.withNewContext { context in
            let owner = try context.insertObject("Owner", ["name": "first"])
            _ = try context.insertObject("Sheet", ["c0": Int64(0), "c69": Int64(69), "owner": owner])
            try context.save()
        }
        try store.reopen()
        return store
    }

    private static func sheet(in context: ManagedObjectContext) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Sheet")).first)
    }

    @Test(arguments: StoreKind.allCases)
    func changesPastTheSixtyFourthPropertyAreSaved(kind: StoreKind) throws {
        let store = try Self.reopenedStoreWithASheet(kind)
        try store.withNewContext { context in
            let sheet = try Self.sheet(in: context)
            #expect(!sheet.isUpdated)
            try sheet.setValue(Int64(650), forKey: "c65")
            #expect(sheet.isUpdated)
            #expect(Set(sheet.changedValues().keys) == ["c65"])
            try sheet.setValue(Int64(30), forKey: "c3")
            try sheet.setValue(try context.insertObject("Owner", ["name": "second"]), forKey: "owner")
            #expect(Set(sheet.changedValues().keys) == ["c3", "c65", "owner"])
            try context.save()
            #expect(!sheet.isUpdated)
        }
        try store.reopen()
        try store.withNewContext { context in
            let sheet = try Self.sheet(in: context)
            #expect(try sheet.get("c0", as: Int64.self) == 0)
            #expect(try sheet.get("c3", as: Int64.self) == 30)
            #expect(try sheet.get("c65", as: Int64.self) == 650)
            #expect(try sheet.get("c69", as: Int64.self) == 69)
            let owner = try #require(try sheet.get("owner", as: ManagedObject.self))
            #expect(try owner.get("name", as: String.self) == "second")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func changesPastTheSixtyFourthPropertyRollBack(kind: StoreKind) throws {
        let store = try Self.reopenedStoreWithASheet(kind)
        try store.withNewContext { context in
            let sheet = try Self.sheet(in: context)
            try sheet.setValue(Int64(660), forKey: "c66")
            try sheet.setValue(nil, forKey: "c69")
            try sheet.setValue(nil, forKey: "owner")
            context.rollback()
            #expect(!sheet.isUpdated)
            #expect(sheet.changedValues().isEmpty)
            #expect(try sheet.get("c66", as: Int64.self) == nil)
            #expect(try sheet.get("c69", as: Int64.self) == 69)
            #expect(try sheet.get("owner", as: ManagedObject.self)?.get("name", as: String.self) == "first")
            // Set back to its saved value, a changed property is no longer a change.
            try sheet.setValue(Int64(1), forKey: "c67")
            try sheet.setValue(nil, forKey: "c67")
            #expect(sheet.changedValues().isEmpty)
        }
    }

    /// Another context's save of a property past the 64th merges into an object that changed
    /// another one: both the merged value and the local change are there, and saving keeps both.
    @Test(arguments: StoreKind.allCases)
    func mergedChangesPastTheSixtyFourthPropertyKeepLocalOnes(kind: StoreKind) throws {
        let store = try Self.reopenedStoreWithASheet(kind)
        let context = store.container.newBackgroundContext()
        let other = store.container.newBackgroundContext()
        try context.performAndWait {
            let sheet = try Self.sheet(in: context)
            try sheet.setValue(Int64(680), forKey: "c68")
            try other.performAndWait {
                try Self.sheet(in: other).setValue(Int64(640), forKey: "c64")
                try other.save()
            }
            context.mergePolicy = .mergeByPropertyObjectTrump
            try context.refresh(sheet, mergeChanges: true)
            #expect(try sheet.get("c64", as: Int64.self) == 640)
            #expect(try sheet.get("c68", as: Int64.self) == 680)
            #expect(Set(sheet.changedValues().keys) == ["c68"])
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { context in
            let sheet = try Self.sheet(in: context)
            #expect(try sheet.get("c64", as: Int64.self) == 640)
            #expect(try sheet.get("c68", as: Int64.self) == 680)
        }
    }
}
