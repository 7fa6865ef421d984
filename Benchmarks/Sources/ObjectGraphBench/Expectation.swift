/// What a correct run of one workload returns and leaves behind, computed from the generated
/// data alone (never from any backend), plus the inputs the workload needs.
struct Expectation {
    /// The checksum the timed work must return (what it read), if it returns one.
    var result: Checksum?
    /// The count the timed work must return (rows deleted, updated or inserted), if it returns one.
    var resultCount: Int?
    /// What `resultCount` counts, for the report.
    var countedChange = "deleted"
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
    /// Q4: the groups each query must return, in order (means compared within a relative 1e-9,
    /// since the order of summation is each backend's own).
    var groups: [[AgeGroup]]?
    /// Q5: how many rows must be at version 2 afterwards (all others at 1).
    var versionBumps: Int?
    /// Q7's input rows.
    var people: PersonPool?

    /// The expectation of any workload, generating the data set it needs.
    init(_ workload: Workload, parameters: WorkloadParameters) {
        if workload.isGraph {
            self.init(workload, graph: GraphDataset(bookCount: parameters.count, seed: parameters.seed), parameters: parameters)
        } else if workload.isConcurrency {
            self.init(concurrency: workload, parameters: parameters)
        } else if workload == .q7 {
            self.init(inserting: PersonPool(count: parameters.count, seed: parameters.seed))
        } else if workload.usesObjectGraphPersonTable {
            self.init(query: workload, parameters: parameters)
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

    /// G1–G4 and Q3. Rows per repetition count authors and books alike (1.1 N), except for Q3:
    /// the authors returned.
    init(_ workload: Workload, graph: GraphDataset, parameters: WorkloadParameters) {
        rowsPerRepetition = graph.authors.count + graph.books.count
        tableIsGraph = true
        switch workload {
        case .q3:
            // BEGINSWITH on ASCII titles: a byte prefix.
            let prefix = Array(parameters.titlePrefix.utf8)
            var one = Checksum()
            for (index, author) in graph.authors.enumerated()
            where graph.books(of: index).contains(where: { $0.title.utf8.starts(with: prefix) }) {
                one.addAuthor(name: author.name, born: author.born, books: BookChecksum())
            }
            var total = Checksum()
            for _ in 0..<parameters.searches { total.combine(one) }
            result = total
            rowsPerRepetition = total.rows
        case .g1:
            table = graph.graphChecksum
            self.graph = graph
        case .g2:
            result = graph.booksWithAuthorsChecksum
        case .g3:
            result = graph.graphChecksum
        case .g4:
            table = Checksum()
        case .w1, .w2, .w3, .w3Indexed, .w4, .w5, .w6, .m1, .q1, .q2, .q4, .q5, .q6, .q7, .c1, .c2:
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
        case .g1, .g2, .g3, .g4, .q1, .q2, .q3, .q4, .q5, .q6, .q7, .c1, .c2:
            preconditionFailure("\(workload.rawValue) is not a W workload")
        }
    }

    /// Q7: every row of `people` inserted, counted and checksummed row by row.
    init(inserting people: PersonPool) {
        var table = Checksum()
        for index in 0..<people.count { table.add(people.row(index)) }
        self.table = table
        self.people = people
        resultCount = people.count
        countedChange = "inserted"
        rowsPerRepetition = people.count
    }

    /// Q1, Q2, Q4, Q5 and Q6, generating the rows one at a time without keeping them (Q5 and Q6
    /// run at N = 1,000,000).
    init(query workload: Workload, parameters: WorkloadParameters) {
        var matchingNames: [String] = [] // Q1
        var found = Checksum() // Q2: the names; Q5, Q6: the table afterwards
        var counts = [Int](repeating: 0, count: 128) // Q4, by age
        var scoreSums = [Int64](repeating: 0, count: 128) // Q4: in thousandths, exact
        var matched = 0 // Q5, Q6
        let needle = Array(parameters.nameNeedle.utf8).map(Expectation.asciiLowercase)
        Dataset.generate(count: parameters.count, seed: parameters.seed) { row in
            switch workload {
            case .q1:
                if row.age == parameters.equalAge { matchingNames.append(row.name) }
            case .q2:
                // CONTAINS[cd] on ASCII names and an ASCII needle: a case-folded byte search.
                let name = Array(row.name.utf8).map(Expectation.asciiLowercase)
                if needle.isEmpty || (0...max(0, name.count - needle.count)).contains(where: { name[$0...].starts(with: needle) }) {
                    found.addName(row.name)
                }
            case .q4:
                counts[Int(row.age)] += 1
                scoreSums[Int(row.age)] += Int64((row.score * 1000).rounded())
            case .q5:
                var changed = row
                if row.age < parameters.batchAgeLimit {
                    changed.score = parameters.batchScore
                    matched += 1
                }
                found.add(changed)
            case .q6:
                if row.age < parameters.batchAgeLimit { matched += 1 } else { found.add(row) }
            default:
                preconditionFailure("\(workload.rawValue) is not a query workload on Person")
            }
        }
        rowsPerRepetition = 0
        switch workload {
        case .q1:
            // SQLite's BINARY collation: UTF-8 bytes (equal names checksum alike in any order).
            var one = Checksum()
            for name in matchingNames.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) { one.appendName(name) }
            var total = Checksum()
            for _ in 0..<parameters.queries { total.combine(one) }
            result = total
            rowsPerRepetition = total.rows
        case .q2:
            var total = Checksum()
            for _ in 0..<parameters.searches { total.combine(found) }
            result = total
            rowsPerRepetition = total.rows
        case .q4:
            let one = counts.indices.filter { counts[$0] > 0 }.map { age in
                AgeGroup(age: Int64(age), count: counts[age], meanScore: Double(scoreSums[age]) / Double(counts[age]) / 1000)
            }
            groups = Array(repeating: one, count: parameters.aggregates)
            // Every row is read by every query.
            rowsPerRepetition = parameters.count * parameters.aggregates
        case .q5:
            resultCount = matched
            versionBumps = matched
            countedChange = "updated"
            table = found
            rowsPerRepetition = matched
        case .q6:
            resultCount = matched
            table = found
            rowsPerRepetition = matched
        default:
            break
        }
    }

    /// C1 and C2. The new rows continue the data set: generating more rows from the same seed
    /// repeats the store's N rows first, then goes on with ids N + 1, N + 2, … (`rows`).
    init(concurrency workload: Workload, parameters: WorkloadParameters) {
        let count = parameters.count
        switch workload {
        case .c1:
            // Every fetch returns the first rows of age `equalAge` in key (= id) order: the save's
            // rows are not visible until it commits, and come after them anyway.
            let all = Dataset(count: 2 * count, seed: parameters.seed).rows
            var first = Checksum()
            for row in all.prefix(count).filter({ $0.age == parameters.equalAge }).prefix(parameters.smallFetchLimit) { first.append(row) }
            result = first
            rows = Array(all[count...])
            table = Expectation.unordered(all)
            rowsPerRepetition = count
        case .c2:
            let transactions = parameters.concurrentWriters * parameters.writerTransactions
            var all = Dataset(count: count + transactions, seed: parameters.seed).rows
            for index in 0..<transactions { all[index].score = WorkloadParameters.newScore(all[index].score) }
            rows = Array(all[count...])
            table = Expectation.unordered(all)
            resultCount = transactions
            versionBumps = transactions
            rowsPerRepetition = transactions
        default:
            preconditionFailure("\(workload.rawValue) is not a concurrency workload")
        }
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    private static func unordered(_ rows: [PersonRow]) -> Checksum {
        var checksum = Checksum()
        for row in rows { checksum.add(row) }
        return checksum
    }
}
