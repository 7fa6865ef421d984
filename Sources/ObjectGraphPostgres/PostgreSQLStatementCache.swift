import Foundation
import PostgresNIO
import Synchronization

/// The statements prepared on one connection, kept by SQL text so the server parses and
/// analyses each once per connection (as GRDB keeps SQLite's statements). A statement is
/// prepared once the type of each of its parameters is known — the second time it runs, or
/// later when NULLs left some open (a multi-row INSERT of an optional attribute) — so one-off
/// statements (an `IN` list of an odd length) cost no extra round trip; at most `capacity` are
/// kept, the least recently used closed first. A new connection starts with none.
///
/// Reads (SELECT, WITH) and writes that return rows (RETURNING) are prepared as they are, and
/// their rows read as the store reads an unprepared statement's, in binary (see
/// `PostgreSQLRow`); how many rows they changed is how many they returned, as the server's
/// command tag says. Writes that return none (INSERT, UPDATE, DELETE) are each wrapped so their
/// one row is how many they changed: postgres-nio gives no command tag for a prepared statement.
/// postgres-nio prepares a statement without parameter types (the server infers them) and binds
/// values in binary, so each parameter is cast to the type of the values bound to it (`$1`
/// becomes `($1::int8)`), as an unnamed statement declares them. A NULL may be bound to a
/// parameter of any type; a value of another type than the prepared one runs the statement
/// unprepared. A statement that changes the schema (CREATE, ALTER, DROP) closes every prepared
/// one first: the server refuses to run a prepared statement whose rows' types changed (one that
/// another connection's change broke fails once, and is forgotten; see `PostgreSQLConnection`).
struct PostgreSQLStatementCache {
    private struct Entry {
        /// The type of each parameter, from the values bound to it so far; `0` where only NULLs were.
        var types: [UInt32]
        var statement: Prepared?
        /// When it was last run, for the least recently used.
        var used: Int
    }

    /// A prepared statement, and whether its one row is how many rows it changed (a write
    /// wrapped as `WITH changed AS (… RETURNING 1) SELECT count(*)`) rather than its own rows.
    struct Prepared {
        let query: PreparedQuery
        let countsChanges: Bool
    }

    private var entries: [String: Entry] = [:]
    private var clock = 0
    static let capacity = 256

    /// How many statements are prepared on the connection now.
    var preparedCount: Int { entries.values.count { $0.statement != nil } }

    /// The statement of `sql`, prepared on `connection` once its parameters' types are known,
    /// for values of `types`; `nil` when it runs unprepared: while a parameter's type is open,
    /// when it is not one the store prepares, or when `types` do not fit the prepared one.
    mutating func statement(_ sql: String, types: [PostgresDataType], on connection: PostgresConnection) throws -> Prepared? {
        clock += 1
        guard var entry = entries[sql], entry.types.count == types.count else {
            guard let kind = Kind(sql) else { return nil }
            guard kind != .schemaChange else {
                for key in entries.keys { forget(key) }
                return nil
            }
            if entries.count >= Self.capacity, let oldest = entries.min(by: { $0.value.used < $1.value.used }) {
                forget(oldest.key)
            }
            entries[sql] = Entry(types: types.map(\.rawValue), statement: nil, used: clock)
            return nil
        }
        entry.used = clock
        defer { entries[sql] = entry }
        if let statement = entry.statement {
            for (position, type) in types.enumerated() where type.rawValue != 0 && type.rawValue != entry.types[position] { return nil }
            return statement
        }
        for (position, type) in types.enumerated() where type.rawValue != 0 {
            if entry.types[position] == 0 {
                entry.types[position] = type.rawValue
            } else if entry.types[position] != type.rawValue {
                return nil
            }
        }
        guard !entry.types.contains(0), let typed = Self.typed(sql, types: entry.types.map { PostgresDataType($0) }) else { return nil }
        let countsChanges = Kind(sql) == .write
        let text = countsChanges ? "WITH changed AS (\(typed) RETURNING 1) SELECT count(*) FROM changed" : typed
        let query = try PostgreSQLConnection.answer(to: connection.prepare(query: text), on: connection)
        entry.statement = Prepared(query: query, countsChanges: countsChanges)
        return entry.statement
    }

    /// Forgets the statement of `sql`, closing it on the server when it was prepared.
    mutating func forget(_ sql: String) {
        // The connection runs its commands in order; nothing waits for this one.
        _ = entries.removeValue(forKey: sql)?.statement?.query.deallocate()
    }

    /// What a statement does, as far as preparing it goes; `nil` for one never prepared
    /// (transaction control, LISTEN, SET …).
    private enum Kind {
        /// Returns rows: a SELECT, a write with a RETURNING clause or a WITH (the store's end
        /// in one of those), which changed as many rows as it returned.
        case rows
        /// Changes rows and returns none.
        case write
        case schemaChange

        init?(_ sql: String) {
            let verb = String(decoding: sql.utf8.prefix { $0 | 0x20 >= UInt8(ascii: "a") && $0 | 0x20 <= UInt8(ascii: "z") }, as: UTF8.self)
            switch verb.uppercased() {
            case "SELECT", "WITH": self = .rows
            // The store writes its keywords in capitals.
            case "INSERT", "UPDATE", "DELETE": self = sql.utf8.contains("RETURNING".utf8) ? .rows : .write
            case "CREATE", "ALTER", "DROP": self = .schemaChange
            default: return nil
            }
        }
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
        PostgresDataType.bytea.rawValue: "bytea", PostgresDataType.uuid.rawValue: "uuid", PostgresDataType.int8Array.rawValue: "int8[]"
    ]
}
