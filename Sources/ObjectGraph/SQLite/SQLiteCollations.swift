import CSQLite
import Foundation

/// The collations of `SortComparison`, registered on every connection, so ORDER BY in SQLite and
/// sorting in memory run the same comparison.
enum SQLiteCollations {
    /// Registers both collations on `connection`; returns the first failing result code, or SQLITE_OK.
    static func register(on connection: OpaquePointer) -> Int32 {
        let caseInsensitive = sqlite3_create_collation_v2(connection, "OBJECTGRAPH_NOCASE", SQLITE_UTF8, nil, compareCaseInsensitive, nil)
        guard caseInsensitive == SQLITE_OK else { return caseInsensitive }
        return sqlite3_create_collation_v2(connection, "OBJECTGRAPH_LOCALIZED", SQLITE_UTF8, nil, compareLocalized, nil)
    }
}

private func string(_ bytes: UnsafeRawPointer?, _ count: Int32) -> String {
    guard let bytes, count > 0 else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(count)), as: UTF8.self)
}

private func compareCaseInsensitive(_: UnsafeMutableRawPointer?, _ countA: Int32, _ a: UnsafeRawPointer?, _ countB: Int32, _ b: UnsafeRawPointer?) -> Int32 {
    Int32(SortComparison.caseInsensitive.compare(string(a, countA), string(b, countB)))
}

private func compareLocalized(_: UnsafeMutableRawPointer?, _ countA: Int32, _ a: UnsafeRawPointer?, _ countB: Int32, _ b: UnsafeRawPointer?) -> Int32 {
    Int32(SortComparison.localizedStandard.compare(string(a, countA), string(b, countB)))
}
