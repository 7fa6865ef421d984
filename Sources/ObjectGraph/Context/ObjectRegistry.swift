/// The live objects of a context by object ID, held unretained (see `ManagedObjectContext.registered`).
///
/// Stored rows' keys are small and dense (each table counts from 1), so each entity's objects sit
/// in an array indexed by key while the keys stay dense, and a dictionary holds the rest (keys far
/// beyond the array, IDs of another store or model). A fetch registers its objects in key order:
/// writing consecutive array slots instead of hashing every ID into a large table keeps that work
/// in the processor's caches, and finding an object by ID is an array read.
struct ObjectRegistry {
    /// Per entity (by index in its model): the objects by primary key, and how many slots hold one.
    private var tables: [DenseTable] = []
    /// IDs the tables do not cover. An ID is in a table or here, never in both.
    private var others: [ManagedObjectID: Unmanaged<ManagedObject>] = [:]

    private struct DenseTable {
        /// The entity and store of the table's IDs: the first ID of the entity it was given.
        var space: ObjectIDSpace?
        var slots: [Unmanaged<ManagedObject>?] = []
        var count = 0

        /// Whether `objectID` belongs to this table's entity and store.
        @inline(__always)
        func holds(_ objectID: ManagedObjectID) -> Bool {
            guard let space else { return false }
            let other = objectID.space
            return space === other || (space.entity === other.entity && space.storeIdentifier == other.storeIdentifier)
        }

        /// Whether the table may grow to slot `key`: keys stay within a few times the objects held
        /// (counting `expected` more on their way).
        func mayGrow(to key: Int, expecting expected: Int) -> Bool {
            key < Swift.max(4_096, 4 * (count + expected + 1))
        }
    }

    /// The slot of `objectID` in its entity's table, if the table covers it.
    @inline(__always)
    private func slot(of objectID: ManagedObjectID) -> (table: Int, key: Int)? {
        guard let key = objectID.primaryKey else { return nil }
        let table = objectID.entity.index
        guard table < tables.count, Int(key) < tables[table].slots.count, tables[table].holds(objectID) else { return nil }
        return (table, Int(key))
    }

    /// How many more objects are about to be registered (a fetch's rows): a table may grow to
    /// keys that many more objects make dense, even when they arrive from the highest key down.
    private var expected = 0

    /// Announces that about `count` objects are about to be registered; `expect(0)` when done.
    mutating func expect(_ count: Int) {
        expected = count
    }

    var isEmpty: Bool { count == 0 }

    private(set) var count = 0

    subscript(objectID: ManagedObjectID) -> Unmanaged<ManagedObject>? {
        get {
            if let (table, key) = slot(of: objectID), let entry = tables[table].slots[key] { return entry }
            return others.isEmpty ? nil : others[objectID]
        }
        set {
            if let newValue { insert(newValue, for: objectID) } else { _ = removeValue(forKey: objectID) }
        }
    }

    private mutating func insert(_ entry: Unmanaged<ManagedObject>, for objectID: ManagedObjectID) {
        if let (table, key) = slot(of: objectID) ?? grownSlot(for: objectID) {
            if tables[table].slots[key] == nil {
                if expected > 0 { expected -= 1 }
                tables[table].count += 1
                count += 1
                // Registered under the dictionary before the table reached its key.
                if !others.isEmpty, others.removeValue(forKey: objectID) != nil { count -= 1 }
            }
            tables[table].slots[key] = entry
            return
        }
        if others.updateValue(entry, forKey: objectID) == nil { count += 1 }
    }

    /// The slot of `objectID` after growing its entity's table to it, or `nil` if the key is too
    /// far beyond the table (or the ID belongs to another store).
    private mutating func grownSlot(for objectID: ManagedObjectID) -> (table: Int, key: Int)? {
        guard let primaryKey = objectID.primaryKey else { return nil }
        let table = objectID.entity.index
        let key = Int(primaryKey)
        if table >= tables.count { tables += Array(repeating: DenseTable(), count: table + 1 - tables.count) }
        if tables[table].space == nil { tables[table].space = objectID.space }
        guard tables[table].holds(objectID), tables[table].mayGrow(to: key, expecting: expected) else { return nil }
        let slots = tables[table].slots.count
        if key >= slots {
            // Grown by doubling (within the density bound), as keys usually arrive one by one.
            let grown = Swift.max(key + 1, Swift.min(2 * slots, 4 * (tables[table].count + expected + 1) + 4_096))
            tables[table].slots += repeatElement(nil, count: grown - slots)
        }
        return (table, key)
    }

    /// Removes the entry of `objectID`; returns it.
    @discardableResult
    mutating func removeValue(forKey objectID: ManagedObjectID) -> Unmanaged<ManagedObject>? {
        if let (table, key) = slot(of: objectID), let entry = tables[table].slots[key] {
            tables[table].slots[key] = nil
            tables[table].count -= 1
            count -= 1
            return entry
        }
        guard !others.isEmpty, let entry = others.removeValue(forKey: objectID) else { return nil }
        count -= 1
        return entry
    }

    /// Up to `limit` objects of `objectID`'s entity and store that pass `include`, nearest to its
    /// key first (the keys above it, then the keys below), looking at no more than `4 × limit`
    /// keys each way (objects held in the entity's dense table only).
    func objects(near objectID: ManagedObjectID, limit: Int, where include: (ManagedObject) -> Bool) -> [ManagedObject] {
        let table = objectID.entity.index
        guard let key = objectID.primaryKey, table < tables.count, tables[table].holds(objectID) else { return [] }
        var found: [ManagedObject] = []
        let slots = tables[table].slots
        func collect(_ positions: some Sequence<Int>) {
            for position in positions {
                guard found.count < limit else { return }
                if let entry = slots[position], case let object = entry.takeUnretainedValue(), include(object) {
                    found.append(object)
                }
            }
        }
        let start = Swift.min(Int(key), slots.count)
        collect((start + 1)..<Swift.max(start + 1, Swift.min(slots.count, start + 1 + 4 * limit)))
        collect(stride(from: start - 1, through: Swift.max(0, start - 4 * limit), by: -1))
        return found
    }

    /// Every entry.
    var values: [Unmanaged<ManagedObject>] {
        var entries: [Unmanaged<ManagedObject>] = []
        entries.reserveCapacity(count)
        for table in tables where table.count > 0 {
            for case let entry? in table.slots { entries.append(entry) }
        }
        entries += others.values
        return entries
    }

    mutating func removeAll() {
        tables = []
        others = [:]
        count = 0
    }
}
