import CSQLite
import Foundation

/// `objectgraph_text(value, operator, options, pattern)`: the predicate language's string
/// operators as an SQL function, registered on every connection. It calls `TextMatcher`, the
/// code the in-memory store evaluates with, so `CONTAINS[cd]` and friends give the same answers
/// on both stores. NULL when `value` is NULL (SQL's unknown, as the evaluator answers).
enum SQLiteTextFunction {
    static let name = "objectgraph_text"

    /// Registers the function on `connection`; returns SQLite's result code.
    static func register(on connection: OpaquePointer) -> Int32 {
        sqlite3_create_function_v2(
            connection, name, 4, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nil,
            objectGraphTextFunction, nil, nil, nil)
    }
}

/// A prepared pattern kept by SQLite with the statement's pattern argument, so a query folds
/// (or compiles) it once, not once per row.
private final class CachedPattern {
    let op: TextOperator
    let options: TextOptions
    let prepared: PreparedPattern?

    init(_ pattern: String, _ op: TextOperator, _ options: TextOptions) {
        self.op = op
        self.options = options
        self.prepared = try? PreparedPattern(pattern, op, options)
    }
}

private func text(_ value: OpaquePointer?) -> String? {
    guard sqlite3_value_type(value) != SQLITE_NULL, let bytes = sqlite3_value_text(value) else { return nil }
    return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
}

private func objectGraphTextFunction(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    guard let arguments, count == 4 else {
        sqlite3_result_error(context, "objectgraph_text takes 4 arguments", -1)
        return
    }
    guard let value = text(arguments[0]) else {
        sqlite3_result_null(context)
        return
    }
    guard let opText = text(arguments[1]), let op = TextOperator(rawValue: opText), let pattern = text(arguments[3]) else {
        sqlite3_result_error(context, "objectgraph_text: unknown operator or missing pattern", -1)
        return
    }
    let options = TextOptions(rawValue: Int(sqlite3_value_int64(arguments[2])))
    let prepared: PreparedPattern?
    if let cached = sqlite3_get_auxdata(context, 3), case let entry = Unmanaged<CachedPattern>.fromOpaque(cached).takeUnretainedValue(),
       entry.op == op, entry.options == options {
        prepared = entry.prepared
    } else {
        let entry = CachedPattern(pattern, op, options)
        prepared = entry.prepared
        sqlite3_set_auxdata(context, 3, Unmanaged.passRetained(entry).toOpaque()) { pointer in
            if let pointer { Unmanaged<CachedPattern>.fromOpaque(pointer).release() }
        }
    }
    // An invalid MATCHES pattern was refused when the predicate was bound; here it matches nothing.
    guard let prepared else {
        sqlite3_result_int(context, 0)
        return
    }
    sqlite3_result_int(context, TextMatcher.matches(value, op, options, foldedPattern: prepared.folded, regex: prepared.regex) ? 1 : 0)
}
