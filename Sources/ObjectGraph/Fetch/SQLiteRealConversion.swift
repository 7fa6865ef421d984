import CSQLite
import Foundation

/// Converts decimal text to a Double exactly as SQLite's `CAST(text AS REAL)` does.
///
/// Decimal attributes are stored as text, so ordering comparisons and sorts on them go through
/// `CAST(… AS REAL)` in SQL. SQLite's conversion is not always correctly rounded (3.40 turns
/// "3.4573102" into 3.4573102000000002), so Swift's `Double(String)` would now and then disagree
/// by one unit in the last place — enough for a comparison or a sort to differ between the SQLite
/// store and in-memory evaluation. Asking the linked SQLite library itself keeps the two
/// identical, whatever its version. Conversions are cached, so sorts stay cheap.
final class SQLiteRealConversion: Sendable {
    static let shared = SQLiteRealConversion()

    /// A private in-memory connection with one prepared `SELECT CAST(?1 AS REAL)`.
    private struct Converter {
        let connection: OpaquePointer
        let statement: OpaquePointer
        var cache: [String: Double] = [:]
    }

    /// Entries kept before the cache starts over: enough for any realistic set of prices.
    private static let cacheLimit = 4096

    /// `nil` if SQLite could not open an in-memory database, in which case Swift's parser stands
    /// in (it agrees with SQLite on all but rare inputs).
    private let converter: Locked<Converter?>

    private init() {
        var connection: OpaquePointer?
        var statement: OpaquePointer?
        guard sqlite3_open_v2(":memory:", &connection, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, nil) == SQLITE_OK,
            let connection,
            sqlite3_prepare_v2(connection, "SELECT CAST(?1 AS REAL)", -1, &statement, nil) == SQLITE_OK,
            let statement
        else {
            sqlite3_close_v2(connection)
            converter = Locked(nil)
            return
        }
        converter = Locked(Converter(connection: connection, statement: statement))
    }

    deinit {
        converter.withLock { converter in
            guard let converter else { return }
            sqlite3_finalize(converter.statement)
            sqlite3_close_v2(converter.connection)
        }
    }

    /// The REAL that SQLite makes of `text`.
    func real(_ text: String) -> Double {
        converter.withLock { converter -> Double in
            // Taken out and put back, so the cache is mutated in place rather than copied.
            guard var current = converter.take() else { return Double(text) ?? 0 }
            defer { converter = current }
            if let cached = current.cache[text] { return cached }
            let statement = current.statement
            var value = Double(text) ?? 0
            if sqlite3_bind_text(statement, 1, text, -1, csqlite_transient()) == SQLITE_OK,
                sqlite3_step(statement) == SQLITE_ROW
            {
                value = sqlite3_column_double(statement, 0)
            }
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            if current.cache.count >= Self.cacheLimit { current.cache.removeAll(keepingCapacity: true) }
            current.cache[text] = value
            return value
        }
    }
}
