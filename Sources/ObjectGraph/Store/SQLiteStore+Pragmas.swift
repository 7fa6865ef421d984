import Foundation

/// The pragmas a store applies after opening: `journal_mode=WAL` and `synchronous=NORMAL` by
/// default, overridden or extended by the description's `sqlitePragmas`.
///
/// Pragma values cannot be bound as parameters, so they are spliced into SQL — only after checking
/// that the name is an identifier and the value a plain number or identifier, never other text.
enum SQLitePragmas {
    struct Setting: Equatable {
        let name: String
        let value: String
    }

    /// The settings to apply, in order: the defaults not overridden, then the description's
    /// pragmas sorted by name. Throws `.invalidOperation` for a malformed name or value.
    static func settings(for description: PersistentStoreDescription) throws -> [Setting] {
        let requested = description.sqlitePragmas
        for (name, value) in requested {
            guard isIdentifier(name) else {
                throw ObjectGraphError(
                    .invalidOperation, "The SQLite pragma name '\(name)' is not valid: a pragma name is letters, digits and underscores")
            }
            guard isIdentifier(value) || isNumber(value) else {
                throw ObjectGraphError(
                    .invalidOperation,
                    "The value of the SQLite pragma \(name) must be a plain number or a word (such as -20000 or WAL); found '\(value)'")
            }
        }
        let overridden = Set(requested.keys.map { $0.lowercased() })
        var defaults = [Setting(name: "synchronous", value: "NORMAL")]
        // Switching the journal mode writes to the file, which a read-only connection cannot do.
        if !description.isReadOnly { defaults.insert(Setting(name: "journal_mode", value: "WAL"), at: 0) }
        return defaults.filter { !overridden.contains($0.name) }
            + requested.sorted { $0.key < $1.key }.map { Setting(name: $0.key, value: $0.value) }
    }

    /// Runs each setting. SQLite ignores an unknown pragma silently, so names are checked against
    /// `pragma_list` first and a misspelling gets a suggestion.
    static func apply(_ settings: [Setting], to connection: SQLiteConnection) throws {
        let known = try knownPragmas(connection)
        for setting in settings {
            if !known.isEmpty && !known.contains(setting.name.lowercased()) {
                var message = "Unknown SQLite pragma '\(setting.name)'"
                if let suggestion = closestName(to: setting.name, among: known.sorted()) {
                    message += "; did you mean '\(suggestion)'?"
                }
                throw ObjectGraphError(.invalidOperation, message)
            }
            // `journal_mode` answers SQLITE_BUSY at once, without the busy handler, while another
            // process creates or opens the same file.
            try connection.retryingWhileBusy { try connection.execute("PRAGMA \(setting.name) = \(setting.value)") }
        }
    }

    /// Every pragma name SQLite knows; empty when it was built without `pragma_list`.
    private static func knownPragmas(_ connection: SQLiteConnection) throws -> Set<String> {
        guard let statement = try? connection.prepare("SELECT name FROM pragma_pragma_list") else { return [] }
        var names: Set<String> = []
        while try statement.step() {
            if let name = statement.text(at: 0) { names.insert(name.lowercased()) }
        }
        return names
    }

    /// `^[A-Za-z_][A-Za-z0-9_]*$`.
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return text.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || isDigit($0) }
    }

    /// `^[+-]?[0-9]+(\.[0-9]+)?$`.
    static func isNumber(_ text: String) -> Bool {
        var digits = Substring(text)
        if let sign = digits.first, sign == "-" || sign == "+" { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return false }
        return parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy(isDigit) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
