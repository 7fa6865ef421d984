/// What a correct run of one workload returns and leaves behind, computed from the generated
/// data alone (never from any backend), plus the inputs the workload needs.
struct Expectation {
    /// The checksum the timed work must return (what it read), if it returns one.
    var result: Checksum?
    /// The count the timed work must return (rows deleted), if it returns one.
    var resultCount: Int?
    /// The checksum of the whole table afterwards, for the workloads that write.
    var table: Checksum?
    /// Rows processed per repetition, for rows/s.
    var rowsPerRepetition: Int
    /// W1's input rows.
    var rows: [PersonRow] = []
    /// W5's ids to delete or W6's ids to look up, in order.
    var ids: [Int64] = []

    init(_ workload: Workload, dataset: Dataset, parameters: WorkloadParameters) {
        let rows = dataset.rows
        switch workload {
        case .w1:
            table = Expectation.unordered(rows)
            rowsPerRepetition = rows.count
            self.rows = rows
        case .w2:
            result = Expectation.unordered(rows)
            rowsPerRepetition = rows.count
        case .w3, .w3Indexed:
            let page = rows
                .filter { parameters.ageRange.contains($0.age) }
                // SQLite's BINARY collation: UTF-8 bytes; then insertion (id) order for ties.
                .sorted { lhs, rhs in
                    lhs.name == rhs.name
                        ? lhs.id < rhs.id
                        : lhs.name.utf8.lexicographicallyPrecedes(rhs.name.utf8)
                }
                .prefix(parameters.queryLimit)
            var one = Checksum()
            for row in page { one.append(row) }
            var total = Checksum()
            for _ in 0..<parameters.queries { total.combine(one) }
            result = total
            rowsPerRepetition = total.rows
        case .w4:
            result = Expectation.unordered(rows)
            table = Expectation.unordered(rows.map { row in
                var changed = row
                changed.score = WorkloadParameters.newScore(row.score)
                return changed
            })
            rowsPerRepetition = rows.count
        case .w5:
            ids = rows.map(\.id).filter { $0 % 2 == 0 }
            resultCount = ids.count
            table = Expectation.unordered(rows.filter { $0.id % 2 != 0 })
            rowsPerRepetition = ids.count
        case .w6:
            ids = dataset.lookupKeys(count: parameters.lookups)
            var checksum = Checksum()
            for id in ids { checksum.append(rows[Int(id) - 1]) }
            result = checksum
            rowsPerRepetition = ids.count
        }
    }

    private static func unordered(_ rows: [PersonRow]) -> Checksum {
        var checksum = Checksum()
        for row in rows { checksum.add(row) }
        return checksum
    }
}
