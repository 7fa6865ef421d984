import Foundation
import PostgresNIO
import Synchronization

/// The statements prepared on one connection, kept by SQL text and parameter types so the server
/// parses and analyses each once per connection (as GRDB keeps SQLite's statements). A statement
/// is prepared the second time it runs, so one-off statements (an `IN` list of an odd length)
/// cost no extra round trip; at most `capacity` are kept, the least recently used closed first.
/// A new connection starts with none.
///
/// Only statements that change rows are prepared (INSERT, UPDATE, DELETE without a RETURNING
/// clause), each wrapped so its one row is how many it changed: postgres-nio gives no command
/// tag for a prepared statement, and marks its rows' columns as text while it asks for them in
/// binary, so the store reads only that count, knowing its format. postgres-nio prepares a
/// statement without parameter types (the server infers them) and binds values in binary, so
/// each parameter is cast to the type of the value bound to it (`$1` becomes `($1::int8)`), as
/// an unnamed statement declares them.
struct PostgreSQLStatementCache {
    private struct Key: Hashable {
        let sql: String
        let types: [UInt32]
    }

    /// Statements run, prepared from their second run on, with when each was last run.
    private var entries: [Key: (statement: PreparedQuery?, used: Int)] = [:]
    private var clock = 0
    static let capacity = 256

    /// The statement of `sql` for parameters of `types`, prepared on `connection` when it runs
    /// the second time; `nil` when it runs unprepared: the first time, when it is not one the
    /// store prepares, or when it binds a type the store never binds.
    mutating func statement(_ sql: String, types: [PostgresDataType], on connection: PostgresConnection) throws -> PreparedQuery? {
        let key = Key(sql: sql, types: types.map(\.rawValue))
        clock += 1
        guard let entry = entries[key] else {
            // postgres-nio marks the columns of a prepared statement's rows as text while it
            // asks for them in binary: the store prepares only statements it reads a count of.
            let verb = sql.prefix(7).uppercased()
            guard ["INSERT", "UPDATE", "DELETE"].contains(where: verb.hasPrefix), !sql.uppercased().contains("RETURNING") else {
                return nil
            }
            if entries.count >= Self.capacity, let oldest = entries.min(by: { $0.value.used < $1.value.used }) {
                entries[oldest.key] = nil
                // The connection runs its commands in order; nothing waits for this one.
                _ = oldest.value.statement?.deallocate()
            }
            entries[key] = (nil, clock)
            return nil
        }
        entries[key]?.used = clock
        if let statement = entry.statement { return statement }
        guard let typed = Self.typed(sql, types: types) else { return nil }
        let text = "WITH changed AS (\(typed) RETURNING 1) SELECT count(*) FROM changed"
        let statement = try PostgreSQLConnection.answer(to: connection.prepare(query: text), on: connection)
        entries[key]?.statement = statement
        return statement
    }

    /// `sql` with each parameter cast to its type's name; `nil` when a type has no name here.
    /// Quoted text, quoted names, dollar-quoted bodies and comments are copied as they are.
    static func typed(_ sql: String, types: [PostgresDataType]) -> String? {
        var names: [String?] = []
        for type in types {
            guard let name = typeNames[type.rawValue] else { return nil }
            names.append(name)
        }
        let bytes = Array(sql.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + types.count * 8)
        var index = 0
        func copy(until end: Int) {
            output.append(contentsOf: bytes[index..<end])
            index = end
        }
        func find(_ needle: [UInt8], from start: Int) -> Int {
            var position = start
            while position + needle.count <= bytes.count {
                if bytes[position..<position + needle.count].elementsEqual(needle) { return position + needle.count }
                position += 1
            }
            return bytes.count
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                // A doubled quote inside is two quoted runs in a row: the same result.
                copy(until: find([byte], from: index + 1))
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                copy(until: find([UInt8(ascii: "\n")], from: index + 2))
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                copy(until: find(Array("*/".utf8), from: index + 2))
            case UInt8(ascii: "$"):
                var end = index + 1
                while end < bytes.count, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9") { end += 1 }
                let isParameter = end > index + 1 && (index == 0 || !isIdentifierByte(bytes[index - 1]))
                if isParameter, let number = Int(String(decoding: bytes[index + 1..<end], as: UTF8.self)),
                    number >= 1, number <= names.count
                {
                    let parameter = String(decoding: bytes[index..<end], as: UTF8.self)
                    output.append(contentsOf: Array((names[number - 1].map { "(\(parameter)::\($0))" } ?? parameter).utf8))
                    index = end
                    continue
                }
                // A dollar-quoted body: `$tag$ … $tag$`.
                var tagEnd = index + 1
                while tagEnd < bytes.count, isIdentifierByte(bytes[tagEnd]) { tagEnd += 1 }
                guard tagEnd < bytes.count, bytes[tagEnd] == UInt8(ascii: "$"), index == 0 || !isIdentifierByte(bytes[index - 1]) else {
                    copy(until: index + 1)
                    continue
                }
                copy(until: find(Array(bytes[index...tagEnd]), from: tagEnd + 1))
            default:
                copy(until: index + 1)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || byte >= 0x80 || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }

    /// The names of the types the store binds, by OID; a NULL (OID 0) keeps its type open, as
    /// an unnamed statement leaves it.
    private static let typeNames: [UInt32: String?] = [
        0: nil, PostgresDataType.int8.rawValue: "int8", PostgresDataType.float8.rawValue: "float8",
        PostgresDataType.numeric.rawValue: "numeric", PostgresDataType.text.rawValue: "text", PostgresDataType.bool.rawValue: "bool",
        PostgresDataType.bytea.rawValue: "bytea", PostgresDataType.uuid.rawValue: "uuid"
    ]
}
