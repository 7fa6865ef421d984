import Foundation
import Testing

@testable import ObjectGraph

/// Any stored value but binary data may become a string: integers, decimals, UUIDs, URLs and
/// JSON in SQL; reals, dates and Booleans in Swift (SQL would write them differently), as Swift
/// writes them.
@Suite struct TextConversionMigrationTests {
    static let version1 =
        #"{ "name": "Lab", "version": 1, "entities": [ { "name": "Reading", "attributes": [ { "name": "value", "type": "double" }, { "name": "ratio", "type": "float", "optional": true }, { "name": "at", "type": "date" }, { "name": "count", "type": "integer32" }, { "name": "valid", "type": "boolean" }, { "name": "extra", "type": "json", "optional": true } ] } ] }"#
    static let version2 =
        #"{ "name": "Lab", "version": 2, "entities": [ { "name": "Reading", "attributes": [ { "name": "value", "type": "string" }, { "name": "ratio", "type": "string", "optional": true }, { "name": "at", "type": "string" }, { "name": "count", "type": "string" }, { "name": "valid", "type": "string" }, { "name": "extra", "type": "string", "optional": true } ] } ] }"#

    @Test(arguments: MigrationStore.kinds) func realsDatesAndIntegersBecomeStringsAsSwiftWritesThem(_ kind: StoreKind) throws {
        let store = try MigrationStore(kind, name: "Lab")
        defer { withExtendedLifetime(store) {} }
        let url = store.url
        let moment = Date(timeIntervalSinceReferenceDate: 750_000_000.25)
        do {
            let container = try InferredMigrationTests.open(url, Self.version1)
            defer { container.persistentStoreCoordinator.removePersistentStore() }
            let context = container.newBackgroundContext()
            try context.performAndWait {
                for (value, ratio, count) in [(1.5, Float(0.25) as Float?, 7), (2.0, nil, -3)] {
                    let reading = try context.insertNewObject(forEntityName: "Reading")
                    try reading.setValue(value, forKey: "value")
                    try reading.setValue(ratio, forKey: "ratio")
                    try reading.setValue(moment, forKey: "at")
                    try reading.setValue(count, forKey: "count")
                    try reading.setValue(count > 0, forKey: "valid")
                    try reading.setValue(count > 0 ? ["unit": "K"] : nil, forKey: "extra")
                }
                try context.save()
            }
        }
        let container = try InferredMigrationTests.open(url, Self.version2)
        defer { container.persistentStoreCoordinator.removePersistentStore() }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let readings = try context.objects("Reading").sorted { $0.objectID.primaryKey! < $1.objectID.primaryKey! }
            #expect(try readings.map { try $0.get("value", as: String.self) } == ["1.5", "2.0"])
            #expect(try readings.map { try $0.get("ratio", as: String.self) } == ["0.25", nil])
            #expect(try readings.map { try $0.get("count", as: String.self) } == ["7", "-3"])
            #expect(try readings.map { try $0.get("valid", as: String.self) } == ["true", "false"])
            #expect(try readings.map { try $0.get("extra", as: String.self) } == [#"{"unit":"K"}"#, nil])
            #expect(
                try readings[0].get("at", as: String.self) == moment.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        }
    }
}
