/// The loaded destinations of one object's to-many relationship: a set, plus the order for
/// ordered relationships, plus what it held when it was loaded or last saved (kept from the first
/// change on, to tell the store what was added and removed).
struct RelatedObjects {
    private(set) var members: Set<ManagedObject>
    /// The members in order, for ordered relationships; `nil` for unordered ones.
    private(set) var order: [ManagedObject]?
    /// The members as loaded or last saved, from the first change on; `nil` while unchanged.
    private(set) var committed: (members: Set<ManagedObject>, order: [ManagedObject]?)?

    init(_ objects: [ManagedObject], isOrdered: Bool) {
        members = Set(objects)
        order = isOrdered ? objects : nil
    }

    var isChanged: Bool { committed != nil }
    var count: Int { members.count }
    func contains(_ object: ManagedObject) -> Bool { members.contains(object) }

    /// The members in the relationship's order (ordered) or in no particular order.
    var objects: [ManagedObject] { order ?? Array(members) }

    /// The members as loaded or last saved, as `objects` lists them.
    var committedObjects: [ManagedObject] {
        guard let committed else { return objects }
        return committed.order ?? Array(committed.members)
    }

    /// Adds `object` at `index` (the end when `nil`); returns whether it was not a member yet.
    @discardableResult
    mutating func insert(_ object: ManagedObject, at index: Int? = nil) -> Bool {
        guard !members.contains(object) else { return false }
        keepCommitted()
        members.insert(object)
        if order != nil {
            order!.insert(object, at: min(index ?? order!.count, order!.count))
        }
        return true
    }

    /// Removes `object`; returns whether it was a member.
    @discardableResult
    mutating func remove(_ object: ManagedObject) -> Bool {
        guard members.contains(object) else { return false }
        keepCommitted()
        members.remove(object)
        if let position = order?.firstIndex(where: { $0 === object }) { order!.remove(at: position) }
        return true
    }

    /// Moves a member to `index` of an ordered relationship; returns whether the order changed.
    @discardableResult
    mutating func move(_ object: ManagedObject, to index: Int) -> Bool {
        guard let from = order?.firstIndex(where: { $0 === object }) else { return false }
        let target = min(index, order!.count - 1)
        guard from != target else { return false }
        keepCommitted()
        order!.remove(at: from)
        order!.insert(object, at: target)
        return true
    }

    /// What changed since the last save: members added and removed, and whether the order moved.
    func changes() -> (added: [ManagedObject], removed: [ManagedObject], orderChanged: Bool) {
        guard let committed else { return ([], [], false) }
        let added = (order ?? Array(members)).filter { !committed.members.contains($0) }
        let removed = (committed.order ?? Array(committed.members)).filter { !members.contains($0) }
        let orderChanged = order.map { current in committed.order.map { !current.elementsEqual($0, by: ===) } ?? true } ?? false
        return (added, removed, orderChanged)
    }

    /// Makes the current members the committed ones (after a save).
    mutating func commit() { committed = nil }

    /// Returns to the committed members (a rollback).
    mutating func revert() {
        guard let committed else { return }
        members = committed.members
        order = committed.order
        self.committed = nil
    }

    private mutating func keepCommitted() {
        if committed == nil { committed = (members, order) }
    }
}
