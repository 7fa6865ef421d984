import Foundation

/// What changed between two results of a fetched results controller, in the terms its delegate
/// hears: sections deleted and inserted, objects deleted (at their old index paths), inserted
/// (at their new ones), moved, and updated in place. Objects are told apart by `Key`: the
/// controller uses the objects' identities, which stay when a save makes a temporary ID permanent.
struct FetchedResultsDiff<Key: Hashable>: Equatable {
    /// One result: its sections' names and the IDs of their objects, in order.
    struct Layout: Equatable {
        var sections: [(name: String, keys: [Key])]

        static func == (lhs: Layout, rhs: Layout) -> Bool {
            lhs.sections.elementsEqual(rhs.sections) { $0.name == $1.name && $0.keys == $1.keys }
        }

        /// Where each object is.
        var indexPaths: [Key: IndexPath] {
            var paths: [Key: IndexPath] = [:]
            for (section, content) in sections.enumerated() {
                for (item, key) in content.keys.enumerated() { paths[key] = IndexPath(item: item, section: section) }
            }
            return paths
        }

        /// Every object's key, sections in order.
        var flattened: [Key] { sections.flatMap(\.keys) }
    }

    struct ObjectChange: Equatable {
        let key: Key
        let type: FetchedResultsChangeType
        /// Where the object was (delete, move, update).
        let indexPath: IndexPath?
        /// Where it is now (insert, move, update).
        let newIndexPath: IndexPath?
    }

    var deletedSections: [Int] = []
    var insertedSections: [Int] = []
    var objectChanges: [ObjectChange] = []

    var isEmpty: Bool { deletedSections.isEmpty && insertedSections.isEmpty && objectChanges.isEmpty }

    /// The changes from `old` to `new`. An object in both moved when its section changed or its
    /// place among the objects that stayed in order did; an object not in `updated` (whose sort
    /// keys did not change) keeps its order unless the results say otherwise, so inserts and
    /// deletes elsewhere move nothing, and of two objects that swapped, the changed one moved.
    /// An object in both that did not move is updated when its ID is in `updated`.
    init(from old: Layout, to new: Layout, updated: Set<Key>) {
        let oldNames = old.sections.map(\.name), newNames = new.sections.map(\.name)
        deletedSections = oldNames.indices.filter { !newNames.contains(oldNames[$0]) }
        insertedSections = newNames.indices.filter { !oldNames.contains(newNames[$0]) }

        let oldPaths = old.indexPaths, newPaths = new.indexPaths
        let oldOrder = old.flattened, newOrder = new.flattened
        for key in oldOrder where newPaths[key] == nil {
            objectChanges.append(ObjectChange(key: key, type: .delete, indexPath: oldPaths[key], newIndexPath: nil))
        }
        // The anchors: unchanged objects in both, those of them that kept their order.
        let oldOrdinals = Dictionary(uniqueKeysWithValues: oldOrder.enumerated().map { ($1, $0) })
        let unchanged = newOrder.compactMap { key in updated.contains(key) ? nil : oldOrdinals[key].map { (key, $0) } }
        let inOrder = Self.longestIncreasingRun(unchanged.map(\.1))
        let anchors = Set(unchanged.indices.filter(inOrder.contains).map { unchanged[$0].0 })
        let anchorsBeforeInOld = Self.anchorsBefore(in: oldOrder, anchors)
        let anchorsBeforeInNew = Self.anchorsBefore(in: newOrder, anchors)
        for key in newOrder {
            guard let was = oldPaths[key], let now = newPaths[key] else { continue }
            let moved =
                oldNames[was.section] != newNames[now.section]
                || (!anchors.contains(key) && anchorsBeforeInOld[key] != anchorsBeforeInNew[key])
                || (!anchors.contains(key) && !updated.contains(key))
            if moved {
                objectChanges.append(ObjectChange(key: key, type: .move, indexPath: was, newIndexPath: now))
            } else if updated.contains(key) {
                objectChanges.append(ObjectChange(key: key, type: .update, indexPath: was, newIndexPath: now))
            }
        }
        for key in newOrder where oldPaths[key] == nil {
            objectChanges.append(ObjectChange(key: key, type: .insert, indexPath: nil, newIndexPath: newPaths[key]))
        }
    }

    /// For each object of `order`, how many of `anchors` come before it.
    private static func anchorsBefore(in order: [Key], _ anchors: Set<Key>) -> [Key: Int] {
        var counts: [Key: Int] = [:]
        var seen = 0
        for key in order {
            counts[key] = seen
            if anchors.contains(key) { seen += 1 }
        }
        return counts
    }

    /// The positions of one longest strictly increasing subsequence of `values` (patience
    /// sorting, O(n log n)).
    static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []  // positions in `values` of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var run: Set<Int> = []
        var position = tails.last ?? -1
        while position >= 0 {
            run.insert(position)
            position = previous[position]
        }
        return run
    }
}
