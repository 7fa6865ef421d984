import Foundation
import ObjectGraph
import Testing

/// What a generated property does when it cannot do its work: it stops the program with a message
/// naming the object, the property and the reason (the key-based calls throw instead).
@Suite struct GeneratedFailureTests {
    @Test func readingAPropertyOfAnObjectWhoseRowIsGoneStopsNamingIt() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let store = try CatalogStore(.inMemory)
            let tag = Tag(context: store.context)
            tag.name = "gone"
            try store.context.save()
            let other = store.container.newBackgroundContext()
            let fault = other.performAndWait { other.object(with: tag.objectID) as! Tag }
            store.context.delete(tag)
            try store.context.save()
            _ = other.performAndWait { fault.name }
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("reading Tag.name of Tag/p1"))
        #expect(message.contains("no Tag with ID"))
    }

    @Test func theThrowingKeyBasedCallIsTheAlternative() throws {
        let store = try CatalogStore(.inMemory)
        let tag = Tag(context: store.context)
        tag.name = "gone"
        try store.context.save()
        let other = store.container.newBackgroundContext()
        store.context.delete(tag)
        try store.context.save()
        let error = other.performAndWait { () -> ObjectGraphError? in
            do {
                _ = try other.object(with: tag.objectID).value(forKey: Tag.Attributes.name)
                return nil
            } catch {
                return error as? ObjectGraphError
            }
        }
        #expect(error?.kind == .objectNotFound)
    }

    @Test func readingARequiredAttributeBeforeItIsSetStopsNamingIt() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let store = try CatalogStore(.inMemory)
            _ = Chapter(context: store.context).title
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Chapter.title of Chapter/"))
        #expect(message.contains("is required but has no value yet"))
    }
}
