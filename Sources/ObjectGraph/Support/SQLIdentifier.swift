import Foundation

/// `name` as a double-quoted SQL identifier, with embedded quotes doubled. Identifiers come from
/// the validated model, so quoting is belt and braces; values are never spliced, only bound.
func quoteIdentifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
