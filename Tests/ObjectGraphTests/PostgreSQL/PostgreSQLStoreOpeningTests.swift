import Foundation
import ObjectGraphPostgres
import Testing

@testable import ObjectGraph

/// Opening a PostgreSQL store: what is created, what is refused, and errors a person can act on.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "no PostgreSQL server for the tests"))
struct PostgreSQLStoreOpeningTests {
    private static func open(_ url: URL, model: ManagedObjectModel? = nil, migrates: Bool = true) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Conformance", managedObjectModel: try model ?? ConformanceModel.load())
        var description = PersistentStoreDescription(postgresURL: url)
        description.shouldMigrateStoreAutomatically = migrates
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }

    private static func error(opening url: URL, model: ManagedObjectModel? = nil, migrates: Bool = true) throws -> ObjectGraphError {
        do {
            let container = try open(url, model: model, migrates: migrates)
            container.persistentStoreCoordinator.removePersistentStore()
        } catch let error as ObjectGraphError {
            return error
        }
        Issue.record("opening \(url) did not fail")
        throw CancellationError()
    }

    @Test func aStoreKeepsItsObjectsAndItsIdentifierAcrossOpenings() throws {
        let server = try PostgreSQLTestServer.shared.get()
        let database = try server.createDatabase()
        defer { server.dropDatabase(database) }
        let first = try Self.open(server.url(database: database))
        let identifier = try #require(first.persistentStoreCoordinator.persistentStoreIdentifier)
        let context = first.newBackgroundContext()
        let uri = try context.performAndWait {
            let item = try context.insertItem("KEPT-1", ["title": "kept"])
            try context.save()
            return item.objectID.uriRepresentation()
        }
        first.persistentStoreCoordinator.removePersistentStore()

        let second = try Self.open(server.url(database: database))
        defer { second.persistentStoreCoordinator.removePersistentStore() }
        #expect(second.persistentStoreCoordinator.persistentStoreIdentifier == identifier)
        #expect(uri.host == identifier)
        let reader = second.newBackgroundContext()
        let title = try reader.performAndWait {
            try reader.existingObject(with: try #require(second.persistentStoreCoordinator.managedObjectID(forURIRepresentation: uri)))
                .value(forKey: "title", as: String.self)
        }
        #expect(title == "kept")
    }

    @Test func aRefusedConnectionSaysNoServerListens() throws {
        // Port 1 of the loopback interface: nothing listens there (tcpmux is long gone).
        let url = URL(string: "postgres://\(PostgreSQLTestServer.user)@127.0.0.1:1/app")!
        let error = try Self.error(opening: url)
        #expect(error.kind == .storeUnavailable)
        #expect(
            error.message.contains("Cannot open the PostgreSQL store at postgres://\(PostgreSQLTestServer.user)@127.0.0.1:1/"),
            "\(error.message)")
        #expect(error.message.contains("no PostgreSQL server listens on 127.0.0.1:1"), "\(error.message)")
    }

    @Test func aWrongPasswordIsSaidToBeOneAndNeverShown() throws {
        let server = try PostgreSQLTestServer.shared.get()
        let database = try server.createDatabase()
        defer { server.dropDatabase(database) }
        let error = try Self.error(opening: server.url(database: database, password: "not-the-password"))
        #expect(error.kind == .storeUnavailable)
        #expect(error.message.contains("the server refused user '\(PostgreSQLTestServer.user)': wrong password"), "\(error.message)")
        #expect(!error.message.contains("not-the-password"))
    }

    @Test func aMissingDatabaseIsNamed() throws {
        let server = try PostgreSQLTestServer.shared.get()
        let error = try Self.error(opening: server.url(database: "og_no_such_database"))
        #expect(error.kind == .storeUnavailable)
        #expect(error.message.contains("the database 'og_no_such_database' does not exist on the server"), "\(error.message)")
    }

    /// Without automatic migration (see the migration tests for what it does).
    @Test func aStoreOfAnotherModelIsRefusedWithoutMigration() throws {
        let server = try PostgreSQLTestServer.shared.get()
        let database = try server.createDatabase()
        defer { server.dropDatabase(database) }
        try Self.open(server.url(database: database)).persistentStoreCoordinator.removePersistentStore()
        let other = try ManagedObjectModel(
            data: Data(
                #"{"name": "Other", "version": 1, "entities": [{"name": "Thing", "attributes": [{"name": "label", "type": "string"}]}]}"#
                    .utf8), sourceName: "Other")
        let error = try Self.error(opening: server.url(database: database), model: other, migrates: false)
        #expect(error.kind == .modelMismatch)
        #expect(error.message.contains("was created with model 'Conformance'"), "\(error.message)")
        #expect(error.message.contains("opened with model 'Other'"), "\(error.message)")
    }

    @Test func aDatabaseHoldingOtherTablesIsRefused() throws {
        let server = try PostgreSQLTestServer.shared.get()
        let database = try server.createDatabase()
        defer { server.dropDatabase(database) }
        try server.runSQL("CREATE TABLE unrelated (id integer)", in: database)
        let error = try Self.error(opening: server.url(database: database))
        #expect(error.kind == .storeUnavailable)
        #expect(error.message.contains("holds tables but no ObjectGraph store"), "\(error.message)")
    }

    @Test func aPostgresURLOfTheSQLiteDescriptionNamesTheProductToUse() throws {
        let container = PersistentContainer(name: "Conformance", managedObjectModel: try ConformanceModel.load())
        container.persistentStoreDescriptions = [
            PersistentStoreDescription(url: URL(string: "postgres://someone:secret@127.0.0.1:5432/app")!)
        ]
        let error = #expect(throws: ObjectGraphError.self) { try container.loadPersistentStores() }
        #expect(error?.kind == .storeUnavailable)
        #expect(
            error?.message.contains("needs ObjectGraphPostgres and PersistentStoreDescription(postgresURL:)") == true,
            "\(error?.message ?? "")")
        #expect(error?.message.contains("secret") == false)
    }

    @Test func theDescriptionNamesTheServerWithoutThePassword() {
        let description = PersistentStoreDescription(postgresURL: URL(string: "postgres://app:secret@db.example:6543/library")!)
        #expect(description.type == .postgreSQL)
        #expect(description.description == "PostgreSQL store at postgres://app@db.example:6543/library")
    }
}
