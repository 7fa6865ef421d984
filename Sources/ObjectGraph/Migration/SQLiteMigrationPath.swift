/// The migration of a SQLite store file from the model that wrote it to the current one: one
/// `SQLiteMigration` step per model version in between (the current model's
/// `previousVersions` newer than the store's), all run in one transaction.
struct SQLiteMigrationPath: CustomStringConvertible {
    let steps: [SQLiteMigration]
    /// The stage of each step, if one was given for its pair of versions.
    let stages: [MigrationStage?]
    /// "from model 'Name' version 1 to 'Name' version 3", for messages.
    let versions: String

    /// The path from `stored` (the model that wrote the store on `connection`) to `model`;
    /// throws `.modelMismatch` listing every change of every step that cannot be inferred.
    init(
        from stored: ManagedObjectModel, to model: ManagedObjectModel, stages given: [MigrationStage] = [],
        mappings explicit: [MappingModel] = [], on connection: SQLiteConnection
    ) throws {
        versions = "from model '\(stored.name)' version \(stored.version) to '\(model.name)' version \(model.version)"
        let between = model.previousVersions.filter { $0.name == model.name && $0.version > stored.version && $0.version < model.version }
        let models = [stored] + between + [model]
        let pairs = Array(zip(models, models.dropFirst()))
        // An explicit mapping's work (and the text conversions inference adds) runs as the first
        // part of the step's stage.
        let explicitMappings = pairs.map { source, destination in
            explicit.first { $0.sourceVersion == source.version && $0.destinationVersion == destination.version }
        }
        let givenStages = pairs.map { source, destination in
            given.first { $0.sourceVersion == source.version && $0.destinationVersion == destination.version }
        }
        let mappings = zip(pairs, zip(givenStages, explicitMappings)).map { pair, extra in
            ModelMapping(from: pair.0, to: pair.1, completedByStage: extra.0?.complete != nil || extra.1 != nil, explicit: extra.1)
        }
        stages = zip(mappings, zip(givenStages, explicitMappings)).map { mapping, extra in
            let (stage, explicit) = extra
            var complete = explicit.map { $0.complete(then: stage?.complete) } ?? stage?.complete
            if let conversions = mapping.textConversionMapping { complete = conversions.complete(then: complete) }
            guard complete != nil || stage != nil else { return nil }
            return MigrationStage(
                from: mapping.source.version, to: mapping.destination.version, prepare: stage?.prepare, complete: complete)
        }
        let issues = mappings.flatMap(\.issues)
        guard issues.isEmpty else {
            var error = ObjectGraphError(
                .modelMismatch,
                "Cannot migrate the store at \(connection.path) \(versions): \(issues.count) \(issues.count == 1 ? "change cannot" : "changes cannot") be inferred:\n"
                    + issues.map { "  \($0)" }.joined(separator: "\n"))
            error.issues = issues
            throw error
        }
        var existingIndexes = try SQLiteMigration.existingIndexes(on: connection)
        var steps: [SQLiteMigration] = []
        for mapping in mappings {
            steps.append(SQLiteMigration(mapping, existingIndexes: existingIndexes))
            existingIndexes = StoreSchema.indexNames(for: mapping.destination)
        }
        self.steps = steps
    }

    /// Runs every step in one transaction: on any failure nothing is changed. `progress` hears
    /// of the rows copied after each table.
    func run(on connection: SQLiteConnection, progress: (@Sendable (MigrationProgress) -> Void)? = nil) throws {
        try connection.transaction {
            // Each step copies the store's rows once: the total is known before the first.
            let total = try progress == nil ? 0 : rowCount(on: connection) * steps.count
            var completed = 0
            for (step, stage) in zip(steps, stages) {
                let label = "version \(step.mapping.source.version) → \(step.mapping.destination.version)"
                try step.run(on: connection, stage: stage) { rows, what in
                    completed += rows
                    progress?(MigrationProgress(completedRows: min(completed, total), totalRows: total, step: "\(label): \(what)"))
                }
            }
            progress?(MigrationProgress(completedRows: total, totalRows: total, step: "done"))
        }
    }

    /// The rows of the tables the first step copies (entities' and join tables').
    private func rowCount(on connection: SQLiteConnection) throws -> Int {
        guard let source = steps.first?.mapping.source else { return 0 }
        let tables =
            source.entities.filter { source.root(of: $0) === $0 }.map(\.name) + RelationshipLayout(model: source).joinTables.map(\.name)
        var total = 0
        for table in tables {
            let statement = try connection.prepare("SELECT count(*) FROM \(quoteIdentifier(table))")
            if try statement.step() { total += Int(statement.int64(at: 0)) }
        }
        return total
    }

    /// Each step's statements, under a line naming its versions.
    var description: String {
        zip(steps, stages).map { step, stage in
            "-- version \(step.mapping.source.version) → \(step.mapping.destination.version)\n\(step.description(stage: stage))"
        }.joined(separator: "\n")
    }
}
