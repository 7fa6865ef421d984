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
    /// G1's input graph.
    var graph: GraphDataset?
    /// Whether `table` is the `Author` ↔ `Book` graph (`graphTableChecksum`) rather than `Person`.
    var tableIsGraph = false

    /// The expectation of any workload, generating the data set it needs.
    init(_ workload: Workload, parameters: WorkloadParameters) {
        if workload.isGraph {
            self.init(workload, graph: GraphDataset(bookCount: parameters.count, seed: parameters.seed))
        } else if workload == .m1 {
            self.init(namesOf: parameters.count, seed: parameters.seed)
        } else {
            self.init(workload, dataset: Dataset(count: parameters.count, seed: parameters.seed), parameters: parameters)
        }
    }

    /// M1: the checksum of every row's `name`, generated row by row and never kept, since
    /// holding a million generated rows would dwarf the memory being measured.
    init(namesOf count: Int, seed: UInt64) {
        var names = Checksum()
        Dataset.generate(count: count, seed: seed) { names.addName($0.name) }
        result = names
        rowsPerRepetition = count
    }

    /// G1–G4. Rows per repetition count authors and books alike (1.1 N).
    init(_ workload: Workload, graph: GraphDataset) {
        rowsPerRepetition = graph.authors.count + graph.books.count
        tableIsGraph = true
        switch workload {
        case .g1:
            table = graph.graphChecksum
            self.graph = graph
        case .g2:
            result = graph.booksWithAuthorsChecksum
        case .g3:
            result = graph.graphChecksum
        case .g4:
            table = Checksum()
        case .w1, .w2, .w3, .w3Indexed, .w4, .w5, .w6, .m1:
            preconditionFailure("\(workload.rawValue) is not an object-graph workload")
        }
    }

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
        case .m1:
            var names = Checksum()
            for row in rows { names.addName(row.name) }
            result = names
            rowsPerRepetition = rows.count
        case .g1, .g2, .g3, .g4:
            preconditionFailure("\(workload.rawValue) is an object-graph workload")
        }
    }

    private static func unordered(_ rows: [PersonRow]) -> Checksum {
        var checksum = Checksum()
        for row in rows { checksum.add(row) }
        return checksum
    }
}
