import Foundation
import ObjectGraph

/// PostgreSQL text cannot hold the NUL character (U+0000), which Swift strings, SQLite and the
/// in-memory store can: a value holding it is refused with an error saying where and why, before
/// anything is sent, never stored changed (cut at the NUL, or escaped) behind the program's back.
enum PostgreSQLTextWithNUL {
    /// Why such a value is refused.
    static let reason = "PostgreSQL text cannot hold the NUL character (U+0000)"

    /// Refuses a save whose inserted or changed string attributes hold NUL: a `.validation`
    /// error naming each object and attribute, thrown before the save writes anything.
    static func check(_ request: SaveRequest) throws {
        var failures: [ValidationFailure] = []
        func check(_ objectID: ManagedObjectID, _ values: ValueRow, _ indexes: some Sequence<Int>) {
            for index in indexes {
                guard case .string(let text) = values[index], holdsNUL(text) else { continue }
                let entity = objectID.entity
                failures.append(
                    ValidationFailure(
                        entityName: entity.name, objectID: objectID, key: entity.attributes[index].name,
                        reason: "\(reason), which the string \(text.debugDescription) holds"))
            }
        }
        for insert in request.inserts { check(insert.objectID, insert.values, insert.values.indices) }
        for update in request.updates { check(update.objectID, update.values, update.changedAttributes) }
        guard failures.isEmpty else { throw ObjectGraphError.validation(failures) }
    }

    /// Refuses a fetch of `entity` whose predicate compares with a string holding NUL (no stored
    /// string holds one, but an ordering or a pattern could still match: no answer is better
    /// than a wrong one): an `.invalidOperation` error naming the string.
    static func check(_ bindings: [AttributeValue], fetching entity: EntityDescription) throws {
        for case .string(let text) in bindings where holdsNUL(text) {
            throw ObjectGraphError(
                .invalidOperation,
                "The PostgreSQL store cannot compare \(entity.name) objects with the string \(text.debugDescription): \(reason)",
                entityName: entity.name)
        }
    }

    static func holdsNUL(_ text: String) -> Bool {
        // memchr over the contiguous UTF-8 (every native string has it): a save checks each of
        // its strings, and the byte-by-byte generic `contains` showed in W1's profile.
        text.utf8.withContiguousStorageIfAvailable { bytes in bytes.baseAddress.map { memchr($0, 0, bytes.count) != nil } ?? false }
            ?? text.utf8.contains(0)
    }
}
