import PostgresNIO

/// One row a statement returned, its cells in binary. postgres-nio asks the server for every
/// statement's rows in binary; an unnamed statement's row description says so, but a prepared
/// statement's is the one the server described it with before any format was asked for, which
/// says text. The store reads both alike, as the bytes are.
struct PostgreSQLRow: RandomAccessCollection {
    private let row: PostgresRandomAccessRow

    init(_ row: PostgresRow) {
        self.row = row.makeRandomAccess()
    }

    var startIndex: Int { row.startIndex }
    var endIndex: Int { row.endIndex }

    subscript(index: Int) -> PostgresCell {
        var cell = row[index]
        cell.format = .binary
        return cell
    }
}
