/// A fetch request kept answered: the results now, and again after every save, merge or reported
/// change (`processPendingChanges()`) of the context that touches the request's entity.
///
/// It follows the context as a `FetchedResultsController` does (synchronously, on the context's
/// queue, so no change is missed between two fetches) and holds the context weakly: a live fetch
/// never keeps a context alive. The stream's termination (the iterating task cancelled, or the
/// stream dropped) is what ends it. Touched only on the context's queue, hence `@unchecked`.
final class LiveFetch<Result: ManagedObject>: ContextResultsObserver, @unchecked Sendable {
    private weak var context: ManagedObjectContext?
    private let request: FetchRequest<Result>
    private let continuation: AsyncThrowingStream<[Result], any Error>.Continuation
    /// The entities whose changes make the results stale: the request's, and its sub-entities
    /// when it includes them.
    private var entityIndexes: Set<Int> = []

    init(context: ManagedObjectContext, request: FetchRequest<Result>, continuation: AsyncThrowingStream<[Result], any Error>.Continuation)
    {
        self.context = context
        self.request = request
        self.continuation = continuation
    }

    /// Starts following the context and yields the first results; on the context's queue.
    func start() {
        guard let context else { return continuation.finish() }
        do {
            guard let model = context.model else {
                throw ObjectGraphError(
                    .invalidOperation, "Cannot follow the results of a fetch: the context has no persistent store coordinator")
            }
            guard let entity = model.entity(named: request.entityName) else {
                throw ObjectGraphError(
                    .unknownEntity, "Cannot follow the results of a fetch of '\(request.entityName)': the model has no such entity")
            }
            entityIndexes = Set((request.includesSubentities ? model.kinds(of: entity) : [entity]).map(\.index))
            context.addResultsObserver(self)
            try yieldResults(of: context)
        } catch {
            continuation.finish(throwing: error)
        }
    }

    func contextDidChange(_ changes: ContextChanges) {
        guard let context else { return continuation.finish() }
        let touched = [changes.insertedObjectIDs, changes.updatedObjectIDs, changes.deletedObjectIDs, changes.refreshedObjectIDs]
            .contains { ids in ids.contains { entityIndexes.contains($0.entity.index) } }
        guard touched else { return }
        do {
            try yieldResults(of: context)
        } catch {
            continuation.finish(throwing: error)
        }
    }

    private func yieldResults(of context: ManagedObjectContext) throws {
        continuation.yield(try context.fetch(request))
    }
}

extension ManagedObjectContext {
    /// The results of `request`, as an `AsyncSequence`: first the results now, then the results
    /// again after each save, merge (automatic or by `mergeChanges`) or `processPendingChanges()`
    /// of this context that inserts, changes or deletes an object of the request's entity. The
    /// objects belong to this context: read them on its queue (for the view context, on the main
    /// actor). The sequence ends when the iterating task is cancelled or the sequence is dropped;
    /// it throws when a fetch fails. It does not keep the context alive. A consumer slower than
    /// the changes gets the newest results (results it had no time for are skipped).
    ///
    /// ```swift
    /// for try await books in context.results(for: FetchRequest<Book>(entityName: "Book")) {
    ///     await context.perform { show(books) }
    /// }
    /// ```
    public func results<Result: ManagedObject>(for request: FetchRequest<Result>) -> AsyncThrowingStream<[Result], any Error> {
        let (stream, continuation) = AsyncThrowingStream<[Result], any Error>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let live = LiveFetch(context: self, request: request, continuation: continuation)
        // The stream's termination handler holds the live fetch (the context holds it weakly);
        // when the stream ends, the handler is let go and the live fetch with it.
        continuation.onTermination = { _ in _ = live }
        perform { live.start() }
        return stream
    }
}
