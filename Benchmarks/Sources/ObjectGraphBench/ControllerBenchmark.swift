import Dispatch
import Foundation
import ObjectGraph

/// Issue 19's controller workloads: what a `FetchedResultsController` showing N objects adds to
/// (a) a save that edits one shown object in a key the request does not filter, sort or section
/// by, and (b) the merge of another context's save that edits 1,000 of them. Each is timed with
/// and without a controller on the context; the difference is the controller's cost. Run at two
/// sizes, it shows whether that cost grows with the objects shown.
///
///     objectgraph-bench --controller [N …]   (default: 1000 10000)
enum ControllerBenchmark {
    static let modelJSON = """
        { "name": "Feed", "version": 1, "entities": [ { "name": "Entry", "attributes": [
            { "name": "rank", "type": "integer64" }, { "name": "title", "type": "string" },
            { "name": "note", "type": "string", "optional": true } ] } ] }
        """
    static let edits = 500
    static let mergedObjects = 1_000
    static let merges = 10

    static func main(_ arguments: [String]) throws -> Bool {
        let sizes = arguments.dropFirst().compactMap { Int($0) }
        print("| objects shown | controller | edit + save, µs | merge of a 1,000-object save, µs |")
        print("|---:|---|---:|---:|")
        var rows: [(Int, Bool, Double, Double)] = []
        for size in sizes.isEmpty ? [1_000, 10_000] : sizes {
            for withController in [false, true] {
                let (edit, merge) = try measure(size: max(size, mergedObjects), controller: withController)
                rows.append((size, withController, edit, merge))
                print("| \(size) | \(withController ? "yes" : "no") | \(String(format: "%.1f", edit)) | \(String(format: "%.0f", merge)) |")
            }
        }
        print("\nThe controller's cost (with − without):\n\n| objects shown | per edit + save, µs | per merged save, µs |\n|---:|---:|---:|")
        for index in stride(from: 0, to: rows.count, by: 2) {
            print("| \(rows[index].0) | \(String(format: "%.1f", rows[index + 1].2 - rows[index].2)) | \(String(format: "%.0f", rows[index + 1].3 - rows[index].3)) |")
        }
        return true
    }

    /// Microseconds per edit-and-save and per merged save, median of three rounds.
    private static func measure(size: Int, controller withController: Bool) throws -> (Double, Double) {
        let model = try ManagedObjectModel(data: Data(modelJSON.utf8))
        let container = PersistentContainer(name: "Feed", managedObjectModel: model)
        container.persistentStoreDescriptions = [.inMemory]
        try container.loadPersistentStores()
        let watched = container.newBackgroundContext()
        let other = container.newBackgroundContext()
        var request = FetchRequest<ManagedObject>(entityName: "Entry")
        request.sortDescriptors = [FetchSortDescriptor(key: "rank"), FetchSortDescriptor(key: "title")]
        var controller: FetchedResultsController<ManagedObject>?
        let shown: [ManagedObject] = try watched.performAndWait {
            for number in 0..<size {
                let entry = try watched.insertNewObject(forEntityName: "Entry")
                try entry.setValue(Int64(number % 97), forKey: "rank")
                try entry.setValue("Entry \(number)", forKey: "title")
            }
            try watched.save()
            if withController {
                controller = FetchedResultsController(fetchRequest: request, managedObjectContext: watched)
                try controller?.performFetch()
            }
            return try watched.fetch(request)
        }
        var editTimes: [Double] = []
        var mergeTimes: [Double] = []
        for round in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            try watched.performAndWait {
                for edit in 0..<edits {
                    try shown[(edit * 7_919) % shown.count].setValue("note \(round)-\(edit)", forKey: "note")
                    try watched.save()
                }
            }
            editTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000 / Double(edits))
            var total: UInt64 = 0
            for merge in 0..<merges {
                // The other context's save, and the change set its did-save notification carries.
                let changes: ContextChanges = try other.performAndWait {
                    let entries = try other.fetch(request)
                    var edited: Set<ManagedObjectID> = []
                    for index in 0..<mergedObjects {
                        let entry = entries[(index * 13) % entries.count]
                        try entry.setValue("merged \(round)-\(merge)", forKey: "note")
                        edited.insert(entry.objectID)
                    }
                    try other.save()
                    return ContextChanges(event: .didSave, updatedObjectIDs: edited)
                }
                let start = DispatchTime.now().uptimeNanoseconds
                watched.performAndWait { watched.mergeChanges(changes) }
                total += DispatchTime.now().uptimeNanoseconds - start
            }
            mergeTimes.append(Double(total) / 1_000 / Double(merges))
        }
        _ = controller
        return (editTimes.sorted()[1], mergeTimes.sorted()[1])
    }
}
