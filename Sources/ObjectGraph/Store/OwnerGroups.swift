/// Rows grouped by the key of the object that owns them, for rows that mostly arrive owner by
/// owner (a membership query ordered by owner, a table scan in key order): each owner's run is
/// gathered in a reused buffer and stored with one dictionary access, not one per row.
package struct OwnerGroups<Element> {
    private(set) var groups: [Int64: [Element]] = [:]
    private var owner: Int64 = 0
    private var run: [Element] = []

    package init() {}

    package mutating func append(_ element: Element, owner rowOwner: Int64) {
        if rowOwner != owner {
            flush()
            owner = rowOwner
        }
        run.append(element)
    }

    /// The groups, once every row is appended.
    package mutating func finished() -> [Int64: [Element]] {
        flush()
        return groups
    }

    private mutating func flush() {
        guard !run.isEmpty else { return }
        groups[owner, default: []] += run
        run.removeAll(keepingCapacity: true)
    }
}
