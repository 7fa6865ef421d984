import Foundation
import Testing

@testable import ObjectGraph
@testable import ObjectGraphPostgres

/// `PredicateDifferentialTests` on a PostgreSQL store: the same random rows and predicates, the
/// rows saved through the store and fetched with each predicate compiled in PostgreSQL's dialect;
/// the store must return exactly the rows the in-memory evaluator matches.
///
/// Every predicate is compared: integers from 2^53 on against doubles, decimals against doubles
/// (3.4573102, which SQLite's own REAL conversion rounds otherwise), MATCHES with ICU's leading
/// `(?i)`. Text holding NUL cannot be stored (such rows hold "a" instead), and a predicate
/// comparing with it is refused with its error.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "no PostgreSQL server for the tests"))
struct PostgreSQLPredicateDifferentialTests {
    @Test func randomPredicatesMatchTheInMemoryEvaluator() throws {
        let server = try PostgreSQLTestServer.shared.get()
        let database = try server.createDatabase()
        defer { server.dropDatabase(database) }
        let container = PersistentContainer(name: "Fixtures", managedObjectModel: PredicateFixtures.model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(postgresURL: server.url(database: database))]
        try container.loadPersistentStores()
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let store = try container.persistentStoreCoordinator.requireStore()
        let entity = PredicateDifferentialTests.entity

        var generator = SeededGenerator(seed: 0xD1FF)
        let rows = (0..<160).map { _ in
            ValueRow(
                PredicateDifferentialTests.randomRow(using: &generator).map { value -> AttributeValue in
                    if case .string(let text) = value, Self.holdsNUL(text) { return .string("a") }
                    return value
                })
        }
        var request = SaveRequest()
        let space = ObjectIDSpace(entity: entity, storeIdentifier: "")
        request.inserts = SaveRequest.Inserts(
            rows.enumerated().map {
                SaveRequest.Insert(objectID: ManagedObjectID(space: space, temporaryNumber: UInt64($0.offset + 1)), values: $0.element)
            })
        #expect(try store.save(request) == Array(1...Int64(rows.count)))

        var compared = 0
        var refused = 0
        for _ in 0..<1_500 {
            let (format, arguments) = PredicateDifferentialTests.randomPredicate(depth: 0, using: &generator)
            guard
                let predicate = try? FetchPredicate(format: format, argumentArray: arguments).bind(to: entity, in: PredicateFixtures.model)
            else { continue }
            if arguments.contains(where: Self.holdsNUL) {
                let error = #expect(throws: ObjectGraphError.self) {
                    try store.fetch(StoreFetchRequest(entity: entity, predicate: predicate))
                }
                #expect(error?.kind == .invalidOperation, "\(format) \(arguments)")
                #expect(error?.message.contains("PostgreSQL text cannot hold the NUL character (U+0000)") == true, "\(format) \(arguments)")
                refused += 1
                continue
            }
            compared += 1
            let inStore = try store.fetch(StoreFetchRequest(entity: entity, predicate: predicate)).map(\.primaryKey)
            let inMemory = rows.indices.filter { predicate.evaluate(rows[$0]) }.map { Int64($0 + 1) }
            #expect(inStore == inMemory, "\(format) \(arguments) → \(predicate.sqlFragment(in: PostgreSQLDialect()).sql)")
        }
        #expect(compared > 1_000)
        #expect(refused > 0)
    }

    private static func holdsNUL(_ text: String) -> Bool { text.utf8.contains(0) }

    /// Whether `argument` is, or a list holding, a string with NUL.
    private static func holdsNUL(_ argument: any Sendable) -> Bool {
        switch argument {
        case let list as [any Sendable]: return list.contains(where: holdsNUL)
        case let text as String: return holdsNUL(text)
        default: return false
        }
    }
}
