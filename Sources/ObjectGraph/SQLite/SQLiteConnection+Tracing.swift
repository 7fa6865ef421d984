import CSQLite
import Foundation
import Logging

/// Statement tracing: SQL debug logging (`OBJECTGRAPH_SQL_DEBUG=1`, in the spirit of Core Data's
/// SQLDebug flag) and the `statementObserver` test hook share one `sqlite3_trace_v2` callback,
/// installed only while one of them wants it, so an untraced connection pays nothing.
extension SQLiteConnection {
    /// The environment variable that turns SQL debug logging on.
    static let sqlDebugVariable = "OBJECTGRAPH_SQL_DEBUG"

    /// A debug-level logger labelled `ObjectGraph.SQL` when the variable is `1`, else `nil`.
    static func makeSQLLogger() -> Logger? {
        guard ProcessInfo.processInfo.environment[sqlDebugVariable] == "1" else { return nil }
        var logger = Logger(label: "ObjectGraph.SQL")
        logger.logLevel = .debug
        return logger
    }

    /// Installs or removes the trace callback to match what is wanted.
    func updateTracing() {
        guard statementObserver != nil || sqlLogger != nil else {
            sqlite3_trace_v2(handle, 0, nil, nil)
            return
        }
        // The context is unretained: the connection removes the callback in close() before the
        // handle goes away, and the handle never outlives the connection object.
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_trace_v2(
            handle, UInt32(SQLITE_TRACE_STMT),
            { mask, context, _, text in
                // SQLITE_TRACE_STMT: `text` is the statement's unexpanded SQL (bound values are not
                // logged, as they may be private) or a "-- TRIGGER" comment.
                guard mask == UInt32(SQLITE_TRACE_STMT), let context, let text else { return 0 }
                let connection = Unmanaged<SQLiteConnection>.fromOpaque(context).takeUnretainedValue()
                connection.statementStarted(String(cString: text.assumingMemoryBound(to: CChar.self)))
                return 0
            }, context)
    }

    private func statementStarted(_ text: String) {
        // Comments ("-- TRIGGER …", or the inner query of a table-valued pragma) are not statements.
        guard !text.hasPrefix("--") else { return }
        let sql = Self.tidy(text)
        sqlLogger?.debug("\(sql)", metadata: ["store": "\(path)"])
        statementObserver?(sql)
    }
}
