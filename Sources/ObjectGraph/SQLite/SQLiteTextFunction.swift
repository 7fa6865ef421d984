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

/// A compiled MATCHES pattern kept by SQLite with the statement's pattern argument, so a query
/// compiles it once, not once per row.
private final class CompiledPattern {
    let options: TextOptions
    let regex: NSRegularExpression?

    init(_ pattern: String, options: TextOptions) {
        self.options = options
        self.regex = try? TextMatcher.regularExpression(pattern, options: options)
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
    var regex: NSRegularExpression?
    if op == .matches {
        if let cached = sqlite3_get_auxdata(context, 3), case let compiled = Unmanaged<CompiledPattern>.fromOpaque(cached).takeUnretainedValue(),
           compiled.options == options {
            regex = compiled.regex
        } else {
            let compiled = CompiledPattern(pattern, options: options)
            regex = compiled.regex
            sqlite3_set_auxdata(context, 3, Unmanaged.passRetained(compiled).toOpaque()) { pointer in
                if let pointer { Unmanaged<CompiledPattern>.fromOpaque(pointer).release() }
            }
        }
    }
    sqlite3_result_int(context, TextMatcher.matches(value, op, options, pattern: pattern, regex: regex) ? 1 : 0)
}
