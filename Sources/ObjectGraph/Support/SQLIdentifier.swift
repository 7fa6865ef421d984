import Foundation

/// `name` as a double-quoted SQL identifier, with embedded quotes doubled. Identifiers come from
/// the validated model, so quoting is belt and braces; values are never spliced, only bound.
package func quoteIdentifier(_ name: String) -> String {
    // Names almost never hold a quote, and Foundation's replacing is slow enough to show when
    // statement texts are built per call (one per deleted object's cascade).
    guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
    return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
