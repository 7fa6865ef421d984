import Foundation
import ObjectGraph

/// The SQL functions a PostgreSQL store creates in its schema so that string operators
/// (`CONTAINS[cd]`, `LIKE`, `==[c]`, …) and case-insensitive sorts give the answers the SQLite
/// and in-memory stores give. Those two run `TextMatcher` (Swift) on every value; PostgreSQL
/// cannot call Swift, so the folding is carried over as data instead:
///
/// - `objectgraph_fold(value, options)` folds case (`options` 1), diacritics (2) or both (3) by
///   tables made here, from Foundation's own folding (the code `TextMatcher.fold` runs), one
///   scalar at a time: case by `translate` (and `replace` for the few scalars that fold to
///   several, as ß to ss), diacritics on the canonically decomposed value, each scalar folded as
///   it folds after a base letter (combining marks go). Not `unaccent` (postgresql-contrib): its
///   rules are its own (it keeps some letters Foundation folds and folds some it keeps), and it is
///   an extension a database owner must install.
/// - `objectgraph_text(value, operator, options, pattern)` matches as `TextMatcher` does: both
///   sides folded, then compared in Unicode's composed form (Swift compares strings by canonical
///   equivalence); LIKE's `*` and `?` become `%` and `_`; MATCHES is PostgreSQL's regular
///   expression, anchored to the whole value, `~*` for `[c]`.
///
/// Known differences, all outside ordinary text (see docs/NOTES.md): Swift matches whole
/// characters, PostgreSQL code points, so a match ending inside a character that has no
/// composed form (`q` + U+0301) or an emoji sequence can differ; Foundation folds a few scalars
/// by context (Greek with iota subscript, marks after symbols); MATCHES uses PostgreSQL's regular
/// expression syntax, not ICU's, and never gives up on a pattern.
enum PostgreSQLTextFunctions {
    static let foldFunction = "objectgraph_fold"
    static let matchFunction = "objectgraph_text"

    /// The statements creating (or replacing) both functions.
    static var statements: [String] { [foldStatement, matchStatement] }

    /// `objectgraph_fold`, made once per process: reading Foundation's folding of every
    /// scalar takes a few seconds. PL/pgSQL, not SQL: PostgreSQL would inline an SQL function's
    /// tables of thousands of scalars into every query that folds, and plan them each time (tens
    /// of milliseconds a query); a PL/pgSQL function is prepared once per connection.
    private static let foldStatement: String = {
        let value = "value"
        let decomposed = "normalize(value, NFD)"
        return """
            CREATE OR REPLACE FUNCTION \(foldFunction)(value text, options bigint) RETURNS text
            LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fold$
            BEGIN
                RETURN CASE options
                    WHEN 0 THEN value
                    WHEN 1 THEN \(FoldTable(.caseInsensitive).expression(value))
                    WHEN 2 THEN \(FoldTable(.diacriticInsensitive).expression(decomposed))
                    ELSE \(FoldTable([.caseInsensitive, .diacriticInsensitive]).expression(decomposed))
                END;
            END
            $fold$
            """
    }()

    private static let matchStatement = """
        CREATE OR REPLACE FUNCTION \(matchFunction)(value text, operator bigint, options bigint, pattern text) RETURNS boolean
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $match$
        SELECT CASE
            WHEN value IS NULL THEN NULL
            WHEN operator = 6 AND options & 1 = 1 THEN
                \(foldFunction)(value, options & 2) ~* ('^(?:' || \(foldFunction)(pattern, options & 2) || ')$')
            WHEN operator = 6 THEN
                \(foldFunction)(value, options & 2) ~ ('^(?:' || \(foldFunction)(pattern, options & 2) || ')$')
            ELSE (
                SELECT CASE operator
                    WHEN 0 THEN v = p
                    WHEN 1 THEN v <> p
                    WHEN 2 THEN starts_with(v, p)
                    WHEN 3 THEN right(v, length(p)) = p
                    WHEN 4 THEN strpos(v, p) > 0
                    WHEN 5 THEN v LIKE replace(replace(replace(replace(replace(p, '\\', '\\\\'), '%', '\\%'), '_', '\\_'), '*', '%'), '?', '_') ESCAPE '\\'
                END
                FROM (SELECT normalize(\(foldFunction)(value, options), NFC) COLLATE "C" AS v,
                             normalize(\(foldFunction)(pattern, options), NFC) COLLATE "C" AS p) AS folded
            )
        END
        $match$
        """

    /// What Foundation's folding with `options` does to each scalar that it changes.
    private struct FoldTable {
        /// Scalars folded to one scalar, and scalars folded away.
        var single: [(Unicode.Scalar, Unicode.Scalar)] = []
        var removed: [Unicode.Scalar] = []
        /// Scalars folded to several.
        var multiple: [(Unicode.Scalar, String)] = []

        init(_ options: TextOptions) {
            var scalars: [Unicode.Scalar] = []
            for value in UInt32(1)...0x10FFFF {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let category = scalar.properties.generalCategory
                if category != .unassigned && category != .privateUse { scalars.append(scalar) }
            }
            // Folded in chunks, each scalar after a base letter and before a line break: one call
            // per chunk instead of one per scalar, and each piece folds as the scalar alone would
            // after a letter (checked when this was written: identical for every scalar).
            let chunk = 4096
            for start in stride(from: 0, to: scalars.count, by: chunk) {
                let part = scalars[start..<min(start + chunk, scalars.count)]
                var text = String.UnicodeScalarView()
                for scalar in part {
                    text.append("a")
                    text.append(scalar)
                    text.append("\n")
                }
                let pieces = TextMatcher.fold(String(text), options).unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
                guard pieces.count == part.count + 1 else {
                    // Never seen; the scalars of this chunk are then folded one by one.
                    for scalar in part { add(scalar, Array(TextMatcher.fold("a" + String(scalar), options).unicodeScalars)) }
                    continue
                }
                for (scalar, piece) in zip(part, pieces) { add(scalar, Array(piece)) }
            }
        }

        /// Records how `scalar` folds, given its fold after the letter a.
        private mutating func add(_ scalar: Unicode.Scalar, _ folded: [Unicode.Scalar]) {
            guard folded.first == "a" else { return }
            let result = folded.dropFirst()
            guard !(result.count == 1 && result.first == scalar) else { return }
            switch result.count {
            case 0: removed.append(scalar)
            case 1: single.append((scalar, result.first!))
            default: multiple.append((scalar, String(String.UnicodeScalarView(result))))
            }
        }

        /// The SQL folding `value`: one `translate` (scalars past the end of its second list
        /// are deleted), then a `replace` per scalar folding to several.
        func expression(_ value: String) -> String {
            var from = String.UnicodeScalarView(), to = String.UnicodeScalarView()
            for (scalar, folded) in single {
                from.append(scalar)
                to.append(folded)
            }
            for scalar in removed { from.append(scalar) }
            var sql = "translate(\(value), \(literal(String(from))), \(literal(String(to))))"
            for (scalar, folded) in multiple {
                sql = "replace(\(sql), \(literal(String(scalar))), \(literal(folded)))"
            }
            return sql
        }

        private func literal(_ text: String) -> String {
            "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        }
    }
}
