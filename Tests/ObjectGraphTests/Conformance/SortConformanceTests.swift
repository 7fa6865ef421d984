import Foundation
import Testing

@testable import ObjectGraph

/// Sorting through to-one relationships and with string comparisons, on every store alike.
@Suite struct SortConformanceTests {
    private func titles(_ context: ManagedObjectContext, _ sorts: [FetchSortDescriptor], entity: String = "Book") throws -> [String] {
        try context.fetch(FetchRequest<ManagedObject>(entityName: entity, predicate: nil, sortDescriptors: sorts))
            .map { try $0.value(forKey: entity == "Book" ? "title" : "name", as: String.self) ?? "" }
    }

    @Test(arguments: StoreKind.allCases)
    func sortsThroughRelationshipsAndByComparison(kind: StoreKind) throws {
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let bob = try context.insert("Author", ["name": "bob"])
            let ann = try context.insert("Author", ["name": "Ann"])
            let cy = try context.insert("Author", ["name": "Cy"])
            try context.insert("Book", ["title": "file 10", "author": bob])
            try context.insert("Book", ["title": "File 2", "author": ann])
            try context.insert("Book", ["title": "file 1", "author": cy])
            try context.insert("Book", ["title": "orphan"])
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            #expect(try titles(context, [FetchSortDescriptor(key: "title")]) == ["File 2", "file 1", "file 10", "orphan"])
            #expect(
                try titles(context, [FetchSortDescriptor(key: "title", comparison: .caseInsensitive)]) == [
                    "file 1", "file 10", "File 2", "orphan"
                ])
            #expect(
                try titles(context, [FetchSortDescriptor(key: "title", comparison: .localizedStandard)]) == [
                    "file 1", "File 2", "file 10", "orphan"
                ])
            // By bytes "Ann" < "Cy" < "bob"; nil (no author) first.
            #expect(try titles(context, [FetchSortDescriptor(key: "author.name")]) == ["orphan", "File 2", "file 1", "file 10"])
            #expect(
                try titles(context, [FetchSortDescriptor(key: "author.name", ascending: false, comparison: .caseInsensitive)]) == [
                    "file 1", "file 10", "File 2", "orphan"
                ])

            // Unsaved changes sort by their current values, through relationships too.
            try context.one("Author", "name", "Ann").setValue("Zed", forKey: "name")
            try context.insert("Book", ["title": "new", "author": try context.one("Author", "name", "bob")])
            #expect(
                try titles(
                    context, [FetchSortDescriptor(key: "author.name", comparison: .caseInsensitive), FetchSortDescriptor(key: "title")])
                    == ["orphan", "file 10", "new", "file 1", "File 2"])
        }
    }

    /// Core Data's `localizedCompare:` and `localizedCaseInsensitiveCompare:` sorts: the order of
    /// Foundation's comparisons, the same on both stores (SQLite through collations).
    @Test(arguments: StoreKind.allCases)
    func localizedComparisonsSortAsFoundationCompares(kind: StoreKind) throws {
        let titles = ["Zebra", "apple", "Apple", "éclair", "Eclair", "banana", "apple"]
        let store = try TestStore.graph(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            for title in titles { try context.insert("Book", ["title": title]) }
            try context.save()
        }
        try store.reopen()
        try store.withNewContext { (context: ManagedObjectContext) throws in
            let localized = try self.titles(context, [FetchSortDescriptor(key: "title", comparison: .localized)])
            #expect(
                localized
                    == titles.sorted {
                        $0.localizedCompare($1) == .orderedAscending
                            || $0.localizedCompare($1) == .orderedSame && Array($0.utf8).lexicographicallyPrecedes($1.utf8)
                    })
            // Unlike byte order, letters come before "Zebra" whatever their case or accent.
            #expect(localized.last == "Zebra")
            let folded = try self.titles(
                context, [FetchSortDescriptor(key: "title", ascending: false, comparison: .localizedCaseInsensitive)])
            #expect(folded.first == "Zebra")
            #expect(folded.reversed().map { $0.lowercased() }.prefix(3) == ["apple", "apple", "apple"])
            // Equal ignoring case: told apart by bytes, so the order is total and the same on both stores.
            #expect(Array(folded.reversed().prefix(3)) == ["Apple", "apple", "apple"])
        }
    }
}
