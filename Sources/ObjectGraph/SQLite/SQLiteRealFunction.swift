import CSQLite

/// `objectgraph_real(value)`: a decimal column's text as a Double, correctly rounded as Swift's
/// `Double(String)` and PostgreSQL's `numeric` → `double precision` read it. SQLite's own
/// `CAST(… AS REAL)` is not always correctly rounded (3.40 turns "3.4573102" into
/// 3.4573102000000002), so with it a decimal compared with a double could answer otherwise on
/// SQLite than in memory or on PostgreSQL. Registered on every connection; numbers pass as
/// doubles, NULL stays NULL.
enum SQLiteRealFunction {
    static let name = "objectgraph_real"

    /// Registers the function on `connection`; returns SQLite's result code.
    static func register(on connection: OpaquePointer) -> Int32 {
        sqlite3_create_function_v2(
            connection, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nil, objectGraphRealFunction, nil, nil, nil)
    }
}

private func objectGraphRealFunction(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    guard let arguments, count == 1 else {
        sqlite3_result_error(context, "objectgraph_real takes 1 argument", -1)
        return
    }
    let value = arguments[0]
    switch sqlite3_value_type(value) {
    case SQLITE_NULL:
        sqlite3_result_null(context)
    case SQLITE_TEXT:
        let bytes = UnsafeBufferPointer(start: sqlite3_value_text(value), count: Int(sqlite3_value_bytes(value)))
        sqlite3_result_double(context, realValue(of: String(decoding: bytes, as: UTF8.self)))
    default:
        sqlite3_result_double(context, sqlite3_value_double(value))
    }
}

/// The Double a decimal's text stands for, correctly rounded (0 for text that is not a number,
/// which no decimal column holds).
func realValue(of text: String) -> Double {
    Double(text) ?? 0
}
