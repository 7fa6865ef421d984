import Foundation
import Testing

@testable import ObjectGraph

/// Rows fetched by one context fire faults in another without going back to SQL; a save empties
/// the cache so nobody reads a stale row from it.
@Suite struct RowCacheConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func aFaultFiresFromRowsAnotherContextFetched(kind: StoreKind) throws {
        let store = try TestStore(kind)
        let ids = try store.withNewContext { (context: ManagedObjectContext) throws in
            let items = try (0..<20).map { try context.insertItem("C\($0)", ["title": "t\($0)"]) }
            try context.save()
            return items.map(\.objectID)
        }
        let sqlite = try store.container.persistentStoreCoordinator.requireStore() as? SQLiteStore
        let log = SQLiteStatementLog()
        let first = store.newContext()
        let all = try first.performAndWait { try first.objects("Item") }
        #expect(all.count == 20)
        sqlite?.setStatementObserver { log.record($0) }
        defer { sqlite?.setStatementObserver(nil) }
        let second = store.newContext()
        try second.performAndWait { () throws in
            for (number, id) in ids.enumerated() {
                let fault = second.object(with: id)
                #expect(fault.isFault)
                #expect(try fault.value(forKey: "title", as: String.self) == "t\(number)")
            }
        }
        #expect(log.all.isEmpty, "no SQL: \(log.all)")

        // After a save, rows come from the store again, with the saved values.
        try first.performAndWait {
            try all[0].setValue("changed", forKey: "title")
            try first.save()
        }
        let third = store.newContext()
        try third.performAndWait { () throws in
            let statementsBefore = log.all.count
            #expect(try third.object(with: all[0].objectID).value(forKey: "title", as: String.self) == "changed")
            if kind == .sqlite { #expect(log.all.count == statementsBefore + 1) }
        }
        _ = all
    }
}
