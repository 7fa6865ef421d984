import Foundation
import ObjectGraph
import Testing

/// A `FetchedResultsController` of a generated class: typed objects in its sections and in its
/// delegate's calls.
@Suite struct GeneratedResultsControllerTests {
    final class TitleRecorder: FetchedResultsControllerDelegate {
        var changes: [String] = []

        func controller(
            _ controller: FetchedResultsController<CatalogBook>, didChange book: CatalogBook, at indexPath: IndexPath?,
            for type: FetchedResultsChangeType, newIndexPath: IndexPath?
        ) {
            changes.append("\(type) \(book.title)")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func typedSectionsAndChanges(_ kind: StoreKind) throws {
        let store = try CatalogStore(kind)
        let context = store.context
        let ann = Author(context: context)
        ann.id = UUID()
        ann.name = "Ann"
        for title in ["Swift in Depth", "Learning Swift"] {
            let book = CatalogBook(context: context)
            book.title = title
            book.author = ann
        }
        try context.save()

        var request = CatalogBook.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "author.name"), FetchSortDescriptor(key: "title")]
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "author.name")
        let recorder = TitleRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        #expect(controller.sections?.map(\.name) == ["Ann"])
        #expect(try controller.object(at: IndexPath(item: 0, section: 0)).title == "Learning Swift")

        let added = CatalogBook(context: context)
        added.title = "Advanced Swift"
        added.author = ann
        try context.save()
        #expect(recorder.changes == ["insert Advanced Swift"])
        #expect(controller.fetchedObjects?.map(\.title) == ["Advanced Swift", "Learning Swift", "Swift in Depth"])
    }
}
