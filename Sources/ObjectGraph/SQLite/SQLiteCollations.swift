import CSQLite
import Foundation

/// The collations of `SortComparison`, registered on every connection, so ORDER BY in SQLite and
/// sorting in memory run the same comparison.
enum SQLiteCollations {
    /// Registers a collation for each comparison that needs one on `connection`; returns the first
    /// failing result code, or SQLITE_OK.
    static func register(on connection: OpaquePointer) -> Int32 {
        for (position, comparison) in SortComparison.allCases.enumerated() {
            guard let name = comparison.collation else { continue }
            // The comparison travels as the collation's user data: its position, plus one so it
            // is never a null pointer.
            let result = sqlite3_create_collation_v2(
                connection, name, SQLITE_UTF8, UnsafeMutableRawPointer(bitPattern: position + 1), compareCollated, nil)
            guard result == SQLITE_OK else { return result }
        }
        return SQLITE_OK
    }
}

private func string(_ bytes: UnsafeRawPointer?, _ count: Int32) -> String {
    guard let bytes, count > 0 else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(count)), as: UTF8.self)
}

private func compareCollated(
    _ comparison: UnsafeMutableRawPointer?, _ countA: Int32, _ a: UnsafeRawPointer?, _ countB: Int32, _ b: UnsafeRawPointer?
) -> Int32 {
    let position = Int(bitPattern: comparison) - 1
    return Int32(SortComparison.allCases[position].compare(string(a, countA), string(b, countB)))
}
