/// An object's way back to its context: one link per context, shared by all of the context's
/// objects, which holds the context weakly.
///
/// Objects must not keep their context alive (as in Core Data), so something between them is
/// weak. A weak reference from every object to the context costs three atomic operations on the
/// context's side table per object made (a retain, the weak assignment, a release) and another
/// when the object goes: for a large fetch, the largest part of making its objects. A strong
/// reference to the shared link is one ordinary retain of an object the processor's caches hold.
///
/// `@unchecked Sendable`: `observation` is read and changed only on the context's queue, where
/// its objects are used.
final class ContextLink: @unchecked Sendable {
    /// The context, or `nil` once it is gone (or for `detached`).
    weak let context: ManagedObjectContext?
    /// The Observation state of the context's objects while the context tracks observation;
    /// `nil` otherwise. Here, one load from every object, because every read and write asks.
    @exclusivity(unchecked) var observation: ObjectObservation?

    init(_ context: ManagedObjectContext?) {
        self.context = context
    }

    /// The link of objects outside any context: not inserted yet, or removed from their context.
    static let detached = ContextLink(nil)
}
