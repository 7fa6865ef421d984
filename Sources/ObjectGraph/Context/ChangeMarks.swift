/// What a context has yet to report about one of its objects, and how it left the store: the
/// marks behind `processPendingChanges()` (each change reported once per event), deletions
/// waiting for their delete rules, and merged deletions. One byte, stored beside the object's
/// other flags.
struct ChangeMarks: OptionSet {
    let rawValue: UInt8

    /// Inserted, changed or deleted since the context last posted objects-did-change for it.
    static let changedInEvent = ChangeMarks(rawValue: 1 << 0)
    /// An inserted object whose insertion an objects-did-change has reported: its later changes
    /// are reported as updates, and its deletion as a deletion.
    static let insertReported = ChangeMarks(rawValue: 1 << 1)
    /// Deleted by another context's save (or a batch delete) merged into this one: the object is
    /// deleted, yet has nothing to save.
    static let deletedElsewhere = ChangeMarks(rawValue: 1 << 2)
    /// Changed since the save in progress last called `willSave()` on the object (or on any
    /// object, for one it has not called yet): such an object gets `willSave()` again.
    static let changedSinceWillSave = ChangeMarks(rawValue: 1 << 3)
    /// Set with `setPrimitiveValue(_:forKey:)`: a save of the object compares its values with the
    /// saved ones to find the columns those untracked sets changed.
    static let primitiveChanges = ChangeMarks(rawValue: 1 << 4)
    /// Marked by `detectConflicts(for:)`: the next save checks the object's row version even
    /// when the object has nothing to write.
    static let detectsConflicts = ChangeMarks(rawValue: 1 << 5)
    /// Deleted in this context, its delete rules not followed yet (see
    /// `ManagedObjectContext.delete(_:)`): its neighbours may still point at it, so relationships
    /// loaded meanwhile hold it and changes of those relationships keep it in step.
    static let deletionPending = ChangeMarks(rawValue: 1 << 6)
    /// What any tracked change marks.
    static let changed: ChangeMarks = [.changedInEvent, .changedSinceWillSave]
}
