import CSQLite
import Foundation

/// `objectgraph_text(value, operator, options, pattern)`: the predicate language's string
/// operators as an SQL function, registered on every connection. It calls `TextMatcher`, the
/// code the in-memory store evaluates with, so `CONTAINS[cd]` and friends give the same answers
/// on both stores. `operator` is `TextOperator.code`, `options` the bits of `TextOptions`. NULL
/// when `value` is NULL (SQL's unknown, as the evaluator answers).
enum SQLiteTextFunction {
    static let name = "objectgraph_text"
    /// Starts the message of an error the function reports about the predicate itself, which a
    /// failed statement turns into a `.predicateSyntax` error, as the in-memory store throws.
    static let predicateErrorPrefix = "objectgraph predicate: "

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
    let code: Int64
    let optionBits: Int64
    let op: TextOperator
    let options: TextOptions
    /// `nil` for an invalid MATCHES pattern: refused when the predicate was bound, so here it
    /// matches nothing.
    let prepared: PreparedPattern?

    init(_ pattern: String, _ op: TextOperator, code: Int64, optionBits: Int64) {
        self.code = code
        self.optionBits = optionBits
        self.op = op
        self.options = TextOptions(rawValue: Int(optionBits))
        self.prepared = try? PreparedPattern(pattern, op, options)
    }

    func matches(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let prepared else { return false }
        return TextMatcher.matches(utf8: value, op, options, prepared)
    }

    /// Sets the function's result: 1 or 0, or the error of an abandoned MATCHES.
    func answer(_ value: UnsafeBufferPointer<UInt8>, in context: OpaquePointer?, pattern: () -> String) {
        let matched = matches(value)
        if prepared?.gaveUp == true {
            sqlite3_result_error(context, SQLiteTextFunction.predicateErrorPrefix + TextMatcher.abandonedMatchMessage(pattern()), -1)
        } else {
            sqlite3_result_int(context, matched ? 1 : 0)
        }
    }
}

private func objectGraphTextFunction(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    guard let arguments, count == 4 else {
        sqlite3_result_error(context, "objectgraph_text takes 4 arguments", -1)
        return
    }
    // The value's own UTF-8 bytes: ASCII values are matched without becoming a Swift string.
    guard sqlite3_value_type(arguments[0]) != SQLITE_NULL, let bytes = sqlite3_value_text(arguments[0]) else {
        sqlite3_result_null(context)
        return
    }
    let value = UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(arguments[0])))
    let code = sqlite3_value_int64(arguments[1])
    let optionBits = sqlite3_value_int64(arguments[2])
    // An earlier row of the statement prepared the pattern: SQLite holds it until the statement
    // is reset, so it is borrowed here, not retained.
    if let cached = sqlite3_get_auxdata(context, 3) {
        let answered = Unmanaged<CachedPattern>.fromOpaque(cached)._withUnsafeGuaranteedRef { entry -> Bool in
            guard entry.code == code && entry.optionBits == optionBits else { return false }
            entry.answer(value, in: context) { entry.prepared?.folded ?? "" }
            return true
        }
        if answered { return }
    }
    guard let op = TextOperator(code: code), sqlite3_value_type(arguments[3]) != SQLITE_NULL, let pattern = sqlite3_value_text(arguments[3])
    else {
        sqlite3_result_error(context, "objectgraph_text: unknown operator or missing pattern", -1)
        return
    }
    let text = String(decoding: UnsafeBufferPointer(start: pattern, count: Int(sqlite3_value_bytes(arguments[3]))), as: UTF8.self)
    let entry = CachedPattern(text, op, code: code, optionBits: optionBits)
    entry.answer(value, in: context) { text }
    // Last, as SQLite asks: it may release the entry before this call returns.
    sqlite3_set_auxdata(context, 3, Unmanaged.passRetained(entry).toOpaque()) { pointer in
        if let pointer { Unmanaged<CachedPattern>.fromOpaque(pointer).release() }
    }
}
