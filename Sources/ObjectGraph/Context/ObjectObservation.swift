import Observation

/// Managed objects take part in Swift's Observation while their context tracks it (see
/// `ManagedObjectContext.tracksObservation`): `withObservationTracking` sees the properties read
/// through generated properties, `value(forKey:)`, its typed forms, key paths and the relationship
/// accessors, and is told when one of them changes: set on the object, merged from another
/// context's save, refreshed, rolled back or turned into a fault.
extension ManagedObject: Observable {}

extension ManagedObjectContext {
    /// Whether the context's objects take part in Swift's Observation: `withObservationTracking`
    /// sees their properties read and is told when they change (set, merged, refreshed, rolled
    /// back, turned into a fault). On by default for main-queue contexts (the container's
    /// `viewContext`), whose objects the program shows and watches; off for private-queue
    /// contexts, whose bulk work would otherwise pay for every object read (a registrar per
    /// object, about half a microsecond). Turning it off stops telling current observers.
    ///
    /// Reads through `primitiveValue(forKey:)` are not observed, as in Core Data. A merge or
    /// refresh that reloads a to-many relationship tells its observers even when its members
    /// came back the same: they are known only once loaded again.
    public var tracksObservation: Bool {
        get { link.observation != nil }
        set {
            checkQueue("tracksObservation")
            if newValue != (link.observation != nil) { link.observation = newValue ? ObjectObservation() : nil }
        }
    }
}

/// The Observation state of one context's objects: a registrar for each object read while the
/// context tracks observation, and the key path that stands for each property slot.
///
/// Registrars live here rather than in the objects: making one costs three allocations, which
/// every fetched object would pay, observed or not. A context that does not track pays one
/// pointer check per read and write. Confined to the context's queue, as its objects are.
final class ObjectObservation {
    private var registrars: [ObjectIdentifier: ObservationRegistrar] = [:]
    /// `\ManagedObject.[observedSlot: n]` for each slot n, made on first use. Registrars are per
    /// object, so a key path needs to tell slots apart, not entities.
    private var keyPaths: [KeyPath<ManagedObject, Int>] = []

    /// Tells Observation that property `slot` of `object` was read.
    func access(_ object: ManagedObject, slot: Int) {
        let key = ObjectIdentifier(object)
        let registrar: ObservationRegistrar
        if let existing = registrars[key] {
            registrar = existing
        } else {
            registrar = ObservationRegistrar()
            registrars[key] = registrar
        }
        registrar.access(object, keyPath: keyPath(slot))
    }

    /// The registrar of `object`, or `nil` when none of its properties was read while tracked:
    /// then no one can be observing it.
    func registrar(of object: ManagedObject) -> ObservationRegistrar? {
        registrars.isEmpty ? nil : registrars[ObjectIdentifier(object)]
    }

    /// Drops `object`'s registrar: it is released or leaves the context, and another object may
    /// later have its address.
    func forget(_ object: ManagedObject) {
        if !registrars.isEmpty { registrars[ObjectIdentifier(object)] = nil }
    }

    /// The key path that stands for property `slot` in every registrar.
    func keyPath(_ slot: Int) -> KeyPath<ManagedObject, Int> {
        while keyPaths.count <= slot { keyPaths.append(\ManagedObject.[observedSlot: keyPaths.count]) }
        return keyPaths[slot]
    }
}

extension ManagedObject {
    /// What Observation knows property `slot` by: a key path through this subscript, which
    /// key-path equality tells apart by `slot`.
    subscript(observedSlot slot: Int) -> Int { slot }

    /// Tells Observation that property `slot` was read, when the context tracks observation.
    @inline(__always)
    func observeAccess(_ slot: Int) {
        if let observation = contextLink.observation { observation.access(self, slot: slot) }
    }

    /// The observers of property `slot`, or `nil` when no one can be observing it.
    @inline(__always)
    func observers(ofSlot slot: Int) -> PropertyObservers? {
        guard let observation = contextLink.observation, let registrar = observation.registrar(of: self) else { return nil }
        return PropertyObservers(object: self, registrar: registrar, keyPath: observation.keyPath(slot))
    }

    /// Runs `change` to property `slot`, telling the property's observers before and after.
    @inline(__always)
    func observingChange<T>(of slot: Int, _ change: () throws -> T) rethrows -> T {
        guard let observers = observers(ofSlot: slot) else { return try change() }
        observers.willSet()
        defer { observers.didSet() }
        return try change()
    }

    /// Runs `change`, which may replace any of the object's values and loaded relationships (a
    /// merge, a refresh, a rollback, turning into a fault), then tells the observers of each
    /// property it changed. They are told once the change is made: which properties it changes
    /// is known only then.
    func observingChanges(_ change: () -> Void) {
        guard let observation = contextLink.observation, let registrar = observation.registrar(of: self) else { return change() }
        let valuesBefore = values
        let relatedBefore = loadedToMany
        change()
        var changedSlots = valuesBefore.indices.filter { slot in
            slot >= values.count || !valuesBefore[slot].isStoredEqual(to: values[slot])
        }
        let toManyStart = entity.rowWidth
        for (position, before) in relatedBefore.enumerated() {
            guard let before else { continue }
            let after = position < loadedToMany.count ? loadedToMany[position] : nil
            if after?.members != before.members || after?.order != before.order { changedSlots.append(toManyStart + position) }
        }
        for slot in changedSlots {
            let observers = PropertyObservers(object: self, registrar: registrar, keyPath: observation.keyPath(slot))
            observers.willSet()
            observers.didSet()
        }
    }
}

/// Whoever observes one property of one object: what a change tells before and after.
struct PropertyObservers {
    let object: ManagedObject
    let registrar: ObservationRegistrar
    let keyPath: KeyPath<ManagedObject, Int>

    func willSet() { registrar.willSet(object, keyPath: keyPath) }
    func didSet() { registrar.didSet(object, keyPath: keyPath) }
}
