import Foundation

@testable import ObjectGraph

/// Models, directories and save requests for the SQLite layer's tests, built directly through the
/// internal initializers so these tests do not depend on the JSON loader.
enum SQLiteFixtures {
    /// `Member`: a unique email, an indexed name, an optional note, a transient flag.
    /// `Sample`: one attribute of every type, all optional except `label`.
    static func model(name: String = "Club", version: Int = 1, hash: String = "hash-club-1") -> ManagedObjectModel {
        let member = EntityDescription(
            name: "Member",
            attributes: [
                AttributeDescription(name: "email", type: .string, index: 0),
                AttributeDescription(name: "name", type: .string, isIndexed: true, index: 1),
                AttributeDescription(name: "note", type: .string, isOptional: true, index: 2),
                AttributeDescription(name: "selected", type: .boolean, isTransient: true, defaultValue: .boolean(false), index: 3),
                AttributeDescription(name: "age", type: .integer16, isOptional: true, index: 4)
            ],
            uniquenessConstraints: [["email"]],
            indexes: [["name", "age"]],
            index: 0)
        let types: [AttributeType] = [
            .integer16, .integer32, .integer64, .double, .float, .decimal, .string, .boolean, .date, .binary, .uuid, .uri, .json
        ]
        let sample = EntityDescription(
            name: "Sample",
            attributes: [AttributeDescription(name: "label", type: .string, index: 0)]
                + types.enumerated().map { offset, type in
                    AttributeDescription(name: "\(type.rawValue)Value", type: type, isOptional: true, index: offset + 1)
                },
            index: 1)
        return ManagedObjectModel(
            name: name, version: version, entities: [member, sample], versionHash: hash,
            canonicalJSON: Data("{\"name\":\"\(name)\"}".utf8), sourceURL: nil)
    }

    /// A fresh directory under the temporary directory, removed by the caller's `defer`.
    static func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ObjectGraphSQLiteTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func description(_ url: URL, readOnly: Bool = false, pragmas: [String: String] = [:]) -> PersistentStoreDescription {
        var description = PersistentStoreDescription(url: url)
        description.isReadOnly = readOnly
        description.sqlitePragmas = pragmas
        return description
    }

    /// An insert of a new `Member` with a temporary ID.
    static func member(
        _ store: SQLiteStore, _ number: UInt64, email: String, name: String = "Someone", note: String? = nil
    ) -> SaveRequest.Insert {
        let entity = store.model.entities[0]
        return SaveRequest.Insert(
            objectID: ManagedObjectID(space: store.idSpaces[entity.index], temporaryNumber: number),
            values: [.string(email), .string(name), note.map(AttributeValue.string) ?? .null, .boolean(true), .integer(30)])
    }

    /// A fetch of every row of `entity`, in primary-key order.
    static func fetchAll(_ store: SQLiteStore, _ entity: Int = 0) throws -> [Snapshot] {
        try store.fetch(StoreFetchRequest(entity: store.model.entities[entity]))
    }
}

/// Collects the SQL a store runs, from its queue, for the test thread to read.
final class SQLiteStatementLog: Sendable {
    private let statements = Locked<[String]>([])

    var all: [String] { statements.withLock { $0 } }

    func record(_ sql: String) { statements.withLock { $0.append(sql) } }
}

/// A value set on one thread and read on another.
final class LockedValue<Value: Sendable>: Sendable {
    private let stored = Locked<Value?>(nil)

    var value: Value? { stored.withLock { $0 } }

    func set(_ value: Value?) { stored.withLock { $0 = value } }

    /// Changes the value in place (it must have been set).
    func update(_ change: (inout Value) -> Void) {
        stored.withLock { value in
            if value != nil { change(&value!) }
        }
    }
}
